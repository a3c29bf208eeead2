#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-guest.sh NAME KERNEL KBUILD OUTDIR: run fstests' check in a guest
# booted from KERNEL (modules from the build directory KBUILD) on each
# filesystem of FSTESTS_SECTIONS, for the tests of FSTESTS_TESTS (default:
# fstests' statx tests and those the patches in fstests/ add), and print
# one summary line per test and section, "NAME-fstests-SECTION-TEST PASSED
# FAILED SKIPPED" (fstests_report.py).  The initramfs is OUTDIR/../
# initramfs.cpio unless INITRAMFS names one.  FSTESTS_PATCHES and
# FSTESTS_TREE as fstests.sh takes them.
. "$(dirname "$0")/lib.sh"

name=$1 kernel=$2 kbuild=$3 g=$4
sections=${FSTESTS_SECTIONS:-ext4,xfs,btrfs,tmpfs,vfat,exfat,ntfs3}
initrd=${INITRAMFS:-$g/../initramfs.cpio}
mkdir -p "$g"
if ! "$HARNESS/fstests.sh" "$kbuild" "$g/root.img" > "$g/root.log" 2>&1; then
	tail -20 "$g/root.log" >&2
	echo "$name-fstests-root 0 1 0"
	exit 1
fi
tests=${FSTESTS_TESTS:-$(cat "$g/root.tests")}
truncate -s 2G "$g/test.img" "$g/scratch.img"
printf '%s fstests-root\n%s fstests-test\n%s fstests-scratch\n' \
	"$g/root.img" "$g/test.img" "$g/scratch.img" > "$g/disks"
rc=0
STATX_DISKS=$g/disks QEMU_MEM=2G BOOT_NAME="$name (fstests)" \
	KCMDLINE="statx.fstests=$sections statx.fstests_tests=$tests kunit.enable=0 ${KCMDLINE:-}" \
	"$HARNESS/boot.sh" "$kernel" "$initrd" fstests "$g/run" \
	"${FSTESTS_TIMEOUT:-2400}" >&2 || rc=1
echo "$name-fstests-boot $((1 - rc)) $rc 0"
rm -f "$g/test.img" "$g/scratch.img" "$g/root.img"
python3 "$HARNESS/fstests_report.py" "$name-fstests" "$g/run/results.log" \
	"$sections"
