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
case passed or failed: either way the list or the suite must change)."""
import sys

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
