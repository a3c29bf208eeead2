#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stock.sh [KERNEL...] [bare] [disks]: the statx selftests on Debian's own
# kernels, as Debian builds them (no series patch, no harness config), for
# each KERNEL (default: $STOCK_KERNELS, all of them) in each configuration
# (default: both), ending with one line "N passed, N failed, N skipped"
# over all the runs.  The kernels:
#   6.12  Debian 12's own (linux-image-6.12.118+deb12-cloud-amd64-unsigned),
#         fetched with the system's apt
#   7.2   unstable's (7.2.13+deb14-cloud-amd64), fetched through the
#         harness's private sid and experimental lists (lib.sh: apt_private);
#         since 7.x Debian splits the image into linux-binary-unsigned-*
#         (vmlinuz), linux-modules-* and linux-base-* (modules.builtin,
#         modules.order), all under /usr/lib/modules/VERSION
#
# The packages are fetched with apt-get download (never installed) into
# out/stock/deb, once: the kernel's vmlinuz boots the harness's initramfs
# (initramfs.sh: busybox, the statx selftests built against the series'
# headers as check-base has them, the mkfs programs), with a second cpio
# archive appended that holds the modules the harness needs (STOCK_MODULES
# and the kernel's NTFS driver, and what they depend on, from that
# kernel's own modules.dep and modules.softdep) and the load order, which
# the guest init insmods first.  Each configuration is one boot:
#   bare   no disk, nothing mounted at /mnt (what a developer's machine has)
#   disks  the harness's disks attached, as make check has them (the
#          selftests mount the ones they use, in their own namespaces)
# In both the guest records its mounts (with their options) and other state
# before and after the selftests (statx.state=1); a difference fails the
# run's "unchanged" check.  Reports: out/stock/<kernel>/<config>/report.txt.
#
# STATX_ASSEMBLE=0 uses $TREE as it is, without base.sh and assemble.
. "$(dirname "$0")/lib.sh"

STOCK_KERNELS=${STOCK_KERNELS:-6.12 7.2}
# nls_ascii: Debian's FAT_DEFAULT_IOCHARSET, which a vfat mount without
# iocharset= loads.
STOCK_MODULES=${STOCK_MODULES:-virtio_blk loop ext4 xfs btrfs vfat msdos
	exfat nls_cp437 nls_iso8859-1 nls_utf8 nls_ascii squashfs erofs
	overlay configfs binfmt_misc nfsd nfsv4}
# stock_kernel NAME: set apt (the apt-get that fetches it), pkgs (the
# packages that together hold the kernel and its modules) and ntfs (its
# NTFS driver: Debian's 7.2 config builds the new ntfs, CONFIG_NTFS_FS,
# instead of ntfs3).
stock_kernel() {
	case $1 in
	6.12)	apt=apt-get ntfs=ntfs3
		pkgs=${STOCK_PKGS_6_12:-linux-image-6.12.118+deb12-cloud-amd64-unsigned} ;;
	7.2)	apt="apt_private apt-get" ntfs=ntfs
		pkgs=${STOCK_PKGS_7_2:-linux-binary-unsigned-7.2.13+deb14-cloud-amd64
			linux-modules-7.2.13+deb14-cloud-amd64
			linux-base-7.2.13+deb14-cloud-amd64} ;;
	*)	return 1 ;;
	esac
	pkgs=$(echo $pkgs)
}
kernels=() configs=()
for a in "$@"; do
	case "$a" in
	bare|disks) configs+=("$a") ;;
	*) stock_kernel "$a" || die "usage: stock.sh [$STOCK_KERNELS] [bare] [disks]"
	   kernels+=("$a") ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || read -ra kernels <<<"$STOCK_KERNELS"
[ ${#configs[@]} -gt 0 ] || configs=(bare disks)
for k in "${kernels[@]}"; do
	stock_kernel "$k" || die "STOCK_KERNELS: no kernel $k"
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
# A run that stopped early (a die, a step that failed) counts as a failure
# when nothing recorded one.
trap 'rc=$?; [ $rc -eq 0 ] || awk '\''$3 > 0 { f = 1 } END { exit !f }'\'' "$summary" ||
	record "harness" 0 1 0; finish || rc=1; exit $rc' EXIT

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

# Each kernel's packages, fetched once into out/stock/deb and extracted
# into out/stock/<kernel>/pkg; its modules, as the second archive,
# out/stock/<kernel>/modules.cpio.
for k in "${kernels[@]}"; do
	stock_kernel "$k"
	kres=$res/$k
	mkdir -p "$kres" "$res/deb"
	missing=()
	for p in $pkgs; do
		ls "$res"/deb/"${p}"_*.deb >/dev/null 2>&1 || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		get() { (cd "$res/deb" && $apt -q -o APT::Sandbox::User=root download "${missing[@]}"); }
		get >/dev/null || { $apt update -qq && get >/dev/null; } ||
			die "apt-get download ${missing[*]} failed"
	fi
	pkg=$kres/pkg
	rm -rf "$pkg"
	for p in $pkgs; do
		deb=$(ls "$res"/deb/"${p}"_*.deb | tail -1)
		step "extract $(basename "$deb")" dpkg-deb -x "$deb" "$pkg"
	done
	# 7.2's packages install under /usr/lib/modules only: /lib is a link
	# to usr/lib, as on a merged-/usr system, for depmod and modprobe.
	[ -d "$pkg/lib" ] || ln -s usr/lib "$pkg/lib"
	kver=$(ls "$pkg/lib/modules")
	[ "$(echo "$kver" | wc -w)" = 1 ] || die "not one kernel in $pkgs: $kver"
	vmlinuz=
	for f in "$pkg/boot/vmlinuz-$kver" "$pkg/lib/modules/$kver/vmlinuz" \
		 "$pkg/lib/modules/$kver/vmlinuz.unsigned"; do
		[ -f "$f" ] && vmlinuz=$f && break
	done
	[ -n "$vmlinuz" ] || die "no vmlinuz of $kver in $pkgs"
	echo "$kver" > "$kres/kver"
	echo "$vmlinuz" > "$kres/vmlinuz"
	# The package leaves modules.dep to depmod at install time.
	depmod -b "$pkg" "$kver"

	# The modules, decompressed (busybox insmod takes plain .ko files), in
	# the order modprobe would load them; the guest init loads them from
	# /lib/modules/statx-modules.  Its own modules.dep lets busybox
	# modprobe (/sbin/modprobe, the kernel's default) load what the
	# kernel asks for.
	mods=$kres/modules
	rm -rf "$mods"
	mkdir -p "$mods/lib/modules/$kver" "$mods/sbin"
	chmod 755 "$mods"
	: > "$mods/lib/modules/statx-modules"
	for m in $STOCK_MODULES $ntfs; do
		PATH=$PATH:/sbin:/usr/sbin modprobe -d "$pkg" -S "$kver" --show-depends "$m" ||
			die "$m: not in $pkgs"
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' > "$kres/modules.order"
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
	done < "$kres/modules.order"
	cp "$pkg/lib/modules/$kver"/modules.{builtin,builtin.modinfo,order} "$mods/lib/modules/$kver/"
	depmod -b "$mods" "$kver"
	ln -s /bin/busybox "$mods/sbin/modprobe"
	say "$(wc -l < "$mods/lib/modules/statx-modules") modules of $kver" \
	    "($(du -sh "$mods" | cut -f1) uncompressed): $(sed 's|.*/||; s|\.ko$||' \
		"$mods/lib/modules/statx-modules" | tr '\n' ' ')"
	(cd "$mods" && find . | cpio -o -H newc --quiet) > "$kres/modules.cpio"
done

# The harness's initramfs, the same for every kernel, made in out/stock
# (not out/, which make check uses); each kernel's modules are appended
# to it as a second archive.
STATX_OUT=$res step "build the initramfs" \
	"$HARNESS/initramfs.sh" "$TREE" "$hdr" "$res/initramfs.cpio" >/dev/null ||
	{ record initramfs 0 1 0; exit 1; }

for k in "${kernels[@]}"; do
	kres=$res/$k kver=$(cat "$res/$k/kver") vmlinuz=$(cat "$res/$k/vmlinuz")
	cat "$res/initramfs.cpio" "$kres/modules.cpio" > "$kres/stock.cpio"
	for c in "${configs[@]}"; do
		g=$kres/$c n=stock-$k-$c
		rm -rf "$g"
		mkdir -p "$g"
		disks=1 kc="statx.state=1"
		[ "$c" = bare ] && disks=0 kc="$kc statx.mounts=none"
		t0=$(date +%s)
		if STATX_DISKS=$disks BOOT_NAME="Debian $kver ($c)" \
		   KCMDLINE="$kc ${KCMDLINE:-}" \
				"$HARNESS/boot.sh" "$vmlinuz" "$kres/stock.cpio" check "$g" 900; then
			record "$n-boot" 1 0 0
		else
			record "$n-boot" 0 1 0
		fi
		echo "$(( $(date +%s) - t0 ))" > "$g/seconds"
		sed -n '/^STATX-BEGIN selftests/,/^STATX-END selftests/p' "$g/results.log" \
			| sed '1d;$d' > "$g/selftests.tap"
		python3 "$HARNESS/ktap.py" --kselftest "$TREE" "$n-selftests" \
			"$g/selftests.tap" >> "$summary"
		python3 "$HARNESS/stockreport.py" "$n" "$g" >> "$summary"
		# When the guest reached the selftests (kernel time), from the
		# console.
		up=$(sed -n 's/^\[ *\([0-9.]*\)\] statx-guest: selftests begin.*/\1/p' \
			"$g/console.log" | head -1)
		{
			echo "=== $k $c: Debian $kver, $(cat "$g/seconds")s from QEMU start" \
			     "to power-off; the selftests began at ${up:-?}s of kernel time"
			grep "^$n-" "$summary"
			cat "$g/report.txt"
		} > "$g/summary.txt"
		cat "$g/summary.txt" >&2
	done
done
# fstests on each kernel, its own modules in the guest's root: fstests'
# statx tests pass or skip as on the series kernel, and every test the
# series' fstests patches add does not run ("kernel lacks the statx
# extensions" where the test gets that far).  A filesystem the kernel
# lacks has no section: Debian's 7.2 builds the new ntfs, not ntfs3.
if [ "${FSTESTS:-1}" = 1 ]; then
	for k in "${kernels[@]}"; do
		stock_kernel "$k"
		kres=$res/$k vmlinuz=$(cat "$res/$k/vmlinuz")
		secs=ext4,xfs,btrfs,tmpfs,vfat,exfat
		[ "$ntfs" = ntfs3 ] && secs=$secs,ntfs3
		FSTESTS_SECTIONS=$secs INITRAMFS=$kres/stock.cpio \
			"$HARNESS/fstests-guest.sh" "stock-$k" "$vmlinuz" "$kres/pkg" \
			"$kres/fstests" > "$kres/fstests.summary" || true
		cat "$kres/fstests.summary" >> "$summary"
		python3 - "$kres/fstests" "stock-$k-fstests" >> "$summary" <<'PY'
import sys
g, name = sys.argv[1:3]
ours = [t for t in open(g + "/root.tests").read().strip().split(",")
        if t not in ("generic/423", "generic/424", "generic/528", "generic/532")]
ran = {}
for line in open(g + "/../fstests.summary"):
    f = line.split()
    if len(f) == 4 and f[0].startswith(name + "-"):
        ran[f[0][len(name) + 1:]] = (int(f[1]), int(f[2]), int(f[3]))
bad = [k for k, v in ran.items() if k.split("-", 1)[-1] in ours and v[2] == 0]
for k in bad:
    print("%s: runs on a kernel without the series" % k, file=sys.stderr)
print("%s-series-tests-notrun %d %d 0" % (name, not bad, bool(bad)))
PY
		sed 's/^/notrun: /' "$kres/fstests/run/results.log.skipped" >&2 || true
	done
fi
column -t "$summary" >&2 || cat "$summary" >&2
awk '$3 > 0 { print "failed: " $1 }' "$summary" >&2
for k in "${kernels[@]}"; do
	for c in "${configs[@]}"; do
		if [ -s "$res/$k/$c/selftests.tap.failed" ]; then
			sed "s/^/failed: $k $c: /" "$res/$k/$c/selftests.tap.failed" >&2
		fi
	done
done
true
