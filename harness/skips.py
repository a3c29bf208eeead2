#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""skips.py EXPECTED KERNEL SKIPPED: compare the skips of one guest run
(SKIPPED, written by ktap.py: "program.case<TAB>reason" lines) with the
skips EXPECTED lists for KERNEL (series: the plain kernel, sanitizers).

EXPECTED has one skip per line: "KERNELS CASE REASON", where KERNELS is
series, sanitizers or both, CASE is program.case ("program(_32).case"
stands for the 64-bit and the i386 program alike) and REASON is the skip's
message, which must match exactly.  Blank lines and '#' lines are comments.

Fails, naming each, on a skip that is not listed, a skip with another
reason than the listed one, and a listed skip that did not happen (the
case passed or failed: either way the list or the suite must change).

skips.py --write EXPECTED KERNEL=SKIPPED...: rewrite EXPECTED from the
skips of the runs named, keeping its leading comment (make skips-list)."""
import collections
import sys


def write(expected_path, runs):
    """Rewrite EXPECTED from runs ("KERNEL=SKIPPED" arguments), keeping
    its leading comment: the list the runs' skips make, for review."""
    head = []
    try:
        for line in open(expected_path):
            if not line.startswith("#"):
                break
            head.append(line)
    except FileNotFoundError:
        pass
    seen = collections.OrderedDict()
    for arg in runs:
        kernel, _, path = arg.partition("=")
        for line in open(path):
            case, _, reason = line.rstrip("\n").partition("\t")
            seen.setdefault(case, {})[kernel] = reason
    kernels = [a.partition("=")[0] for a in runs]
    entries = collections.OrderedDict()
    for case, by in seen.items():
        reasons = set(by.values())
        if len(by) == len(kernels) and len(reasons) == 1:
            groups = [("both", reasons.pop())]
        else:
            groups = sorted(by.items())
        prog, dot, rest = case.partition(".")
        is32 = prog.endswith("_32")
        prog = prog[:-3] if is32 else prog
        for k, r in groups:
            entries.setdefault((k, prog, dot + rest, r), set()).add(is32)
    with open(expected_path, "w") as f:
        f.writelines(head)
        for (k, prog, rest, r), bits in entries.items():
            suffix = "(_32)" if len(bits) == 2 else ("_32" if True in bits else "")
            f.write("%-10s %s%s%s %s\n" % (k, prog, suffix, rest, r))


if sys.argv[1:2] == ["--write"]:
    write(sys.argv[2], sys.argv[3:])
    sys.exit(0)

expected_path, kernel, skipped_path = sys.argv[1:]

want = {}
for n, line in enumerate(open(expected_path), 1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    kernels, case, reason = (line.split(None, 2) + ["", ""])[:3]
    if kernels not in ("series", "sanitizers", "both") or not reason:
        sys.exit("%s:%d: not 'KERNELS CASE REASON': %s"
                 % (expected_path, n, line))
    if kernels not in (kernel, "both"):
        continue
    cases = [case.replace("(_32)", ""), case.replace("(_32)", "_32")]
    for c in dict.fromkeys(cases):
        if c in want:
            sys.exit("%s:%d: %s is listed twice" % (expected_path, n, c))
        want[c] = reason

got = {}
for line in open(skipped_path):
    case, _, reason = line.rstrip("\n").partition("\t")
    got[case] = reason

bad = []
for case, reason in sorted(got.items()):
    if case not in want:
        bad.append("unexpected skip: %s (%s)" % (case, reason))
    elif want[case] != reason:
        bad.append("skip for another reason: %s: '%s', listed: '%s'"
                   % (case, reason, want[case]))
for case in sorted(set(want) - set(got)):
    bad.append("listed skip did not happen (now passes or fails): %s" % case)

for b in bad:
    print(b)
print("%s: %d skips, %d listed for this kernel, %d mismatches"
      % (kernel, len(got), len(want), len(bad)))
sys.exit(1 if bad else 0)
