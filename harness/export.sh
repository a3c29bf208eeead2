#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# export.sh: write the series as numbered git format-patch files with a
# cover letter and base-commit to $OUT/export, and again as the small
# series it is posted as, in $OUT/export/series/NN-name/ (export_series.py),
# From and Signed-off-by the poster: POSTER_NAME and POSTER_EMAIL, else git
# config user.name and user.email, never the repository's identity
# (poster.py).  Without a poster it fails and writes nothing.
# export.sh --unsigned: the same in $OUT/export-unsigned, for the checks
# only (make check): no Signed-off-by at all, not for posting.
# export.sh [--unsigned] --am: git am those files onto a clean base and
# check the result is the series' tree; then each small series in turn.
. "$(dirname "$0")/lib.sh"

exp=$OUT/export
unsigned=
if [ "${1:-}" = --unsigned ]; then
	unsigned=--unsigned
	exp=$OUT/export-unsigned
	shift
fi
if [ "${1:-}" = --am ]; then
	[ -d "$exp" ] || die "no $exp: run export.sh $unsigned first"
	wt=$("$HARNESS/worktree.sh" apply)
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach "$BASE_TAG"
	patches=$(ls "$exp"/0*.patch | grep -v '/0000-')
	# shellcheck disable=SC2086
	git -C "$wt" -c user.name=am -c user.email=am@localhost am -q $patches
	want=$(tgit rev-parse "$SERIES_BRANCH^{tree}")
	got=$(git -C "$wt" rev-parse "HEAD^{tree}")
	[ "$want" = "$got" ] || die "git am gives tree $got, the series is $want"
	echo "git am of $(echo "$patches" | wc -l) patches onto $BASE_TAG: tree $got matches"
	# Each small series, in order, onto a clean base.
	python3 "$HARNESS/export_series.py" "$TREE" "$BASE_TAG" "$SERIES_BRANCH" \
		"$REPO/patches/groups" "$REPO/patches/covers" "$exp/series" --am "$wt"
	exit 0
fi
[ $# -eq 0 ] || die "usage: export.sh [--unsigned] [--am]"

n=$(tgit rev-list --count "$BASE_TAG..$SERIES_BRANCH")
[ "$n" -gt 0 ] || die "the series is empty"
# The commits as they are posted (no ref moves): the poster the author,
# with their Signed-off-by.  Without a poster this fails, saying why,
# before anything is written.
if [ -z "$unsigned" ]; then
	who=$(python3 "$HARNESS/poster.py" ident) || exit 1
	# The cover letters are From the committer.
	GIT_COMMITTER_NAME=${who% <*}
	GIT_COMMITTER_EMAIL=${who##*<}
	GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL%>}
	export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
fi
tip=$(python3 "$HARNESS/poster.py" commits "$TREE" "$BASE_TAG" "$SERIES_BRANCH" \
	$unsigned) || exit 1

rm -rf "$exp"
tgit format-patch -q --cover-letter --base="$BASE_TAG" --zero-commit \
	-o "$exp" "$BASE_TAG..$tip"
cover=$(ls "$exp"/0000-*.patch)
python3 - "$cover" "$REPO/patches/cover-letter" <<'PY'
import sys
cover, blurb = sys.argv[1:]
text = open(cover).read()
subject, _, body = open(blurb).read().partition("\n")
text = text.replace("*** SUBJECT HERE ***", subject.strip())
text = text.replace("*** BLURB HERE ***", body.strip("\n"))
open(cover, "w").write(text)
PY
grep -q '\*\*\*' "$cover" && die "cover letter still has placeholders"

# The same patches as the small series they are posted as, one directory
# each (patches/groups), with their own cover letters and recipients.
python3 "$HARNESS/export_series.py" "$TREE" "$BASE_TAG" "$tip" \
	"$REPO/patches/groups" "$REPO/patches/covers" "$exp/series" ||
	die "the per-series export failed"

if [ -n "$unsigned" ]; then
	cat > "$exp/NOT-FOR-POSTING" <<-EOF
	These patches carry no Signed-off-by: they are what make check checks
	(git am, checkpatch), not a series to post.  make export writes the
	postable series to out/export, From and Signed-off-by its poster
	(POSTER_NAME and POSTER_EMAIL), who certifies the Developer's
	Certificate of Origin by reading what they send.
	EOF
	echo "exported $n patches and a cover letter to $exp, unsigned: for the checks, not for posting"
else
	echo "exported $n patches and a cover letter to $exp, From and Signed-off-by: $who"
fi
