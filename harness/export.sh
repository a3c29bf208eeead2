#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# export.sh: write the series as numbered git format-patch files with a
# cover letter and base-commit to $OUT/export, and again as the small
# series it is posted as, in $OUT/export/series/NN-name/ (export_series.py),
# From and Signed-off-by the person running it (POSTER_NAME, POSTER_EMAIL,
# or git config).
# export.sh --am: git am those files onto a clean base and check the result
# is the series' tree; then each small series in turn.
. "$(dirname "$0")/lib.sh"

exp=$OUT/export
if [ "${1:-}" = --am ]; then
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

rm -rf "$exp"
n=$(tgit rev-list --count "$BASE_TAG..$SERIES_BRANCH")
[ "$n" -gt 0 ] || die "the series is empty"
tgit format-patch -q --cover-letter --base="$BASE_TAG" --zero-commit \
	-o "$exp" "$BASE_TAG..$SERIES_BRANCH"
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
python3 "$HARNESS/export_series.py" "$TREE" "$BASE_TAG" "$SERIES_BRANCH" \
	"$REPO/patches/groups" "$REPO/patches/covers" "$exp/series" ||
	die "the per-series export failed"

# The poster's identity: POSTER_NAME and POSTER_EMAIL, or git config
# user.name and user.email where make export runs.  Only without either
# do the patches keep the repository's identity.
project_name="Seed 0462fdd3 maintainers"
project_email="maintainers@users.noreply.a-seed-0462fdd3.example"
name=${POSTER_NAME:-$(git -C "$REPO" config user.name || true)}
email=${POSTER_EMAIL:-$(git -C "$REPO" config user.email || true)}
if [ -n "$name" ] && [ -n "$email" ] &&
   [ "$name <$email>" != "$project_name <$project_email>" ]; then
	python3 - "$project_name" "$project_email" "$name <$email>" \
		"$exp"/*.patch "$exp"/series/*/*.patch <<'PY'
import re
import sys
name, email, new, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
# format-patch may fold the From: header between the name and the address.
old = re.escape(name) + r"\s+<" + re.escape(email) + ">"
for p in files:
    text = open(p).read()
    text = re.sub(r"(?m)^(From|Signed-off-by): " + old, r"\1: " + new, text)
    # the cover letter's shortlog
    text = re.sub(r"(?m)^" + re.escape(name) + r" (\(\d+\):)$",
                  new.split(" <")[0] + r" \1", text)
    open(p, "w").write(text)
PY
	echo "From and Signed-off-by: $name <$email> (the poster's identity)"
else
	echo "From and Signed-off-by: $project_name <$project_email>" \
		"(the repository's identity, which is no one's sign-off: set" \
		"POSTER_NAME and POSTER_EMAIL or git config user.name/user.email)"
fi
echo "exported $n patches and a cover letter to $exp"
