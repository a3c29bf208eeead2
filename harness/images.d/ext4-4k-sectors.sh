# SPDX-License-Identifier: GPL-2.0
# For the statx conformance suite: an ext4 with 128-byte inodes (no
# room for a birth time, whole-second timestamps) on a disk with 4096-byte
# logical sectors, for the btime and STATX_DIOALIGN cases that must not
# just see the defaults.  The guest mounts it at /mnt/ext4-lbs4k.
img ext4-lbs4k 64M
# mke2fs warns that 128-byte inodes stop in 2038; that is the point here.
mkfs.ext4 -q -F -b 4096 -I 128 -d "$dir/stage" "$dir/ext4-lbs4k.img" >/dev/null 2>&1
disk ext4-lbs4k logical_block_size=4096,physical_block_size=4096
