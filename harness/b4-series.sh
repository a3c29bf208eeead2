#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# b4-series.sh NAME: one small series of patches/groups as Debian's b4
# (0.12) takes it: a branch b4/statx-NAME made by "b4 prep" in a scratch
# worktree, the series' commits on it, its cover letter from
# patches/covers/NAME, recipients from "b4 prep --auto-to-cc", and the
# messages "b4 send --dry-run" would send, in $OUT/b4/NAME.
# The patches are From and Signed-off-by the poster, as make export
# writes them (poster.py), and b4 runs as the poster; without a poster it
# fails, saying why.
# (b4 0.12 cannot read the exported mbox itself: "b4 am -m" fails on the
# folded From: and Subject: headers git format-patch writes.)
. "$(dirname "$0")/lib.sh"

name=${1:?usage: b4-series.sh NAME (a line of patches/groups)}
command -v b4 >/dev/null || die "b4 is not installed (apt-get install b4)"
who=$(python3 "$HARNESS/poster.py" ident) || exit 1
pname=${who% <*}
pemail=${who##*<}
pemail=${pemail%>}
# b4 takes the sender from git config user.name and user.email.
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$pname" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$pemail"
# The commits as posted: the poster the author, with their sign-off.
tip=$(python3 "$HARNESS/poster.py" commits "$TREE" "$BASE_TAG" "$SERIES_BRANCH") ||
	exit 1
range=$(cd "$HARNESS" && python3 -c '
import sys
from export_series import groups_of
tree, base, branch, path, name = sys.argv[1:]
commits, groups = groups_of(tree, base, branch, path)
for n, first, last in groups:
    if n == name:
        print(commits[first - 1] if first else base, commits[last])
        break
else:
    sys.exit("no series " + name)
' "$TREE" "$BASE_TAG" "$tip" "$REPO/patches/groups" "$name") || exit 1
set -- $range
wt=${B4_WORKTREE:-$("$HARNESS/worktree.sh" apply)}
g() { git -C "$wt" "$@"; }
g checkout -q -f --detach "$1"
g branch -D "b4/statx-$name" >/dev/null 2>&1 || true
g branch -D "b4-base-$name" >/dev/null 2>&1 || true
g checkout -q -b "b4-base-$name"
(cd "$wt" && b4 prep -n "statx-$name" -f "b4-base-$name" >/dev/null) ||
	die "b4 prep failed"
g cherry-pick "$1..$2" >/dev/null ||
	die "cherry-pick failed"
# The cover letter: b4 wants the subject, a blank line, the text.
ed=$(mktemp)
cat > "$ed" <<EOS
#!/bin/sh
{ head -1 "$REPO/patches/covers/$name"; echo
  tail -n +2 "$REPO/patches/covers/$name" | sed '1,/^[^C]/{/^Cc: /d}'
  sed -n '/^---/,\$p' "\$1"; } > "\$1.new" && mv "\$1.new" "\$1"
EOS
chmod +x "$ed"
(cd "$wt" && EDITOR=$ed b4 prep --edit-cover >/dev/null 2>&1) || die "b4 prep --edit-cover failed"
rm -f "$ed"
(cd "$wt" && b4 prep --auto-to-cc >/dev/null 2>&1) || die "b4 prep --auto-to-cc failed"
rm -rf "$OUT/b4/$name"
(cd "$wt" && GIT_CONFIG_COUNT=3 GIT_CONFIG_KEY_2=sendemail.smtpserver \
	GIT_CONFIG_VALUE_2=/bin/true b4 send --dry-run --no-sign \
	-o "$OUT/b4/$name" >/dev/null 2>&1) || die "b4 send --dry-run failed"
echo "b4: $(ls "$OUT/b4/$name" | wc -l) messages for series $name in $OUT/b4/$name"
