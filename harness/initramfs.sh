#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh TREE HEADERS CPIO: a static initramfs with busybox, the statx
# selftests (64-bit and 32-bit builds, installed for the kselftest runner)
# and samples/vfs/test-statx, all built against the HEADERS exported from
# the patched tree.
. "$(dirname "$0")/lib.sh"

tree=$1 hdr=$2 cpio=$3
root=$OUT/initramfs
ksb=$OUT/kselftest-build
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,mnt,etc,kselftest}

# busybox, with its applets as links
cp /bin/busybox "$root/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done
# The kselftest runner calls /usr/bin/timeout --foreground, which busybox's
# timeout does not take.
printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /bin/busybox timeout "$@"\n' \
	> "$root/usr/bin/timeout"
chmod +x "$root/usr/bin/timeout"
cp "$HARNESS/guest/init" "$root/init"
cp "$HARNESS/guest/sample-ls.sh" "$root/sample-ls.sh"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
# As on any distribution; mkntfs looks there for mounted filesystems.
ln -s /proc/self/mounts "$root/etc/mtab"

# The selftests, through kselftest's own install and runner.
ksmake() {
	make -s -C "$tree/tools/testing/selftests" TARGETS=statx \
		KHDR_INCLUDES="-isystem $hdr" LDFLAGS=-static "$@"
}
rm -rf "$ksb"
# The Makefile builds each program also as NAME_32 (-m32, the i386 entry)
# when gcc can: deps.sh installs the i386 libc it needs.
step "build the statx selftests (64-bit and 32-bit)" \
	ksmake O="$ksb" INSTALL_PATH="$root/kselftest" install >/dev/null
grep -q '^statx:statx_compat_32$' "$root/kselftest/kselftest-list.txt" ||
	die "the statx selftests were built without their 32-bit programs"

gcc -static -O2 -Wall -isystem "$hdr" -o "$root/bin/test-statx" \
	"$tree/samples/vfs/test-statx.c"
# The statx_dir() sample, from the patch that adds it on.
if [ -e "$tree/samples/vfs/statx-dir-ls.c" ]; then
	gcc -static -O2 -Wall -isystem "$hdr" -o "$root/bin/statx-dir-ls" \
		"$tree/samples/vfs/statx-dir-ls.c"
fi
# Extra host-built programs for the guest's /bin (the benchmark).
for f in ${INITRAMFS_EXTRA:-}; do
	cp "$f" "$root/bin/"
done

# The host's mkfs programs, with the libraries they load at the paths the
# host has them, so that selftests can make their own filesystems in the
# guest.  They replace busybox's applets of the same name.
host_prog() {
	local prog f dest=${2:-/bin/$1}
	prog=$(PATH=$PATH:/usr/sbin:/sbin command -v "$1") ||
		die "$1 is not installed"
	rm -f "$root$dest"
	cp "$prog" "$root$dest"
	for f in $(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
				     $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
}
for p in mkfs.ext4 mkfs.btrfs mkfs.xfs mkfs.vfat mkfs.exfat mkntfs; do
	host_prog "$p"
done
# coreutils' ls, beside busybox's, to hold the statx_dir() sample's
# listing against ("ls -ln").
host_prog ls /usr/bin/coreutils-ls

# /dev/console must exist before devtmpfs is mounted, or init's output is lost.
mknod -m 600 "$root/dev/console" c 5 1
(cd "$root" && find . | cpio -o -H newc --quiet) > "$cpio.tmp"
mv "$cpio.tmp" "$cpio"
