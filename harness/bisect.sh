#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh [--if-changed]: build after every patch of the series (in the
# scratch worktree, one O= directory each, incrementally): the kernel, and,
# where the patch changes them, the statx selftests and samples/vfs/
# test-statx against that kernel's uapi headers (a compiler warning fails
# them too).  Prints one "bisect-NNNN passed failed skipped" line per commit.
#
# patches/bisect-ok is a ledger: the keys (see kernel_key and user_key) of
# the trees that built, one per line, added as each commit builds, so that
# the work of a run that stops early counts for the next one, on any
# machine; a full run leaves only the current series' keys.  A commit whose
# keys are in the ledger, or in this machine's cache, is not built again.
#
# With --if-changed (make check) nothing is built unless BISECT_BUDGET
# allows (0 seconds by default there): the commits the ledger does not
# cover are listed and counted as skipped, and make bisect builds them.
. "$(dirname "$0")/lib.sh"

ledger=$REPO/patches/bisect-ok
check_only=0
[ "${1:-}" = --if-changed ] && check_only=1
# The scratch worktree is checked out when the first commit is built.
wt=
# What built before need not build again: the kernel is keyed by every
# file that can reach bzImage (not the selftests, Documentation/ or
# MAINTAINERS) and the configuration; the user-space programs by their
# sources and the uapi headers.
done_dir=$STATX_CACHE/bisect-ok
mkdir -p "$done_dir"
# The configuration: the options of build.sh's three fragments, in any
# order and any file.
cfg=$(cat "$REPO/tools/testing/selftests/statx/config" "$HARNESS/guest.config" \
	"$HARNESS/fstests.config" |
	grep '^CONFIG_' | sort -u | sha256sum | cut -c1-16)
user_paths=(tools/testing/selftests/statx tools/testing/selftests/kselftest_harness.h
	    tools/testing/selftests/lib.mk samples/vfs/test-statx.c include/uapi)
# The subtrees' object names stand for their contents, so two short
# listings (the top level without Documentation/, MAINTAINERS and tools/,
# and tools/ without testing/) key what a recursive one would.
kernel_key() {
	{ tgit ls-tree "$1" | grep -Ev $'\t(Documentation|MAINTAINERS|tools)$'
	  tgit ls-tree "$1:tools" | grep -Ev $'\ttesting$'; } |
		sha256sum | cut -c1-40
}
user_key() {
	tgit ls-tree -r "$1" -- "${user_paths[@]}" | sha256sum | cut -c1-40
}
# Build the selftests (64-bit and 32-bit) and test-statx in the worktree
# against the uapi headers of $BUILD/bisect; fail on any warning.  The
# 32-bit build is a second make with gcc -m32, as every commit of the
# series takes it; CAN_BUILD_I386=0 keeps the Makefile of the later ones
# from building the NAME_32 programs in either.
build_user() {
	local hdr=$BUILD/bisect/usr/include ob=$BUILD/bisect-user log=$BUILD/bisect-user.log
	rm -rf "$ob"
	mkdir -p "$ob"
	{
		# The fixes at the front of the series come before the selftests.
		if [ -d "$wt/tools/testing/selftests/statx" ]; then
			make -C "$wt/tools/testing/selftests" TARGETS=statx KHDR_INCLUDES="-isystem $hdr" \
				LDFLAGS=-static O="$ob/64" CAN_BUILD_I386=0 all &&
			make -C "$wt/tools/testing/selftests" TARGETS=statx KHDR_INCLUDES="-isystem $hdr" \
				LDFLAGS=-static O="$ob/32" CC="gcc -m32" CAN_BUILD_I386=0 all
		fi &&
		gcc -static -O2 -Wall -isystem "$hdr" -o "$ob/test-statx" \
			"$wt/samples/vfs/test-statx.c"
	} > "$log" 2>&1 || { cat "$log"; return 1; }
	if grep -q 'warning:' "$log"; then
		grep -B2 -A4 'warning:' "$log"
		return 1
	fi
}

# in_ledger KEY: KEY (a file name in $done_dir) is in the ledger.
in_ledger() { grep -qxF "$1" "$ledger" 2>/dev/null; }
# known KEY: the tree KEY names built, here or in the ledger.
known() { [ -e "$done_dir/$1" ] || in_ledger "$1"; }
# record KEY: the tree KEY names built; remember it here and in the ledger.
record() {
	touch "$done_dir/$1"
	in_ledger "$1" || echo "$1" >> "$ledger"
}

# A cold machine builds the first commit in full and every commit that
# changes a widely included header nearly so: stop starting builds after
# BISECT_BUDGET seconds and report the rest as skipped.
if [ $check_only = 1 ]; then
	budget=${BISECT_BUDGET:-0}
else
	budget=${BISECT_BUDGET:-900}
fi
t0=$(date +%s)
fail=0
skipped=0
covered=0
i=0
keys=()
for c in $(tgit rev-list --reverse "$BASE_TAG..${BISECT_TIP:-$SERIES_BRANCH}"); do
	i=$((i + 1))
	name=$(printf 'bisect-%04d' $i)
	kkey=kernel-$(kernel_key "$c")-$cfg
	ukey=user-$(user_key "$c")
	keys+=("$kkey" "$ukey")
	if known "$kkey" && known "$ukey"; then
		record "$kkey"
		record "$ukey"
		covered=$((covered + 1))
		[ $check_only = 1 ] && continue
		say "$name: this tree built before"
		echo "$name 1 0 0"
		continue
	fi
	if [ $(( $(date +%s) - t0 )) -ge "$budget" ]; then
		if [ $check_only = 1 ]; then
			say "$name: not built after its patch yet ($(tgit log -1 --format=%s "$c")): make bisect builds it"
		else
			say "$name: not built, the ${budget}s budget is spent"
		fi
		echo "$name 0 0 1"
		skipped=1
		continue
	fi
	[ -n "$wt" ] || wt=$("$HARNESS/worktree.sh" scratch)
	git -C "$wt" checkout -q -f --detach "$c"
	subject=$(tgit log -1 --format=%s "$c")
	if STATX_CONFIG_LENIENT=1 step "$name: build $subject" \
			"$HARNESS/build.sh" bisect "$wt" > "$OUT/$name.log" 2>&1 &&
	   record "$kkey" &&
	   { known "$ukey" || step "$name: build the selftests and test-statx" \
			build_user >> "$OUT/$name.log" 2>&1; }; then
		record "$ukey"
		echo "$name 1 0 0"
	else
		say "FAIL: patch $i ($subject) does not build:"
		tail -20 "$OUT/$name.log" >&2
		echo "$name 0 1 0"
		fail=1
	fi
done
if [ $check_only = 1 ] && [ $covered -eq $i ]; then
	say "bisect: all $i commits of the series built before (patches/bisect-ok)"
	echo "bisect-build 0 0 1"
fi
# After a whole run, the ledger keeps the keys of this series only.
if [ $fail -eq 0 ] && [ $skipped -eq 0 ] && [ $check_only = 0 ] && [ -z "${BISECT_TIP:-}" ]; then
	printf '%s\n' "${keys[@]}" | sort -u > "$ledger"
fi
exit $fail
