#!/bin/sh
# Probe guest: the change cookie while another task writes (cookie_probe).
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
arg() { sed -n "s/.*probe\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
mib=$(arg mib); secs=$(arg secs); nfs=$(arg nfs)
out=/dev/ttyS1
put() { printf '%s\n' "$2" > "$1"; }
{
	echo "kernel $(uname -r) cpus $(grep -c ^processor /proc/cpuinfo)"
	mkdir -p /t /e /c /nfsd
	mount -t tmpfs -o size=2200M tmpfs /t
	truncate -s 1500M /t/ext4.img
	mkfs.ext4 -q -F /t/ext4.img
	dev=$(losetup -f)
	losetup "$dev" /t/ext4.img
	mount -t ext4 "$dev" /e
	for d in /t /e; do
		fs=$(awk -v d=$d '$2 == d { print $3 }' /proc/mounts)
		echo "== $fs"
		cookie_probe wait $d/w "$mib" 2>&1
		rm -f $d/w
		cookie_probe inflight $d/f "$secs" 2>&1
	done
	# nfsd exporting $nfs (t or e) as the NFSv4 root, a client on /c
	exp=/$nfs
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	mount -t nfsd nfsd /nfsd
	put /nfsd/nfsv4gracetime 10
	put /nfsd/nfsv4leasetime 10
	put /nfsd/versions -3
	put /nfsd/portlist "tcp 2049"
	put /nfsd/threads 2
	sleep 11	# past the grace period, in which OPEN waits
	put /proc/net/rpc/auth.unix.ip/channel "nfsd 127.0.0.1 2147483647 probe"
	put /proc/net/rpc/nfsd.fh/channel "probe 1 \\x00000000 2147483647 $exp"
	put /proc/net/rpc/nfsd.export/channel "probe $exp 2147483647 9216 0 0 0"
	if mount -t nfs4 -o vers=4.2,sec=sys,addr=127.0.0.1 127.0.0.1:/ /c; then
		echo "== nfs of $(awk -v d=$exp '$2 == d { print $3 }' /proc/mounts)"
		cookie_probe nfsstale $exp/n /c/n 10 2>&1
		umount /c
	else
		echo "nfs mount failed"
	fi
	put /nfsd/threads 0
} > $out 2>&1
echo STATX-POWEROFF > $out
poweroff -f
