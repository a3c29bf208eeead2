#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fstests_report.py NAME RESULTS.LOG SECTIONS: count what fstests' check
ran in the guest (guest/init's mode fstests wrote to RESULTS.LOG, for
each section, the tests it gave check and check's xunit report), one
summary line per test and section: "NAME-SECTION-TEST PASSED FAILED
SKIPPED".  A test the section did not report, or a section of SECTIONS
(comma-separated) that did not start or end, counts as failed.  The tests that did not run are written,
with fstests' reason, to RESULTS.LOG.skipped ("fstests.SECTION.TEST<TAB>
reason", the form skips.py compares with an expected list), the failures'
output to RESULTS.LOG.failed."""
import re
import sys
import xml.etree.ElementTree as ET

name, log, sections = sys.argv[1:4]
sections = [s for s in sections.split(",") if s]
text = open(log, errors="replace").read()

reports = {}
for m in re.finditer(r"^STATX-BEGIN fstests-xunit (\S+)/result\.xml\n(.*?)^STATX-END fstests-xunit",
                     text, re.S | re.M):
    reports[m.group(1)] = m.group(2)
ended = set(re.findall(r"^STATX-SECTION-END (\S+) rc=\d+", text, re.M))
started = {m.group(1): m.group(2).split() for m in
           re.finditer(r"^STATX-SECTION-TESTS (\S+)(.*)$", text, re.M)}
failed_out = {m.group(1): m.group(2) for m in
              re.finditer(r"^STATX-BEGIN fstests-failed (\S+)\n(.*?)^STATX-END fstests-failed",
                          text, re.S | re.M)}

notrun = []
failed = []
for sec in sections:
    seen = {}
    if sec in reports:
        try:
            root = ET.fromstring(reports[sec])
        except ET.ParseError as e:
            root = None
            print(f"{name}-{sec}: the xunit report does not parse: {e}", file=sys.stderr)
        for tc in (root.iter("testcase") if root is not None else []):
            t = tc.get("name")
            if tc.find("skipped") is not None:
                seen[t] = ("skip", tc.find("skipped").get("message", ""))
            elif tc.find("failure") is not None or tc.find("error") is not None:
                seen[t] = ("fail", "")
            else:
                seen[t] = ("pass", "")
    if sec not in started:
        print(f"{name}-{sec}-check 0 1 0")
        failed.append(f"{name}-{sec}: the section did not start")
        continue
    if sec not in ended:
        print(f"{name}-{sec}-check 0 1 0")
        failed.append(f"{name}-{sec}: the section did not end")
    for t in started[sec]:
        key = f"{name}-{sec}-{t}"
        res, why = seen.get(t, ("fail", ""))
        if t not in seen:
            failed.append(f"{key}: not reported by check")
        if res == "pass":
            print(f"{key} 1 0 0")
        elif res == "skip":
            print(f"{key} 0 0 1")
            notrun.append(f"fstests.{sec}.{t}\t{why}")
        else:
            print(f"{key} 0 1 0")
            if t in seen:
                failed.append(f"{key}: failed")
                out = failed_out.get(f"{sec}/{t}")
                if out:
                    failed.append(out.rstrip())

with open(log + ".skipped", "w") as f:
    f.write("".join(line + "\n" for line in notrun))
with open(log + ".failed", "w") as f:
    f.write("".join(line + "\n" for line in failed))
for line in notrun:
    print("notrun: " + line.replace("\t", ": "), file=sys.stderr)
for line in failed:
    print(f"failed: {line}", file=sys.stderr)
