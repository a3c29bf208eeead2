#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# docs.sh: two documentation checks on the series.
#  - toctree: every .rst file a patch adds under Documentation/ is named in
#    a toctree of the tree that patch leaves (no "document isn't included
#    in any toctree" warning from make htmldocs at any commit);
#  - kernel-doc: scripts/kernel-doc -none -Wall on every C file the series
#    changes warns no more on the series' tip than on the base.
. "$(dirname "$0")/lib.sh"

python3 - "$TREE" "$BASE_TAG" "$SERIES_BRANCH" <<'PY' || exit 1
import re
import subprocess
import sys

tree, base, tip = sys.argv[1:]
git = lambda *a: subprocess.run(["git", "-C", tree] + list(a), check=True,
                                capture_output=True, text=True).stdout
bad = 0
commits = git("rev-list", "--reverse", "%s..%s" % (base, tip)).split()
for i, c in enumerate(commits, 1):
    added = [f for f in git("diff-tree", "-r", "--no-commit-id", "--name-only",
                            "--diff-filter=A", c).split()
             if f.startswith("Documentation/") and f.endswith(".rst")]
    for f in added:
        d, name = f.rsplit("/", 1)
        stem = name[:-4]
        found = False
        # a toctree in an .rst file of the same directory names it
        for other in git("ls-tree", "--name-only", c, d + "/").split():
            if not other.endswith(".rst") or other == f:
                continue
            text = git("show", "%s:%s" % (c, other))
            for block in re.findall(r"(?ms)^\.\. toctree::\n(.*?)(?=^\S|\Z)", text):
                if re.search(r"(?m)^\s+%s\s*$" % re.escape(stem), block):
                    found = True
        if not found:
            print("patch %04d adds %s in no toctree" % (i, f))
            bad += 1
print("toctree: every document the %d patches add is in a toctree when added"
      % len(commits) if not bad else "toctree: %d documents outside any toctree" % bad)
sys.exit(1 if bad else 0)
PY

files=$(tgit diff --name-only --diff-filter=AM "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' '*.h' |
	grep -v '^tools/\|^samples/\|^scripts/' || true)
"$HARNESS/worktree.sh" base >/dev/null
wt=$("$HARNESS/worktree.sh" apply)
git -C "$wt" checkout -q -f --detach "$SERIES_BRANCH"
# 7.3's kernel-doc is Python and writes "Warning: file:line text"; Perl's
# wrote "file:line: warning: text".  Count either.
kdoc_run() { "$TREE/scripts/kernel-doc" -none -Wall "$@" 2>&1 | grep -i 'warning:' || true; }
kdoc() { kdoc_run "$@" | wc -l; }
# The checker must see a mistake a test file makes, or it counts nothing.
probe=$(mktemp --suffix=.c)
printf '/**\n * probe() - x\n * @a: y\n */\nint probe(int b);\n' > "$probe"
[ "$(kdoc "$probe")" -gt 0 ] || die "scripts/kernel-doc finds nothing wrong in $probe"
rm -f "$probe"
worse=0
for f in $files; do
	new=$(cd "$wt" && kdoc "$f")
	old=0
	if git -C "$TREE" cat-file -e "$BASE_TAG:$f" 2>/dev/null; then
		old=$(cd "$BASE_WT" && kdoc "$f")
	fi
	if [ "$new" -gt "$old" ]; then
		echo "kernel-doc: $f: $new warnings, $old on the base"
		(cd "$wt" && kdoc_run "$f" | head -5)
		worse=$((worse + 1))
	fi
done
[ "$worse" -eq 0 ] || die "kernel-doc warns more on $worse files than on the base"
echo "kernel-doc: $(echo "$files" | wc -w) changed C files, no new warning"
