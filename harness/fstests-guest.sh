#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-guest.sh NAME KERNEL KBUILD OUTDIR: run fstests' check in guests
# booted from KERNEL (modules from the build directory KBUILD) on each
# filesystem of FSTESTS_SECTIONS (nfs: NFSv4.2 from a knfsd in the guest),
# for the tests of FSTESTS_TESTS (commas or spaces between them; default:
# fstests' statx tests and those the patches in fstests/ add), and print
# one summary line per test and section, "NAME-fstests-SECTION-TEST PASSED
# FAILED SKIPPED" (fstests_report.py).  The sections are dealt out to
# FSTESTS_GUESTS guests (default: one per host core) that run at once,
# each with one vCPU, its own copy of the root image and its own disks:
# check runs one test after another, so a guest keeps about one core busy.
# The initramfs is OUTDIR/../initramfs.cpio unless INITRAMFS names one.
# FSTESTS_PATCHES and FSTESTS_TREE as fstests.sh takes them.
. "$(dirname "$0")/lib.sh"

name=$1 kernel=$2 kbuild=$3 g=$4
# The default order deals the sections out to two guests by the minutes
# each took (xfs 4.9, ntfs3 4.8, vfat 4.2, btrfs 4.1, ext4 3.7, exfat 3.4,
# nfs 2.5, tmpfs 2.1): the guests of a cold make check ran 986 s and 814 s,
# against 1096 s and 838 s in the order ext4, xfs, btrfs, tmpfs, vfat,
# exfat, ntfs3, nfs.
sections=${FSTESTS_SECTIONS:-xfs,ntfs3,btrfs,vfat,ext4,exfat,tmpfs,nfs}
initrd=${INITRAMFS:-$g/../initramfs.cpio}
guests=${FSTESTS_GUESTS:-$JOBS}
mkdir -p "$g"
if ! "$HARNESS/fstests.sh" "$kbuild" "$g/root.img" > "$g/root.log" 2>&1; then
	tail -20 "$g/root.log" >&2
	echo "$name-fstests-root 0 1 0"
	exit 1
fi
# Commas or spaces between the tests: one kernel parameter, with commas.
tests=$(echo ${FSTESTS_TESTS:-$(cat "$g/root.tests")} | tr ' ' ,)

# Guest i gets sections i, i + guests, ...
read -ra secs <<< "$(echo "$sections" | tr , ' ')"
[ "$guests" -ge 1 ] || guests=1
[ "$guests" -le ${#secs[@]} ] || guests=${#secs[@]}
pids=()
for ((i = 0; i < guests; i++)); do
	mine=
	for ((j = i; j < ${#secs[@]}; j += guests)); do
		mine=$mine${mine:+,}${secs[j]}
	done
	d=$g/guest$i
	rm -rf "$d"
	mkdir -p "$d"
	cp --sparse=always "$g/root.img" "$d/root.img"
	truncate -s 2G "$d/test.img" "$d/scratch.img"
	printf '%s fstests-root\n%s fstests-test\n%s fstests-scratch\n' \
		"$d/root.img" "$d/test.img" "$d/scratch.img" > "$d/disks"
	# no_timer_check: on a host busy with other guests, TCG can miss the
	# IO-APIC timer check's window, and the kernel panics at boot.
	# no5lvl: four-level page tables are cheaper for TCG to walk; the
	# tmpfs and ext4 sections ran 464 s with it, 483 s without (two
	# guests at once, one with each).
	STATX_DISKS=$d/disks QEMU_MEM=2G QEMU_SMP=1 BOOT_NAME="$name (fstests $mine)" \
		KCMDLINE="statx.fstests=$mine statx.fstests_tests=$tests kunit.enable=0 no_timer_check no5lvl ${KCMDLINE:-}" \
		"$HARNESS/boot.sh" "$kernel" "$initrd" fstests "$d/run" \
		"${FSTESTS_TIMEOUT:-2400}" > "$d/boot.log" 2>&1 &
	pids+=($!)
done
rc=0
for ((i = 0; i < guests; i++)); do
	wait "${pids[i]}" || rc=1
	cat "$g/guest$i/boot.log" >&2
	rm -f "$g/guest$i/test.img" "$g/guest$i/scratch.img" "$g/guest$i/root.img"
done
echo "$name-fstests-boot $((1 - rc)) $rc 0"
rm -f "$g/root.img"
# One log, the guests' in turn: the report reads each section's markers
# (a guest that left none fails its sections there, as not started).
mkdir -p "$g/run"
for f in "$g"/guest*/run/results.log; do
	if [ -e "$f" ]; then cat "$f"; fi
done > "$g/run/results.log"
python3 "$HARNESS/fstests_report.py" "$name-fstests" "$g/run/results.log" \
	"$sections"
