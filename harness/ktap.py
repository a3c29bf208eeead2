#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ktap.py TREE NAME FILE: count results in FILE with the kernel's own KTAP
parser (tools/testing/kunit/kunit_parser.py from TREE) and print
"NAME passed failed skipped".  Crashed tests and parser errors (a missing
plan, a missing result line, no KTAP at all) count as failures.

With --kselftest, FILE is the kselftest runner's output: each test
program's own KTAP, which the runner prefixes with "# ", is re-indented
as a KTAP subtest first, so every case counts, not every program."""
import io
import re
import sys
from contextlib import redirect_stdout

kselftest = "--kselftest" in sys.argv
args = [a for a in sys.argv[1:] if a != "--kselftest"]
tree, name, path = args
sys.path.insert(0, tree + "/tools/testing/kunit")
import kunit_parser  # noqa: E402

lines = open(path, errors="replace").read().splitlines()
if kselftest:
    out, inner = [], None
    for l in lines:
        m = re.match(r"# selftests: (\S+): (\S+)$", l)
        if m:
            inner = m.group(2)
            out += ["    KTAP version 1", "    # Subtest: " + inner]
            continue
        m = re.match(r"((?:not )?ok \d+) selftests: \S+: (\S+)(.*)$", l)
        if inner and m:
            l, inner = m.group(1) + " " + m.group(2) + m.group(3), None
        if inner:
            if l.startswith("# TAP version") or l.startswith("# timeout"):
                continue
            if l.startswith("# "):
                out.append("    " + l[2:])
                continue
        if l.startswith("TAP version"):
            l = "KTAP version 1"
        out.append(l)
    lines = out

# The skipped leaves, as "program.case<TAB>reason", for the expected-skip
# check (harness/skips.py).  A program skipped as a whole is "program".
if kselftest:
    skip = re.compile(r"^( *)(?:not )?ok \d+ (?:- )?(\S+) # SKIP ?(.*)$")
    subtest = re.compile(r"^( *)# Subtest: (\S+)$")
    names = {}
    with open(path + ".skipped", "w") as f:
        for l in lines:
            m = subtest.match(l)
            if m:
                names[len(m.group(1))] = m.group(2)
                continue
            m = skip.match(l)
            if m:
                depth = len(m.group(1))
                where = [names[d] for d in range(4, depth + 1, 4) if d in names]
                f.write(".".join(where + [m.group(2)]) + "\t" + m.group(3).strip() + "\n")

buf = io.StringIO()
with redirect_stdout(buf):
    if hasattr(kunit_parser, "stdout"):
        # Before 6.13 the parser printed through a module-level printer.
        kunit_parser.stdout.print_with_timestamp = lambda s: print(s)
        test = kunit_parser.parse_run_tests(l + "\n" for l in lines)
    else:
        import kunit_printer  # noqa: E402
        printer = kunit_printer.Printer(output=buf)
        printer.print_with_timestamp = printer.print
        test = kunit_parser.parse_run_tests((l + "\n" for l in lines),
                                            printer)
with open(path + ".parsed", "w") as f:
    f.write(buf.getvalue())


def failures(t, prefix):
    """The failed leaves under t, as "program.case" paths."""
    name = prefix + "." + t.name if prefix and t.name else prefix or t.name
    bad = (kunit_parser.TestStatus.FAILURE, kunit_parser.TestStatus.TEST_CRASHED)
    if not t.subtests:
        return [name] if t.status in bad else []
    found = [f for s in t.subtests for f in failures(s, name)]
    return found or ([name + " (no failed case named)"] if t.status in bad else [])


# The names of what failed, for the end of make check's output.
with open(path + ".failed", "w") as f:
    for n in failures(test, name):
        f.write(n + "\n")
c = test.counts
failed = c.failed + c.crashed + c.errors
if test.status == kunit_parser.TestStatus.FAILURE_TO_PARSE_TESTS:
    failed = max(failed, 1)
print(name, c.passed, failed, c.skipped)
