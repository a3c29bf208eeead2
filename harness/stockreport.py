#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""stockreport.py NAME GUESTDIR: what one stock-kernel guest run
(harness/stock.sh) left behind, from GUESTDIR/results.log: the machine's
state before and after the selftests (the guest init's statx.state=1
sections), and the changes its watcher saw while they ran (mount table,
interface flags, RPC caches), with the selftests running at the time.  Also groups the skip reasons of
GUESTDIR/selftests.tap.skipped (written by ktap.py).

Writes the report to GUESTDIR/report.txt and prints "NAME-unchanged P F 0":
one check, passed when every section of the state is the same after the
selftests as before them."""
import collections
import difflib
import re
import sys

name, gdir = sys.argv[1:]
log = open(gdir + "/results.log", errors="replace").read().splitlines()


def block(begin, end):
    """The lines between the marker lines BEGIN and END, or None."""
    try:
        i = log.index(begin)
        j = log.index(end, i)
    except ValueError:
        return None
    return log[i + 1:j]


def sections(lines):
    """'## title' sections of a state block, as {title: [lines]}."""
    out, cur = collections.OrderedDict(), None
    for line in lines:
        if line.startswith("## "):
            cur = out.setdefault(line[3:], [])
        elif cur is not None:
            cur.append(line)
    return out


def strip_ids(lines):
    """mountinfo without the mount ID and the parent ID."""
    return [l.split(" ", 2)[2] if l.count(" ") >= 2 else l for l in lines]


report = []
say = report.append
before = block("STATX-STATE-BEGIN before", "STATX-STATE-END before")
after = block("STATX-STATE-BEGIN after", "STATX-STATE-END after")
changed = []
if before is None or after is None:
    say("machine state: not recorded (%s missing)"
        % ("before" if before is None else "after"))
    changed.append("(not recorded)")
else:
    b, a = sections(before), sections(after)
    for title in list(b) + [t for t in a if t not in b]:
        x, y = b.get(title, []), a.get(title, [])
        if x == y:
            say("%s: unchanged (%d lines)" % (title, len(x)))
            continue
        changed.append(title)
        note = ""
        if title == "mountinfo" and strip_ids(x) == strip_ids(y):
            note = " (only the mount IDs differ)"
        say("%s: CHANGED%s" % (title, note))
        for d in difflib.unified_diff(x, y, "before", "after", lineterm="",
                                      n=0):
            if not d.startswith(("---", "+++", "@@")):
                say("    " + d)

watch = block("STATX-WATCH-BEGIN", "STATX-WATCH-END")
if watch:
    say("")
    say("changes to the mount table, interface flags and RPC caches seen"
        " while the selftests ran (once a second; 'running then' and 'at the"
        " last look' bracket the change):")
    for line in watch:
        say("    " + line)
elif watch is not None:
    say("")
    say("no change to the mount table, interface flags or RPC caches seen"
        " while the selftests ran")

# Skip reasons, grouped: a mount point /mnt/X (or /mnt/X-Y) and the word X
# in the same reason become <fs>, so "N skips: <fs> is not mounted at
# /mnt/<fs>"; the mount points are listed after the count.
skips = collections.Counter()
which = collections.defaultdict(set)
try:
    lines = open(gdir + "/selftests.tap.skipped").read().splitlines()
except OSError:
    lines = []
for line in lines:
    case, _, reason = line.partition("\t")
    fss = re.findall(r"/mnt/([\w.-]+)", reason)
    words = set(fss) | {fs.split("-")[0] for fs in fss}
    for w in sorted(words, key=len, reverse=True):
        reason = re.sub(r"(?<![\w.-])%s(?![\w.-])" % re.escape(w), "<fs>",
                        reason)
    which[reason].update(fss)
    skips[reason or "(no reason given)"] += 1
say("")
say("%d skips, by reason:" % sum(skips.values()))
for reason, n in sorted(skips.items(), key=lambda kv: (-kv[1], kv[0])):
    fs = sorted(which[reason])
    say("  %4d  %s%s" % (n, reason, " (%s)" % ", ".join(fs) if fs else ""))

try:
    failed = open(gdir + "/selftests.tap.failed").read().split()
except OSError:
    failed = []
if failed:
    say("")
    say("%d failed:" % len(failed))
    for f in failed:
        say("    " + f)

with open(gdir + "/report.txt", "w") as f:
    f.write("\n".join(report) + "\n")
print("%s-unchanged %d %d 0" % (name, 0 if changed else 1, 1 if changed else 0))
