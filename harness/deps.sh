#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the harness needs, when missing.
. "$(dirname "$0")/lib.sh"

PKGS=(
	# kernel build
	build-essential flex bison bc cpio kmod libelf-dev libssl-dev
	ccache sparse rsync xz-utils python3 perl
	# (the base, linux-source-7.3, comes from base.sh's private apt lists)
	# 32-bit selftests (gcc-12-multilib, not the gcc-multilib metapackage,
	# which conflicts with the arm64 cross compiler below), guest
	# userspace, the VM
	gcc-12-multilib busybox-static qemu-system-x86 qemu-utils
	# host-made disk images
	e2fsprogs dosfstools mtools exfatprogs ntfs-3g xfsprogs btrfs-progs
	squashfs-tools erofs-utils
	# the man-pages patches: groff and mandoc to lint them (the statx.2
	# they apply to comes from unstable's manpages-dev: manpages.sh)
	groff-base mandoc
	# make b4: a small series as b4 prep and b4 send --dry-run take it
	b4
	# make matrix: the build robots' compilers
	gcc-aarch64-linux-gnu
	# fstests: what its build needs (its README), and the programs the
	# guest's root filesystem takes from the host (fstests.sh)
	autoconf automake libtool make xfslibs-dev uuid-dev libattr1-dev
	libacl1-dev libaio-dev liburing-dev libgdbm-dev libcap-dev
	"${FSTESTS_GUEST_PKGS[@]}"
)
# make check-stock also needs apt-get, dpkg-deb (Debian's own) and kmod's
# depmod and modprobe (above); it fetches the kernel package itself with
# apt-get download and never installs it.

missing=()
for p in "${PKGS[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root or install them"
say "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
	die "apt-get install failed for: ${missing[*]}"
