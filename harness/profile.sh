#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# profile.sh [--build] [KERNEL...]: where the instructions of a directory
# listing go, by kernel function, per entry.  Boots each KERNEL (default:
# series base; the kernels harness/bench.sh builds in $BUILD/NAME) as
# make bench does (one vCPU, -cpu max without ERMS and FSRM, -icount
# shift=0,sleep=off, the same disks) with harness/profile_plugin.c loaded
# into QEMU and harness/guest/statx_profile.c as the guest's program:
# on tmpfs and ext4, a directory of 10,000 empty files listed hot
# PROFILE_LISTINGS times (default 5) per case, with getdents64(),
# getdents64() + statx() per name, and statx_dir() where the kernel has it.
# The plugin counts the instructions of every translation block between
# the program's markers; harness/profile_report.py gives the blocks to
# functions (System.map, and nm of the guest program for user space) and
# writes out/profile/KERNEL-CASE.txt (the total per entry against make
# bench's figure, the top PROFILE_TOP functions, default 40, the cost by
# bucket; PROFILE_DETAIL: functions whose blocks it lists one by one) and
# out/profile/summary.md.
#
# The kernels are not built here unless --build is given (then as
# bench.sh builds them); the initramfs is, with the uapi headers of the
# series kernel.  PROFILE_BENCH: the directory of make bench's results
# to compare with (default out/bench).
. "$(dirname "$0")/lib.sh"

build=0
if [ "${1:-}" = --build ]; then
	build=1
	shift
fi
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(series base)

if [ $build = 1 ]; then
	"$HARNESS/deps.sh"
	"$HARNESS/base.sh"
	"$HARNESS/series.py" assemble
	base=$("$HARNESS/worktree.sh" base)
	STATX_CONFIG_LENIENT=1 "$HARNESS/build.sh" base "$base"
	"$HARNESS/build.sh" series "$TREE"
fi
for k in "${kernels[@]}" series; do
	[ -e "$BUILD/$k/arch/x86/boot/bzImage" ] ||
		die "no $BUILD/$k/arch/x86/boot/bzImage: make bench builds it (or profile.sh --build)"
done

p=$OUT/profile
rm -rf "$p"
mkdir -p "$p"
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden \
	-o "$p/profile_plugin.so" "$HARNESS/profile_plugin.c"
gcc -static -O2 -Wall -Werror -isystem "$BUILD/series/usr/include" \
	-o "$p/statx_profile" "$HARNESS/guest/statx_profile.c"
nm -n "$p/statx_profile" > "$p/statx_profile.nm"
INITRAMFS_EXTRA="$p/statx_profile" step "build the initramfs" \
	"$HARNESS/initramfs.sh" "$TREE" "$BUILD/series/usr/include" "$p/initramfs.cpio" >/dev/null

listings=${PROFILE_LISTINGS:-5}
# The functions whose blocks the reports list one by one: the system
# calls' bodies, which -Os fills with what it inlines.
detail=()
for f in ${PROFILE_DETAIL-do_statx __do_sys_statx_dir __x64_sys_statx_dir vfs_statx_dir}; do
	detail+=(--detail "$f")
done
export QEMU_CPU=${QEMU_CPU:-max,-erms,-fsrm}
for k in "${kernels[@]}"; do
	run=$p/$k
	QEMU_SMP=1 KCMDLINE="statx.listings=$listings" \
		QEMU_EXTRA="-icount shift=0,sleep=off -plugin file=$p/profile_plugin.so,out=$run/window" \
		"$HARNESS/boot.sh" "$BUILD/$k/arch/x86/boot/bzImage" "$p/initramfs.cpio" \
		profile "$run" 1800 || die "the $k kernel failed the profile boot"
	rm -rf "$run/disks"
	grep -q '^STATX-END profile rc=0' "$run/results.log" ||
		die "statx_profile failed on the $k kernel: $run/results.log"
	cat "$run/window.summary"
	grep -qx 'bad_markers 0' "$run/window.summary" ||
		die "the plugin saw a marker out of place: $run/window.summary"
	"$HARNESS/profile_report.py" report --kernel "$k" \
		--system-map "$BUILD/$k/System.map" --results "$run/results.log" \
		--windows "$run/window" --user-nm "$p/statx_profile.nm" \
		--bench "${PROFILE_BENCH:-$OUT/bench}" --top "${PROFILE_TOP:-40}" \
		"${detail[@]}" --outdir "$p"
done
"$HARNESS/profile_report.py" summary "$p"
