#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stock.sh [bare] [disks]: the statx selftests on Debian's own 6.12 kernel,
# as Debian builds it (no series patch, no harness config), ending with one
# line "N passed, N failed, N skipped".
#
# The kernel is the package $STOCK_PKG (apt-get download, never installed):
# its vmlinuz boots the harness's initramfs (initramfs.sh: busybox, the
# statx selftests built against the series' headers as check-base has them,
# the mkfs programs), with a second cpio archive appended that holds the
# modules the harness needs (STOCK_MODULES and what they depend on, from
# the package's modules.dep and modules.softdep) and the load order, which
# the guest init insmods first.  Each configuration is one boot:
#   bare   no disk, nothing mounted at /mnt (what a developer's machine has)
#   disks  the harness's disks attached, as make check has them (the
#          selftests mount the ones they use, in their own namespaces)
# In both the guest records its mounts (with their options) and other state
# before and after the selftests (statx.state=1); a difference fails the
# run's "unchanged" check.  Reports: out/stock/<config>/report.txt.
#
# STATX_ASSEMBLE=0 uses $TREE as it is, without base.sh and assemble.
. "$(dirname "$0")/lib.sh"

STOCK_PKG=${STOCK_PKG:-linux-image-6.12.118+deb12-cloud-amd64-unsigned}
# nls_ascii: Debian's FAT_DEFAULT_IOCHARSET, which a vfat mount without
# iocharset= loads.
STOCK_MODULES=${STOCK_MODULES:-virtio_blk loop ext4 xfs btrfs vfat msdos
	exfat ntfs3 nls_cp437 nls_iso8859-1 nls_utf8 nls_ascii squashfs erofs
	overlay configfs binfmt_misc nfsd nfsv4}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(bare disks)
for c in "${configs[@]}"; do
	case "$c" in bare|disks) ;; *) die "usage: stock.sh [bare] [disks]" ;; esac
done

res=$OUT/stock
mkdir -p "$res"
summary=$res/summary
: > "$summary"
record() { echo "$*" >> "$summary"; }
finish() {
	awk '{ p += $2; f += $3; s += $4 }
	     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f > 0 }' "$summary"
}
trap 'rc=$?; [ -s "$summary" ] || record "harness" 0 1 0; finish || rc=1; exit $rc' EXIT

"$HARNESS/deps.sh"
if [ "${STATX_ASSEMBLE:-1}" != 0 ]; then
	# base.sh and assemble write the tree make check builds in.
	exec 9> "$STATX_CACHE/check.lock"
	flock -n 9 || die "a make check is running"
	"$HARNESS/base.sh"
	"$HARNESS/series.py" assemble
fi
hdr=$BUILD/series/usr/include
# As check-base: the selftests build against the series' headers.
[ -d "$hdr" ] || "$HARNESS/build.sh" series "$TREE" >/dev/null

# The package, fetched once into out/stock/deb.
deb=$(ls "$res"/deb/"${STOCK_PKG}"_*.deb 2>/dev/null | tail -1 || true)
if [ -z "$deb" ]; then
	mkdir -p "$res/deb"
	get() { (cd "$res/deb" && apt-get -q -o APT::Sandbox::User=root download "$STOCK_PKG"); }
	get >/dev/null || { apt-get update -qq && get >/dev/null; } ||
		die "apt-get download $STOCK_PKG failed"
	deb=$(ls "$res"/deb/"${STOCK_PKG}"_*.deb | tail -1)
fi
pkg=$res/pkg
rm -rf "$pkg"
step "extract $(basename "$deb")" dpkg-deb -x "$deb" "$pkg"
kver=$(ls "$pkg/lib/modules")
[ "$(echo "$kver" | wc -w)" = 1 ] || die "not one kernel in $deb: $kver"
vmlinuz=$pkg/boot/vmlinuz-$kver
[ -f "$vmlinuz" ] || die "no $vmlinuz"
# The package leaves modules.dep to depmod at install time.
depmod -b "$pkg" "$kver"

# The modules, decompressed (busybox insmod takes plain .ko files), in the
# order modprobe would load them; the guest init loads them from
# /lib/modules/statx-modules.  Its own modules.dep lets busybox modprobe
# (/sbin/modprobe, the kernel's default) load what the kernel asks for.
mods=$res/modules
rm -rf "$mods"
mkdir -p "$mods/lib/modules/$kver" "$mods/sbin"
chmod 755 "$mods"
: > "$mods/lib/modules/statx-modules"
for m in $STOCK_MODULES; do
	PATH=$PATH:/sbin:/usr/sbin modprobe -d "$pkg" -S "$kver" --show-depends "$m" ||
		die "$m: not in $STOCK_PKG"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' > "$res/modules.order"
while read -r path; do
	rel=${path#*/lib/modules/$kver/}
	dst=$mods/lib/modules/$kver/${rel%.xz}
	mkdir -p "$(dirname "$dst")"
	case "$rel" in
	*.ko.xz) xz -dc "$pkg/lib/modules/$kver/$rel" > "$dst" ;;
	*.ko) cp "$pkg/lib/modules/$kver/$rel" "$dst" ;;
	*) die "$rel: a module compressed in a way this script does not know" ;;
	esac
	echo "/lib/modules/$kver/${rel%.xz}" >> "$mods/lib/modules/statx-modules"
done < "$res/modules.order"
cp "$pkg/lib/modules/$kver"/modules.{builtin,builtin.modinfo,order} "$mods/lib/modules/$kver/"
depmod -b "$mods" "$kver"
ln -s /bin/busybox "$mods/sbin/modprobe"
say "$(wc -l < "$mods/lib/modules/statx-modules") modules of $kver" \
    "($(du -sh "$mods" | cut -f1) uncompressed): $(sed 's|.*/||; s|\.ko$||' \
	"$mods/lib/modules/statx-modules" | tr '\n' ' ')"

# The harness's initramfs, made in out/stock (not out/, which make check
# uses), then the modules appended as a second archive.
STATX_OUT=$res step "build the initramfs" \
	"$HARNESS/initramfs.sh" "$TREE" "$hdr" "$res/initramfs.cpio" >/dev/null ||
	{ record initramfs 0 1 0; exit 1; }
(cd "$mods" && find . | cpio -o -H newc --quiet) > "$res/modules.cpio"
cat "$res/initramfs.cpio" "$res/modules.cpio" > "$res/stock.cpio"

for c in "${configs[@]}"; do
	g=$res/$c
	rm -rf "$g"
	mkdir -p "$g"
	disks=1 kc="statx.state=1"
	[ "$c" = bare ] && disks=0 kc="$kc statx.mounts=none"
	t0=$(date +%s)
	if STATX_DISKS=$disks BOOT_NAME="Debian $kver ($c)" \
	   KCMDLINE="$kc ${KCMDLINE:-}" \
			"$HARNESS/boot.sh" "$vmlinuz" "$res/stock.cpio" check "$g" 900; then
		record "stock-$c-boot" 1 0 0
	else
		record "stock-$c-boot" 0 1 0
	fi
	echo "$(( $(date +%s) - t0 ))" > "$g/seconds"
	sed -n '/^STATX-BEGIN selftests/,/^STATX-END selftests/p' "$g/results.log" \
		| sed '1d;$d' > "$g/selftests.tap"
	python3 "$HARNESS/ktap.py" --kselftest "$TREE" "stock-$c-selftests" \
		"$g/selftests.tap" >> "$summary"
	python3 "$HARNESS/stockreport.py" "stock-$c" "$g" >> "$summary"
	# When the guest reached the selftests (kernel time), from the console.
	up=$(sed -n 's/^\[ *\([0-9.]*\)\] statx-guest: selftests begin.*/\1/p' \
		"$g/console.log" | head -1)
	{
		echo "=== $c: Debian $kver, $(cat "$g/seconds")s from QEMU start to" \
		     "power-off; the selftests began at ${up:-?}s of kernel time"
		grep "^stock-$c-" "$summary"
		cat "$g/report.txt"
	} > "$g/summary.txt"
	cat "$g/summary.txt" >&2
done
column -t "$summary" >&2 || cat "$summary" >&2
awk '$3 > 0 { print "failed: " $1 }' "$summary" >&2
for c in "${configs[@]}"; do
	[ -s "$res/$c/selftests.tap.failed" ] &&
		sed "s/^/failed: $c: /" "$res/$c/selftests.tap.failed" >&2
done
true
