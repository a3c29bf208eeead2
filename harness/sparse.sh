#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh: run sparse (C=2) on every C file the series changes that the
# config builds, in the series and in the base tree, and fail a file when
# the series has a warning the base does not.  One summary line per file.
. "$(dirname "$0")/lib.sh"

files=$(tgit diff --name-only --diff-filter=AM "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' |
	grep -v '^tools/\|^samples/\|^scripts/' || true)
[ -n "$files" ] || exit 0
base=$("$HARNESS/worktree.sh" base)
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
spmake() { make -s -C "$1" O="$2" ARCH=x86_64 CC="$cc" C=2 "$3" 2>&1 >/dev/null |
	{ grep -E 'warning|error' || true; } |
	sed -E -e "s|$1/||" -e 's/:[0-9]+:[0-9]+:/:/' | sort; }
# The base tree, configured the same way and prepared (not built).
STATX_CONFIG_LENIENT=1 "$HARNESS/build.sh" --prepare base "$base" >&2 || die "cannot prepare the base tree"
for f in $files; do
	o=${f%.c}.o
	[ -f "$BUILD/series/$o" ] || continue
	new=$(spmake "$TREE" "$BUILD/series" "$o")
	old=""
	[ -f "$base/$f" ] && old=$(spmake "$base" "$BUILD/base" "$o")
	extra=$(comm -23 <(echo "$new") <(echo "$old") | grep . || true)
	if [ -n "$extra" ]; then
		say "FAIL: sparse warnings in $f that the base does not have:"
		echo "$extra" >&2
		echo "sparse-$f 0 1 0"
	else
		echo "sparse-$f 1 0 0"
	fi
done
exit 0
