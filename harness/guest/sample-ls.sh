#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest's /init (harness/guest/init) in a shell of its own.

# sample_ls DIR: fill DIR with one entry of each kind "ls -ln" formats
# differently, and print the difference between coreutils' "ls -ln" and the
# statx_dir() sample's listing of it ("identical" when there is none).
sample_ls() {
	local d=$1
	mkdir -p "$d/subdir" "$d/sticky" &&
	echo data > "$d/file" &&
	ln "$d/file" "$d/hardlink" &&
	ln -s file "$d/link" &&
	ln -s nowhere "$d/dangling" &&
	mkfifo "$d/fifo" &&
	mknod "$d/null" c 1 3 &&
	mknod "$d/loop9" b 7 9 &&
	dd if=/dev/zero of="$d/big" bs=1k count=1536 2>/dev/null &&
	: > "$d/with space" &&
	: > "$d/owned" && chown 1234:5678 "$d/owned" &&
	: > "$d/suid" && chmod 4755 "$d/suid" &&
	: > "$d/sgid-noexec" && chmod 2640 "$d/sgid-noexec" &&
	chmod 1777 "$d/sticky" &&
	: > "$d/old" && touch -d "2019-06-01 12:34:56" "$d/old" &&
	: > "$d/future" && touch -d "2099-01-02 03:04:05" "$d/future" ||
		{ echo "sample_ls: could not fill $d"; return 1; }
	LC_ALL=C TZ=UTC0 /usr/bin/coreutils-ls -ln "$d" > /tmp/ls.coreutils 2>&1
	LC_ALL=C TZ=UTC0 /bin/statx-dir-ls "$d" > /tmp/ls.sample 2>&1
	if cmp -s /tmp/ls.coreutils /tmp/ls.sample; then
		echo "identical: $d ($(wc -l < /tmp/ls.sample) lines)"
	else
		echo "DIFFERENT: $d (- coreutils ls -ln, + statx-dir-ls)"
		diff /tmp/ls.coreutils /tmp/ls.sample
		return 1
	fi
}
