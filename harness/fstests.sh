#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests.sh KBUILD ROOTIMG: fstests with the statx tests (fstests/*.patch, or
# those in $FSTESTS_PATCHES, applied with git am to the snapshot in
# fstests/snapshot, in $FSTESTS_TREE; or the tree $FSTESTS_SRC as it is,
# a developer's clone with fstests-base tagged), built on the host, and
# ROOTIMG, an ext4 image of a root filesystem for the guest to chroot into
# and run fstests' check from: the Debian packages fstests runs (bash, perl,
# coreutils, the mkfs and fsck programs, xfs_io, ...) as the host has them,
# the libraries they load, the built fstests tree at /fstests, and the
# modules of the kernel built in KBUILD (scsi_debug), or of the kernel
# package unpacked in KBUILD (its lib/modules).  ROOTIMG's name with
# .tests for .img: the tests to run, comma-separated.
. "$(dirname "$0")/lib.sh"

kbuild=$1 img=$2
# The snapshot the patches apply to, kept in the repository (a copy of
# ../shared/fstests/): CI clones the repository wherever it likes.
snap=${FSTESTS_SNAPSHOT:-$REPO/fstests/snapshot/fstests-69cd20bd.tar.xz}
src=${FSTESTS_SRC:-${FSTESTS_TREE:-$STATX_CACHE/fstests}}
patches=${FSTESTS_PATCHES:-$REPO/fstests}
[ -e "$snap" ] || die "no fstests snapshot at $snap"

# The snapshot as a git tree (tag fstests-base), the patches on branch
# statx.  A changed patch set resets the tree to the base and applies them
# again; make then rebuilds what changed.
fg() { git -C "$src" -c user.name=fstests -c user.email=fstests@localhost \
	-c gc.auto=0 -c advice.detachedHead=false "$@"; }
if [ -n "${FSTESTS_SRC:-}" ]; then
	:
elif ! fg rev-parse -q --verify fstests-base >/dev/null 2>&1; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xJf "$snap"
	fg init -q
	fg add -A -f .
	fg commit -q -m "fstests $(basename "$snap" .tar.xz)"
	fg tag fstests-base
fi
want=$({ cat "$patches"/*.patch 2>/dev/null || true; } | sha256sum | cut -c1-16)
if [ -z "${FSTESTS_SRC:-}" ] &&
   [ "$(cat "$src/.git/statx-patches" 2>/dev/null)" != "$want" ]; then
	fg checkout -q -f -B statx fstests-base
	if ls "$patches"/*.patch >/dev/null 2>&1; then
		fg am -q "$patches"/*.patch || {
			fg am --abort || true
			die "the fstests patches do not apply to $(basename "$snap")"
		}
	fi
	echo "$want" > "$src/.git/statx-patches"
fi
step "build fstests" make -s -C "$src" -j"$JOBS" > "$src/.git/statx-build.log" 2>&1 || {
	tail -30 "$src/.git/statx-build.log" >&2
	die "fstests does not build"
}

# The root: the files of these packages (Debian 12 is merged-/usr: /bin,
# /sbin and /lib are links into /usr there and here), and every library an
# executable among them loads.
pkgs=("${FSTESTS_GUEST_PKGS[@]}")
# Python itself: the packages of the version python3 points to.
py=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pkgs+=("python$py-minimal" "libpython$py-minimal")
root=${img%.img}.d
rm -rf "$root"
mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{dev,proc,sys,tmp,run,mnt,etc,var/tmp,root}
for l in bin sbin lib lib64; do ln -s "usr/$l" "$root/$l"; done
list=${img%.img}.files
for p in "${pkgs[@]}"; do
	dpkg-query -L "$p" 2>/dev/null || die "package $p is not installed"
done | while read -r f; do
	# Files and links, not directories or the documentation.
	case "$f" in /usr/share/doc/*|/usr/share/man/*|/usr/share/info/*|/usr/share/locale/*) continue ;; esac
	[ -f "$f" ] || [ -L "$f" ] && echo "${f#/}"
done > "$list"
tar -C / -cf - --files-from="$list" 2>/dev/null |
	tar -C "$root" --keep-directory-symlink -xf -
# (ldd fails on the scripts among them.)
{ find "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" -type f -perm -u+x |
	xargs -r ldd 2>/dev/null || true; } |
	awk '/:$/ { next } $2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $2 != "=>" { print $1 }' |
	sort -u > "$list.libs"
while read -r f; do
	[ -e "$root$f" ] ||
		tar -C / -chf - "${f#/}" | tar -C "$root" --keep-directory-symlink -xf -
done < "$list.libs"
printf 'root:x:0:0:root:/root:/bin/bash\nfsgqa:x:1000:1000::/tmp:/bin/bash\n123456-fsgqa:x:1002:1002::/tmp:/bin/bash\nfsgqa2:x:1001:1001::/tmp:/bin/bash\nnobody:x:65534:65534:nobody:/:/bin/false\n' \
	> "$root/etc/passwd"
printf 'root:x:0:\nfsgqa:x:1000:\nfsgqa2:x:1001:\n123456-fsgqa:x:1002:\nnogroup:x:65534:\n' > "$root/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files\n' > "$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost statx-guest\n' > "$root/etc/hosts"
echo statx-guest > "$root/etc/hostname"
ln -sf /proc/self/mounts "$root/etc/mtab"
# The alternatives' links (awk, ...), as the host chose them.
cp -a /etc/alternatives "$root/etc/"
for l in /usr/bin/* /usr/sbin/*; do
	[ -L "$l" ] && [ ! -e "$root$l" ] || continue
	case $(readlink "$l") in /etc/alternatives/*) cp -a "$l" "$root$l" ;; esac
done
# fstests, built, at /fstests (its results come back on the serial port).
mkdir -p "$root/fstests"
tar -C "$src" --exclude=.git -cf - . | tar -C "$root/fstests" -xf -

if [ -d "$kbuild/lib/modules" ]; then
	# A distribution kernel's files, unpacked (stock.sh).
	tar -C "$kbuild" -cf - lib/modules | tar -C "$root/usr" -xf -
elif grep -q '^CONFIG_MODULES=y' "$kbuild/.config"; then
	make -s -C "$kbuild" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 \
		DEPMOD=/sbin/depmod modules_install > /dev/null
fi

rm -f "$img"
truncate -s 2G "$img"
step "make the fstests root image" mkfs.ext4 -q -F -L fstests-root -d "$root" "$img"
rm -rf "$root"

# The tests to run: fstests' statx tests and those the patches add (or
# the developer's tree has added).
head=statx
[ -z "${FSTESTS_SRC:-}" ] || head=
{ printf '%s\n' generic/423 generic/424 generic/528 generic/532
  fg diff --name-only --diff-filter=A fstests-base $head -- tests |
	grep -v '\.out$' | sed 's|^tests/||'; } | paste -sd, > "${img%.img}.tests"
