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
checks_pid=
kasan_pid=
trap 'rc=$?; [ -z "$checks_pid" ] || wait "$checks_pid"
      [ -z "$kasan_pid" ] || wait "$kasan_pid"
      [ -s "$summary" ] || record "harness" 0 1 0; finish || rc=1; exit $rc' EXIT

"$HARNESS/deps.sh"
"$HARNESS/base.sh"
check series-assemble "$HARNESS/series.py" assemble || exit 1
# kselftest_harness.h's SKIP() turns a case whose EXPECT_*() failed into a
# skip; the statx selftests skip only through STATX_SKIP(), which does not.
check statx-skip-guard python3 "$HARNESS/skip_guard.py" \
	"$TREE/tools/testing/selftests/statx" || true
# profile.sh's QEMU plugin and report, on a guest of known counts.
check profile-selftest "$HARNESS/profile-selftest.sh" || true

# export_needs_poster: an export without a poster identity (git config
# is the repository's own identity, POSTER_NAME and POSTER_EMAIL unset)
# fails, says why, and writes no patch.
export_needs_poster() {
	local d rc=0
	d=$(mktemp -d)
	env -u POSTER_NAME -u POSTER_EMAIL STATX_OUT="$d" GIT_CONFIG_COUNT=2 \
		GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="Seed 0462fdd3 maintainers" \
		GIT_CONFIG_KEY_1=user.email \
		GIT_CONFIG_VALUE_1=maintainers@users.noreply.a-seed-0462fdd3.example \
		"$HARNESS/export.sh" > "$d/log" 2>&1 || rc=$?
	cat "$d/log"
	if [ $rc -eq 0 ] || [ -e "$d/export" ] ||
	   ! grep -q "Developer's Certificate of Origin" "$d/log"; then
		rm -rf "$d"
		die "export.sh without a poster identity: exit $rc, it must fail saying why and write nothing"
	fi
	rm -rf "$d"
	echo "export.sh without a poster identity fails, saying why, and writes nothing"
}

# apply_to_clone: make apply, as a user with a tree of their own runs it,
# onto a clone of the base; each commit must be the series' own (tree,
# author, date, message).
apply_to_clone() {
	local d want got rc=0 fmt='%T %an <%ae> %ad%n%B'
	d=$(mktemp -d "$STATX_CACHE/apply-check.XXXXXX")
	git clone -q --shared -c advice.detachedHead=false --branch "$BASE_TAG" \
		"$TREE" "$d/linux" || rc=$?
	if [ $rc -eq 0 ]; then
		git -C "$d/linux" config user.name am
		git -C "$d/linux" config user.email am@localhost
		make -s -C "$REPO" apply TREE="$d/linux" || rc=$?
	fi
	if [ $rc -eq 0 ]; then
		want=$(tgit rev-parse "$SERIES_BRANCH^{tree}")
		got=$(git -C "$d/linux" rev-parse "HEAD^{tree}")
		if [ "$want" != "$got" ]; then
			echo "make apply gives tree $got, the series is $want"
			rc=1
		elif ! diff -u <(tgit log --format="$fmt" "$BASE_TAG..$SERIES_BRANCH") \
			<(git -C "$d/linux" log --format="$fmt" "$BASE_TAG..HEAD"); then
			echo "make apply gives the series' tree, but other commits"
			rc=1
		else
			echo "make apply onto a clone of $BASE_TAG: tree $got, the series' commits"
		fi
	fi
	rm -rf "$d"
	return $rc
}

# The checks of the patches themselves (export, git am, documentation,
# checkpatch) are mostly single-threaded: they run beside the kernel
# builds, in the background, and are waited for before the guests boot.
if [ "$which" = series ]; then
	# The worktrees they share with sparse.sh exist before either starts.
	"$HARNESS/worktree.sh" base > /dev/null
	"$HARNESS/worktree.sh" apply > /dev/null
	{
		check series-roundtrip "$HARNESS/series.py" verify
		# The export as make export writes it, but with no
		# Signed-off-by (only a poster signs, in make export): not for
		# posting.
		check series-export "$HARNESS/export.sh" --unsigned
		check series-git-am "$HARNESS/export.sh" --unsigned --am
		check series-export-needs-poster export_needs_poster || true
		check series-apply apply_to_clone || true
		check man-pages "$HARNESS/manpages.sh" || true
		check docs "$HARNESS/docs.sh" || true
		for p in "$OUT"/export-unsigned/0*.patch; do
			n=$(basename "$p")
			[ "${n#0000-}" = "$n" ] || continue	# the cover letter
			# patches/checkpatch-ignore: "<patch name prefix> <TYPE> # why",
			# the name without its number, for the few checks a patch cannot
			# meet (existing identifiers).  MISSING_SIGN_OFF: these are
			# the unsigned export; the poster's sign-off is added by
			# make export.
			ign=FILE_PATH_CHANGES,MISSING_SIGN_OFF
			while read -r pre type _; do
				case "${n#[0-9][0-9][0-9][0-9]-}" in "$pre"*) ign=$ign,$type ;; esac
			done < <(grep -v '^#' "$REPO/patches/checkpatch-ignore" 2>/dev/null)
			check "checkpatch-${n%%-*}" "$TREE/scripts/checkpatch.pl" --strict \
				--no-tree --ignore "$ign" "$p" || true
		done
	} > "$res/patch-checks.out" 2>&1 &
	checks_pid=$!
	# The per-patch builds and the build robots' configurations: what
	# their ledgers (patches/bisect-ok, patches/matrix-ok) do not cover
	# is a skip, by name; make bisect and make matrix build it.
	if [ "${BISECT:-1}" = 1 ]; then
		"$HARNESS/bisect.sh" --if-changed >> "$summary" || true
	else
		say "bisect: skipped (BISECT=0)"
		record bisect-build 0 0 1
	fi
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
# The sanitizer kernel builds from here on, niced, beside sparse, the
# guests and fstests: those leave a core idle for minutes at a time (sparse
# between its jobs, fstests while it makes its root filesystem and while
# one of its guests has finished), and the build takes what is left.
sanitizers=0
if [ "$which" = series ] && [ "${SANITIZERS:-1}" = 1 ]; then
	sanitizers=1
	(
		renice -n 19 -p "$BASHPID" > /dev/null
		check build-sanitizers "$HARNESS/build.sh" --no-fstests kasan \
			"$TREE" "$HARNESS/sanitizers.config"
	) &
	kasan_pid=$!
fi
hdr=$BUILD/series/usr/include
if [ "$which" = base ]; then
	# The selftests always build against the series' headers; old kernels
	# answer the new requests without the new bits, and the tests skip.
	[ -d "$hdr" ] || "$HARNESS/build.sh" series "$TREE" >/dev/null
else
	"$HARNESS/sparse.sh" >> "$summary" || record sparse 0 1 0
fi
check initramfs "$HARNESS/initramfs.sh" "$TREE" "$hdr" "$res/initramfs.cpio" || exit 1

# part NAME PART KERNEL PROGRAMS [CMDLINE]: boot KERNEL and run the
# selftest programs PROGRAMS (comma-separated) in $res/NAME/PART.
part() {
	local name=$1 part=$2 kernel=$3 progs=$4 extra=${5:-} tmo=900
	# The sanitizer kernel runs the suite about six times slower.  It
	# boots with 4-level paging: with 5-level paging (-cpu max has LA57)
	# the base kernel's KASAN can report an interrupt taken during
	# identify_boot_cpu() as a wild-memory-access, because identify_cpu()
	# clears boot_cpu_data's capabilities before it reads them again,
	# and until alternatives are applied pgtable_l5_enabled() reads them,
	# so for that window KASAN_SHADOW_START is the 4-level one and a
	# direct-map address (0xff11...) has no shadow.  Seen once in a
	# sanitizer boot, before any code of the series ran.
	#
	# Under the sanitizers statx_fuzz makes a quarter of its calls from
	# another seed (the kernel hands NAME=VALUE words it does not know to
	# init's environment): the two boots then cover 250,000 different
	# calls rather than the same 200,000 twice, and the sanitizer guests,
	# the longest step of a cold run, spend about 5 minutes less on it.
	[ "$name" = sanitizers ] && { tmo=1800
		extra="$extra no5lvl STATX_FUZZ_COUNT=50000 STATX_FUZZ_SEED=0x5eedf00dcafe0b0b"; }
	# The selftests make what they use: no disk.
	STATX_DISKS=0 KCMDLINE="statx.only=$progs $extra" BOOT_NAME="$name ($part)" \
		"$HARNESS/boot.sh" "$kernel" "$res/initramfs.cpio" check "$res/$name/$part" $tmo
}

# guest NAME KERNEL: run the selftests on KERNEL in two guests at once
# (one QEMU per host core: the programs run one after the other, so a
# guest keeps about one core busy), and count them and the KUnit suites
# (every result line prefixed with NAME).  The first guest runs the KUnit
# suites and most programs, the second the _32 builds and statx_fuzz, the
# longest program (67 of the 146 s the programs take under the
# sanitizers), so that the two end about together.
guest() {
	local name=$1 kernel=$2 g=$res/$1 list=$OUT/initramfs/kselftest/kselftest-list.txt
	local progs p1 p2 pid2= rc1=0 rc2=0 parts="1" sample_ls=
	# The statx_dir() sample against coreutils' "ls -ln", on a kernel
	# that has the call.
	[ "$name" = base ] || sample_ls=statx.sample_ls=1
	progs=$(sed -n 's/^statx://p' "$list")
	p1=$(grep -v -e '_32$' -e '^statx_fuzz$' <<< "$progs" | paste -sd,)
	p2=$(grep -e '_32$' -e '^statx_fuzz$' <<< "$progs" | paste -sd,)
	mkdir -p "$g"
	if [ -n "$p2" ]; then
		parts="1 2"
		part "$name" 2 "$kernel" "$p2" "kunit.enable=0 $sample_ls" > "$g/2.log" 2>&1 &
		pid2=$!
	fi
	part "$name" 1 "$kernel" "$p1" || rc1=$?
	[ -z "$pid2" ] || wait $pid2 || rc2=$?
	[ -z "$pid2" ] || cat "$g/2.log" >&2
	if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ]; then
		record "$name-boot" 1 0 0
	else
		record "$name-boot" 0 1 0
	fi
	: > "$g/selftests.tap.skipped"
	local p
	for p in $parts; do
		sed -n '/^STATX-BEGIN selftests/,/^STATX-END selftests/p' "$g/$p/results.log" \
			| sed '1d;$d' > "$g/$p/selftests.tap"
		python3 "$HARNESS/ktap.py" --kselftest "$TREE" "$name-selftests-$p" \
			"$g/$p/selftests.tap" >> "$summary"
		cat "$g/$p/selftests.tap.parsed" >&2
		cat "$g/$p/selftests.tap.skipped" >> "$g/selftests.tap.skipped"
		# How long each program ran, from the guest's "program timing" lines.
		awk -v name="$name" '/statx-guest: program timing: / {
			t = $0; sub(/.*program timing: /, "", t); split(t, f, "s ")
			if (prog != "") printf "%s: %s ran %ds\n", name, prog, f[1] - t0
			prog = f[2]; t0 = f[1]
		}' "$g/$p/console.log"
	done | tee "$g/timing" >&2
	# Every skip is one harness/expected-skips lists, for its reason.
	if [ "$name" != base ]; then
		check "$name-skips" "$HARNESS/skips.py" "$HARNESS/expected-skips" \
			"$name" "$g/selftests.tap.skipped" || true
	fi
	if [ -n "$sample_ls" ]; then
		local sl=$g/2/sample-ls.log
		sed -n '/^STATX-BEGIN sample-ls/,/^STATX-END sample-ls/p' \
			"$g/2/results.log" > "$sl"
		cat "$sl" >&2
		if grep -q '^STATX-END sample-ls rc=0' "$sl"; then
			record "$name-sample-ls" 1 0 0
		else
			say "FAIL: $name-sample-ls (log: $sl)"
			record "$name-sample-ls" 0 1 0
		fi
	fi
	python3 "$HARNESS/ktap.py" "$TREE" "$name-kunit" "$g/1/console.log" >> "$summary"
	cat "$g/1/console.log.parsed" >&2
}

if [ -n "$checks_pid" ]; then
	wait "$checks_pid" || true
	checks_pid=
	cat "$res/patch-checks.out" >&2
fi
guest "$which" "$BUILD/$which/arch/x86/boot/bzImage"

# fstests: the statx tests of fstests and of the series' fstests patches
# (fstests/), on each filesystem, in a guest that runs fstests' check in
# the root filesystem fstests.sh makes.
if [ "${FSTESTS:-1}" = 1 ]; then
	"$HARNESS/fstests-guest.sh" "$which" "$BUILD/$which/arch/x86/boot/bzImage" \
		"$BUILD/$which" "$res/$which-fstests" >> "$summary" || true
	# Every test that did not run is one harness/expected-fstests-skips
	# lists, for its reason.
	[ "$which" = base ] ||
		check "$which-fstests-skips" "$HARNESS/skips.py" \
			"$HARNESS/expected-fstests-skips" "$which" \
			"$res/$which-fstests/run/results.log.skipped" || true
fi

# The same suite under KASAN, UBSAN, kmemleak, lockdep and fault injection.
if [ "$sanitizers" = 1 ]; then
	rc=0
	wait "$kasan_pid" || rc=$?
	kasan_pid=
	if [ $rc -eq 0 ]; then
		QEMU_MEM=2G guest sanitizers "$BUILD/kasan/arch/x86/boot/bzImage"
	fi
fi
column -t "$summary" >&2 || cat "$summary" >&2
# What failed, by name, last: CI keeps only the end of the output.
awk -v res="$res" '$3 > 0 { print "failed: " $1 " (log: " res "/" $1 ".log)" }' "$summary" >&2
for f in "$res"/*/*.failed "$res"/*-fstests/run/results.log.failed; do
	if [ -s "$f" ]; then
		sed 's/^/failed: /' "$f" >&2
	fi
done
