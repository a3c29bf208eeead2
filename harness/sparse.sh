#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh: run sparse (C=2) on every C file the series changes that the
# config builds, in the series and in the base tree, and fail a file when
# the series has a warning the base does not.  One summary line per file,
# and one for the headers when they gain a warning.
. "$(dirname "$0")/lib.sh"

files=$(tgit diff --name-only --diff-filter=AM "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' |
	grep -v '^tools/\|^samples/\|^scripts/' || true)
[ -n "$files" ] || exit 0
base=$("$HARNESS/worktree.sh" base)

# A sparse the kernel accepts: kbuild runs scripts/checker-valid.sh and, when
# sparse fails it, only warns and checks nothing.  7.3 uses
# __typeof_unqual__, which Debian 12's sparse 0.6.4 does not parse; Debian
# unstable's does, but wants a newer C library, so it runs with unstable's
# dynamic loader and libc, unpacked under $STATX_CACHE (nothing installed).
sparse_valid() { [ "$("$TREE/scripts/checker-valid.sh" "$1" --arch=x86_64 -mlittle-endian -m64)" = 1 ]; }
check_cmd=sparse
if ! sparse_valid "$check_cmd"; then
	sp=$STATX_CACHE/sparse-unstable
	check_cmd=$sp/sparse
	if ! sparse_valid "$check_cmd"; then
		rm -rf "$sp"
		mkdir -p "$sp/deb"
		(cd "$sp/deb" && apt_private apt-get -qq download sparse libc6) 2>&1 |
			grep -v 'unsandboxed' >&2 || true
		for d in "$sp"/deb/*.deb; do
			dpkg-deb -x "$d" "$sp/root" || die "cannot unpack $d"
		done
		lib=$sp/root/usr/lib/x86_64-linux-gnu
		printf '#!/bin/sh\nexec %s --library-path %s %s "$@"\n' \
			"$lib/ld-linux-x86-64.so.2" "$lib" "$sp/root/usr/bin/sparse" > "$check_cmd"
		chmod +x "$check_cmd"
		sparse_valid "$check_cmd" ||
			die "neither Debian 12's sparse nor unstable's ($check_cmd) passes $TREE/scripts/checker-valid.sh"
	fi
fi
say "sparse: $("$check_cmd" --version)"

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
# spmake TREE BUILD_DIR OUT OBJECTS...: sparse's warnings on OBJECTS into
# OUT, one make for all of them (a make per object spends most of its time
# in kbuild's own start) with a job per core (the base's objects are
# compiled for the first time here), as "file: text" without line
# numbers, sorted and unique.
spmake() {
	local tree=$1 dir=$2 out=$3 log
	shift 3
	: > "$out"
	[ $# -gt 0 ] || return 0
	log=$out.log
	make -s -C "$tree" O="$dir" ARCH=x86_64 CC="$cc" C=2 CHECK="$check_cmd" -j"$JOBS" "$@" \
		> /dev/null 2> "$log" || true
	! grep -q 'not available or not up to date' "$log" ||
		die "kbuild did not run $check_cmd: $(grep 'not available' "$log")"
	{ grep -E 'warning|error' "$log" || true; } |
		sed -E -e "s|$tree/||" -e 's/:[0-9]+:[0-9]+:/:/' | sort -u > "$out"
}
# The base tree, configured the same way and prepared (not built).
STATX_CONFIG_LENIENT=1 "$HARNESS/build.sh" --prepare base "$base" >&2 || die "cannot prepare the base tree"
checked=()
new_objs=()
old_objs=()
for f in $files; do
	o=${f%.c}.o
	[ -f "$BUILD/series/$o" ] || continue
	checked+=("$f")
	new_objs+=("$o")
	[ -f "$base/$f" ] && old_objs+=("$o")
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spmake "$TREE" "$BUILD/series" "$tmp/new" "${new_objs[@]}"
spmake "$base" "$BUILD/base" "$tmp/old" "${old_objs[@]}"
# A warning is the series' when the base does not give the same text for the
# same file; it counts against the C file it is in, or, in a header, against
# that header.
extra=$(comm -23 "$tmp/new" "$tmp/old" | grep . || true)
for f in "${checked[@]}"; do
	mine=$(echo "$extra" | awk -v p="$f:" 'index($0, p) == 1')
	if [ -n "$mine" ]; then
		say "FAIL: sparse warnings in $f that the base does not have:"
		echo "$mine" >&2
		echo "sparse-$f 0 1 0"
	else
		echo "sparse-$f 1 0 0"
	fi
done
rest=$(echo "$extra" | awk -v list="${checked[*]}" '
	BEGIN { n = split(list, f, " ") }
	{ for (i = 1; i <= n; i++) if (index($0, f[i] ":") == 1) next; print }')
if [ -n "$rest" ]; then
	say "FAIL: sparse warnings in headers that the base does not have:"
	echo "$rest" >&2
	echo "sparse-headers 0 1 0"
fi
exit 0
