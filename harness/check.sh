#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [series|base]: every check of the series, ending with one line
# "N passed, N failed, N skipped".  'base' boots the unpatched 7.3 kernel
# with the same selftests (built against the series' headers) instead, and
# skips the checks that are about patches.
. "$(dirname "$0")/lib.sh"

which=${1:-series}
# One check at a time: two would build in the same directories.
exec 9> "$STATX_CACHE/check.lock"
flock -n 9 || die "another make check is running"
res=$OUT/check-$which
rm -rf "$res"
mkdir -p "$res"
summary=$res/summary
: > "$summary"

# record NAME PASSED FAILED SKIPPED
record() { echo "$*" >> "$summary"; }
# check NAME CMD...: one test that passes when CMD succeeds
check() {
	local name=$1
	shift
	if step "$name" "$@" > "$res/$name.log" 2>&1; then
		record "$name" 1 0 0
	else
		say "FAIL: $name (log: $res/$name.log)"
		tail -30 "$res/$name.log" >&2
		record "$name" 0 1 0
		return 1
	fi
}

finish() {
	awk '{ p += $2; f += $3; s += $4 }
	     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f > 0 }' "$summary"
}
trap 'rc=$?; [ -s "$summary" ] || record "harness" 0 1 0; finish || rc=1; exit $rc' EXIT

"$HARNESS/deps.sh"
"$HARNESS/base.sh"
check series-assemble "$HARNESS/series.py" assemble || exit 1
# kselftest_harness.h's SKIP() turns a case whose EXPECT_*() failed into a
# skip; the statx selftests skip only through STATX_SKIP(), which does not.
check statx-skip-guard python3 "$HARNESS/skip_guard.py" \
	"$TREE/tools/testing/selftests/statx" || true

if [ "$which" = series ]; then
	check series-roundtrip "$HARNESS/series.py" verify
	check series-export "$HARNESS/export.sh"
	check series-git-am "$HARNESS/export.sh" --am
	check man-pages "$HARNESS/manpages.sh" || true
	check docs "$HARNESS/docs.sh" || true
	for p in "$OUT"/export/0*.patch; do
		n=$(basename "$p")
		[ "${n#0000-}" = "$n" ] || continue	# the cover letter
		# patches/checkpatch-ignore: "<patch name prefix> <TYPE> # why",
		# the name without its number, for the few checks a patch cannot
		# meet (existing identifiers).
		ign=FILE_PATH_CHANGES
		while read -r pre type _; do
			case "${n#[0-9][0-9][0-9][0-9]-}" in "$pre"*) ign=$ign,$type ;; esac
		done < <(grep -v '^#' "$REPO/patches/checkpatch-ignore" 2>/dev/null)
		check "checkpatch-${n%%-*}" "$TREE/scripts/checkpatch.pl" --strict \
			--no-tree --ignore "$ign" "$p" || true
	done
	if [ "${BISECT:-1}" = 1 ]; then
		"$HARNESS/bisect.sh" --if-changed >> "$summary" || true
	else
		say "bisect: skipped (BISECT=0)"
		record bisect-build 0 0 1
	fi
	# The build robots' configurations, when the series changed since
	# patches/matrix-ok.
	if [ "${MATRIX:-1}" = 1 ]; then
		"$HARNESS/matrix.sh" --if-changed >> "$summary" || true
	else
		say "matrix: skipped (MATRIX=0)"
		record matrix 0 0 1
	fi
fi

if [ "$which" = base ]; then
	"$HARNESS/worktree.sh" base
	kdir=$BASE_WT
else
	kdir=$TREE
fi
[ "$which" = base ] && export STATX_CONFIG_LENIENT=1
check "build-$which" "$HARNESS/build.sh" "$which" "$kdir" || exit 1
unset STATX_CONFIG_LENIENT
hdr=$BUILD/series/usr/include
if [ "$which" = base ]; then
	# The selftests always build against the series' headers; old kernels
	# answer the new requests without the new bits, and the tests skip.
	[ -d "$hdr" ] || "$HARNESS/build.sh" series "$TREE" >/dev/null
else
	"$HARNESS/sparse.sh" >> "$summary" || record sparse 0 1 0
fi
check initramfs "$HARNESS/initramfs.sh" "$TREE" "$hdr" "$res/initramfs.cpio" || exit 1

# guest NAME KERNEL: boot KERNEL, run the selftests, count them and the
# KUnit suites (every result line prefixed with NAME).
guest() {
	local name=$1 kernel=$2 g=$res/$1
	# The sanitizer kernel runs the suite about six times slower.
	local tmo=900
	[ "$name" = sanitizers ] && tmo=2400
	if "$HARNESS/boot.sh" "$kernel" "$res/initramfs.cpio" check "$g" $tmo; then
		record "$name-boot" 1 0 0
	else
		record "$name-boot" 0 1 0
	fi
	sed -n '/^STATX-BEGIN selftests/,/^STATX-END selftests/p' "$g/results.log" \
		| sed '1d;$d' > "$g/selftests.tap"
	python3 "$HARNESS/ktap.py" --kselftest "$TREE" "$name-selftests" "$g/selftests.tap" >> "$summary"
	cat "$g/selftests.tap.parsed" >&2
	# Every skip is one harness/expected-skips lists, for its reason.
	if [ "$name" != base ]; then
		check "$name-skips" "$HARNESS/skips.py" "$HARNESS/expected-skips" \
			"$name" "$g/selftests.tap.skipped" || true
	fi
	python3 "$HARNESS/ktap.py" "$TREE" "$name-kunit" "$g/console.log" >> "$summary"
	cat "$g/console.log.parsed" >&2
	# How long each program ran, from the guest's "program timing" lines.
	awk -v name="$name" '/statx-guest: program timing: / {
		t = $0; sub(/.*program timing: /, "", t); split(t, f, "s ")
		if (prog != "") printf "%s: %s ran %ds\n", name, prog, f[1] - t0
		prog = f[2]; t0 = f[1]
	}' "$g/console.log" | tee "$g/timing" >&2
}

guest "$which" "$BUILD/$which/arch/x86/boot/bzImage"

# The same suite under KASAN, UBSAN, kmemleak, lockdep and fault injection.
if [ "$which" = series ] && [ "${SANITIZERS:-1}" = 1 ]; then
	if check build-sanitizers "$HARNESS/build.sh" kasan "$TREE" \
			"$HARNESS/sanitizers.config"; then
		QEMU_MEM=2G guest sanitizers "$BUILD/kasan/arch/x86/boot/bzImage"
	fi
fi
column -t "$summary" >&2 || cat "$summary" >&2
# What failed, by name, last: CI keeps only the end of the output.
awk -v res="$res" '$3 > 0 { print "failed: " $1 " (log: " res "/" $1 ".log)" }' "$summary" >&2
for f in "$res"/*/*.failed; do
	if [ -s "$f" ]; then
		sed 's/^/failed: /' "$f" >&2
	fi
done
