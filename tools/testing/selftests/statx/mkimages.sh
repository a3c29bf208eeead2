#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkimages.sh DIR: make, in DIR, the filesystem images whose contents only
# another system's tools write, for statx_dosattr and statx_io_info.  Each
# test attaches its image read-only to a loop device in its own mount
# namespace; the truth it checks is what was written here.
#
#   vfat-attr, msdos-attr: files named ATTR-XX whose FAT attribute byte
#       mtools (mattrib) set to 0xXX (0x10, the directory bit, only on
#       directories).
#   exfat-attr: the same, as exFAT entry sets written into the root
#       directory below (exfatprogs cannot add files), which fsck.exfat -n
#       accepts.
#   ntfs3-attr: the same, by ntfscp and the file attributes of
#       $STANDARD_INFORMATION and $FILE_NAME set in each MFT record below,
#       which ntfsinfo reads back.
#   squashfs, erofs: text.txt (compresses well) and random.bin (does not:
#       both tools store it plain), made with compression; squashfs-plain
#       and erofs-plain, the same files made without.
#   squashfs-big: big, 1 GiB of zeros in 4 KiB blocks, so that its block
#       list (262144 sparse blocks) is 1 MiB, stored uncompressed (-noI).
#   ntfs3-c: a volume made with compression on (mkntfs -C), on which
#       ntfscp stores text.txt compressed, and small.txt resident (its data
#       in the MFT record, as it is) with the compressed flag that every
#       file created in the compressed root gets, as ntfsinfo reads back.
#
# An image whose tools are missing is not made: NAME.img.missing says
# which, and the test that needs it skips, saying so.  The build does not
# fail for it.

set -u
dir=$1
mkdir -p "$dir"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
export MTOOLS_SKIP_CHECK=1

# needs NAME TOOL...: true if every TOOL is installed; if not, say so in
# NAME.img.missing.
needs() {
	local name=$1 t
	shift
	for t in "$@"; do
		if ! command -v "$t" >/dev/null; then
			echo "$t was not installed when the selftests were built" \
				> "$dir/$name.img.missing"
			echo "mkimages.sh: $name.img not made: no $t" >&2
			return 1
		fi
	done
	rm -f "$dir/$name.img.missing"
}

# failed NAME WHAT: NAME could not be made.
failed() {
	rm -f "$dir/$1.img"
	echo "$2 failed when the selftests were built" > "$dir/$1.img.missing"
	echo "mkimages.sh: $1.img not made: $2 failed" >&2
	return 1
}

# new NAME SIZE: an empty image file
new() {
	rm -f "$dir/$1.img"
	truncate -s "$2" "$dir/$1.img"
}

# The attribute bytes: every combination of read-only (0x01), hidden
# (0x02), system (0x04) and archive (0x20) on a file ...
files="00 01 02 03 04 05 06 07 20 21 22 23 24 25 26 27"
# ... and some on a directory.
dirs="10 11 12 14 16 30 37"

# fat_attr IMG PATH XX: give PATH exactly the attribute byte XX.
fat_attr() {
	local x=$((16#$3)) a="" f bit
	for f in r:1 h:2 s:4 a:32; do
		bit=${f#*:}
		if [ $((x & bit)) -ne 0 ]; then a="$a +${f%:*}"; else a="$a -${f%:*}"; fi
	done
	# shellcheck disable=SC2086
	mattrib -i "$1" $a "::/$2" >/dev/null
}

# fat NAME: a FAT image made by mkfs.fat, its files' bytes set by mattrib.
fat() {
	local im=$dir/$1.img x
	needs "$1" mkfs.fat mcopy mmd mattrib || return 0
	new "$1" 1M
	mkfs.fat -n STATXATTR "$im" >/dev/null || { failed "$1" mkfs.fat; return 0; }
	for x in $files; do
		echo "attribute byte 0x$x, set by mattrib" > "$stage/attr.txt"
		mcopy -i "$im" "$stage/attr.txt" "::/ATTR-$x" &&
			fat_attr "$im" "ATTR-$x" "$x" || { failed "$1" mtools; return 0; }
	done
	for x in $dirs; do
		mmd -i "$im" "::/ATTR-$x" &&
			fat_attr "$im" "ATTR-$x" "$x" || { failed "$1" mtools; return 0; }
	done
	# Read the bits back as mtools sees them.
	[ "$(mattrib -i "$im" "::/*" | grep -c 'ATTR-')" -eq \
	  "$(echo $files $dirs | wc -w)" ] || failed "$1" "mattrib's read-back"
}

fat vfat-attr
fat msdos-attr

# exFAT: one entry set (File, Stream Extension, File Name entries) per
# empty file, appended to the root directory.
exfat() {
	local im=$dir/exfat-attr.img
	needs exfat-attr mkfs.exfat fsck.exfat python3 || return 0
	new exfat-attr 4M
	mkfs.exfat -L statx "$im" >/dev/null || { failed exfat-attr mkfs.exfat; return 0; }
	# shellcheck disable=SC2046
	python3 - "$im" $(for x in $files; do echo "ATTR-$x:$x"; done) <<'EOF' ||
import struct
import sys

img, files = sys.argv[1], sys.argv[2:]
f = open(img, 'r+b')
boot = f.read(512)
assert boot[3:11] == b'EXFAT   '
heap = struct.unpack_from('<I', boot, 88)[0]
root = struct.unpack_from('<I', boot, 96)[0]
sector, spc = 1 << boot[108], 1 << boot[109]
clus = sector * spc
root_off = heap * sector + (root - 2) * clus
f.seek(root_off)
rootdir = bytearray(f.read(clus))
# The first unused entry ends the directory: start there.
pos = next(i for i in range(0, clus, 32) if rootdir[i] == 0)


def name_hash(name):
    h = 0
    for c in name.upper().encode('utf-16-le'):
        h = (((h & 1) << 15) | (h >> 1)) + c & 0xffff
    return h


def set_checksum(entries):
    s = 0
    for i, b in enumerate(entries):
        if i in (2, 3):
            continue
        s = (((s & 1) << 15) | (s >> 1)) + b & 0xffff
    return s


ts = (2026 - 1980) << 25 | 1 << 21 | 1 << 16	# 2026-01-01 00:00:00
for spec in files:
    name, attr = spec.rsplit(':', 1)
    attr = int(attr, 16)
    u = name.encode('utf-16-le')
    nent = (len(name) + 14) // 15
    es = bytearray(32 * (2 + nent))
    struct.pack_into('<BBHHHIII', es, 0, 0x85, 1 + nent, 0, attr, 0, ts, ts, ts)
    # Stream extension: allocation possible, no cluster, size 0.
    struct.pack_into('<BBBBH', es, 32, 0xc0, 0x01, 0, len(name), name_hash(name))
    for n in range(nent):
        part = u[30 * n:30 * (n + 1)]
        es[64 + 32 * n] = 0xc1
        es[64 + 32 * n + 2:64 + 32 * n + 2 + len(part)] = part
    struct.pack_into('<H', es, 2, set_checksum(es))
    assert pos + len(es) <= clus, 'root directory full'
    rootdir[pos:pos + len(es)] = es
    pos += len(es)
f.seek(root_off)
f.write(rootdir)
f.close()
EOF
	{ failed exfat-attr "writing the entry sets"; return 0; }
	fsck.exfat -n "$im" >/dev/null 2>&1 || failed exfat-attr "fsck.exfat -n"
}
exfat

# NTFS: ntfscp makes the files, then their file attributes are set in the
# MFT records.
ntfs() {
	local im=$dir/ntfs3-attr.img x spec ino got args=() specs=()
	needs ntfs3-attr mkntfs ntfscp ntfsinfo python3 || return 0
	new ntfs3-attr 2M
	mkntfs -q -F -f -L statx "$im" >/dev/null 2>&1 || { failed ntfs3-attr mkntfs; return 0; }
	for x in $files; do
		echo "attribute byte 0x$x, set in the MFT record" > "$stage/attr.txt"
		if ! ntfscp -q "$im" "$stage/attr.txt" "ATTR-$x"; then
			failed ntfs3-attr ntfscp
			return 0
		fi
		specs+=("ATTR-$x:$x")
	done
	for spec in "${specs[@]}"; do
		ino=$(ntfsinfo -F "/${spec%%:*}" "$im" |
			sed -n 's/^Dumping Inode \([0-9]*\).*/\1/p')
		[ -n "$ino" ] || { failed ntfs3-attr ntfsinfo; return 0; }
		args+=("$ino:${spec#*:}")
	done
	python3 - "$im" "${args[@]}" <<'EOF' ||
import struct
import sys

img, specs = sys.argv[1], sys.argv[2:]
f = open(img, 'r+b')
boot = f.read(512)
assert boot[3:11] == b'NTFS    '
bps, spc = struct.unpack_from('<HB', boot, 11)
mft_lcn = struct.unpack_from('<Q', boot, 48)[0]
cpr = struct.unpack_from('<b', boot, 64)[0]
rec_size = 1 << -cpr if cpr < 0 else cpr * bps * spc
DOS = 0x27	# read-only, hidden, system, archive

for spec in specs:
    ino, attr = spec.split(':')
    ino, attr = int(ino), int(attr, 16)
    # A fresh volume's first MFT records are contiguous from mft_lcn.
    off = mft_lcn * bps * spc + ino * rec_size
    f.seek(off)
    rec = bytearray(f.read(rec_size))
    assert rec[:4] == b'FILE', 'inode %d: no FILE record' % ino
    a = struct.unpack_from('<H', rec, 20)[0]
    done = 0
    while a < rec_size:
        typ, alen = struct.unpack_from('<II', rec, a)
        if typ == 0xffffffff:
            break
        voff = a + struct.unpack_from('<H', rec, a + 20)[0]
        # $STANDARD_INFORMATION.FileAttributes, $FILE_NAME.FileAttributes
        fa = {0x10: voff + 0x20, 0x30: voff + 0x38}.get(typ)
        if fa is not None and rec[a + 8] == 0:	# resident
            # Stay clear of the update sequence words at sector ends.
            assert fa % bps < bps - 6
            old = struct.unpack_from('<I', rec, fa)[0]
            struct.pack_into('<I', rec, fa, old & ~DOS | attr)
            done += 1
        a += alen
    assert done == 2, 'inode %d: %d attributes patched' % (ino, done)
    f.seek(off)
    f.write(rec)
f.close()
EOF
	{ failed ntfs3-attr "patching the MFT records"; return 0; }
	# The attributes of $STANDARD_INFORMATION, as ntfsinfo prints them
	x='/STANDARD_INFORMATION/,/FILE_NAME/'
	x="${x}s/.*File attributes:.*(0x\([0-9a-f]*\)).*/\1/p"
	for spec in "${specs[@]}"; do
		got=$(ntfsinfo -F "/${spec%%:*}" "$im" | sed -n "$x")
		[ -n "$got" ] && [ $((16#$got & 0x27)) -eq $((16#${spec#*:})) ] ||
			{ failed ntfs3-attr "ntfsinfo's read-back"; return 0; }
	done
}
ntfs

# The files of the compressed images: text that compresses well, and two
# squashfs blocks (128 KiB each) of data that does not, the same on every
# build.
mkdir "$stage/c"
for i in $(seq 1 8192); do
	echo "line $i of a text that compresses well, written by mkimages.sh"
done > "$stage/c/text.txt"
command -v python3 >/dev/null && python3 -c 'import random, sys
random.seed(12)
sys.stdout.buffer.write(random.randbytes(262144))' > "$stage/c/random.bin"

for name in squashfs squashfs-plain; do
	needs "$name" mksquashfs python3 || continue
	opts="-comp gzip"
	[ "$name" = squashfs-plain ] && opts="-noI -noD -noF -noX"
	rm -f "$dir/$name.img"
	# shellcheck disable=SC2086
	mksquashfs "$stage/c" "$dir/$name.img" -quiet -noappend $opts \
		>/dev/null || failed "$name" mksquashfs
done

if needs squashfs-big mksquashfs; then
	mkdir "$stage/big"
	truncate -s 1G "$stage/big/big"
	rm -f "$dir/squashfs-big.img"
	mksquashfs "$stage/big" "$dir/squashfs-big.img" -quiet -noappend \
		-b 4096 -noI >/dev/null || failed squashfs-big mksquashfs
	rm -rf "$stage/big"
fi

for name in erofs erofs-plain; do
	needs "$name" mkfs.erofs python3 || continue
	opts=-zlz4
	[ "$name" = erofs-plain ] && opts=
	rm -f "$dir/$name.img"
	# shellcheck disable=SC2086
	mkfs.erofs --quiet $opts "$dir/$name.img" "$stage/c" >/dev/null ||
		failed "$name" mkfs.erofs
done
ntfs_c() {
	local info
	needs ntfs3-c mkntfs ntfscp ntfsinfo || return 0
	new ntfs3-c 4M
	mkntfs -q -F -f -C -L statxc "$dir/ntfs3-c.img" >/dev/null 2>&1 ||
		{ failed ntfs3-c mkntfs; return 0; }
	ntfscp -q "$dir/ntfs3-c.img" "$stage/c/text.txt" text.txt ||
		{ failed ntfs3-c ntfscp; return 0; }
	printf 'small\n' > "$stage/small.txt"
	ntfscp -q "$dir/ntfs3-c.img" "$stage/small.txt" small.txt ||
		{ failed ntfs3-c ntfscp; return 0; }
	# The unnamed $DATA of small.txt: resident, ATTR_IS_COMPRESSED (0x0001).
	info=$(ntfsinfo -F /small.txt "$dir/ntfs3-c.img" 2>/dev/null |
		sed -n '/attribute \$DATA/,$p')
	if ! grep -q 'Resident:[[:space:]]*Yes' <<< "$info" ||
	   ! grep -q 'Attribute flags:[[:space:]]*0x0001' <<< "$info"; then
		failed ntfs3-c "a resident compressed small.txt"
	fi
}
ntfs_c
exit 0
