#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# images.sh DIR: make the guest's disk images on the host, without loop
# mounts.  Each image is listed in DIR/disks as "file serial [qemu props]";
# the serial names the filesystem type and its mount point in the guest.
. "$(dirname "$0")/lib.sh"

dir=$1
rm -rf "$dir"
mkdir -p "$dir/stage"
echo "written on the host by mkfs" > "$dir/stage/sample.txt"
: > "$dir/disks"

img() {	# img NAME SIZE: a sparse file of SIZE
	truncate -s "$2" "$dir/$1.img"
}
disk() { echo "$dir/$1.img $1 ${2:-}" >> "$dir/disks"; }

# Hooks for images that belong to one feature's tests: each is sourced with
# img(), disk(), $dir and $dir/stage available.
run_hooks() {
	local h
	for h in "$HARNESS"/images.d/*.sh; do
		[ -e "$h" ] && . "$h"
	done
	return 0
}

img ext4 64M
mkfs.ext4 -q -F -d "$dir/stage" "$dir/ext4.img"
disk ext4

img xfs 320M
mkfs.xfs -q -f "$dir/xfs.img"
disk xfs

img btrfs 128M
mkfs.btrfs -q -f "$dir/btrfs.img" >/dev/null
disk btrfs

img vfat 32M
mkfs.vfat -n STATXVFAT "$dir/vfat.img" >/dev/null
MTOOLS_SKIP_CHECK=1 mcopy -i "$dir/vfat.img" "$dir/stage/sample.txt" ::/sample.txt
disk vfat

img msdos 32M
mkfs.fat -n STATXDOS "$dir/msdos.img" >/dev/null
MTOOLS_SKIP_CHECK=1 mcopy -i "$dir/msdos.img" "$dir/stage/sample.txt" ::/SAMPLE.TXT
disk msdos

img exfat 32M
mkfs.exfat -L statx "$dir/exfat.img" >/dev/null
disk exfat

img ntfs3 32M
mkntfs -q -F -f -L statx "$dir/ntfs3.img" >/dev/null 2>&1 ||
	die "mkntfs failed"
disk ntfs3

run_hooks
