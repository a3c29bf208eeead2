# SPDX-License-Identifier: GPL-2.0
# Sourced by images.sh: disks whose files carry DOS attributes set on the
# host, for selftests/statx/statx_dosattr.  The truth the guest checks is
# in each file's name: ATTR-XX carries the attribute byte 0xXX (0x10, the
# directory bit, only on directories).  sample.txt carries read-only,
# hidden, system and archive (0x27), for `test-statx` in run mode.
#
#   vfat-attr, msdos-attr: mtools (mattrib) sets the bits.
#   exfat-attr: an entry set per file written into the root directory by
#       the script below (exfatprogs has no way to add files), checked by
#       fsck.exfat -n.
#   ntfs3-attr: ntfscp adds the files; the script below sets the file
#       attributes of $STANDARD_INFORMATION and $FILE_NAME in each MFT
#       record, and ntfsinfo reads them back.

# The attribute bytes: every combination of read-only (0x01), hidden
# (0x02), system (0x04) and archive (0x20) on a file ...
i5_files="00 01 02 03 04 05 06 07 20 21 22 23 24 25 26 27"
# ... and some on a directory.
i5_dirs="10 11 12 14 16 30 37"

# i5_mattrib IMG PATH XX: give PATH exactly the attribute byte XX.
i5_mattrib() {
	local x=$((16#$3)) a="" f bit
	for f in r:1 h:2 s:4 a:32; do
		bit=${f#*:}
		if [ $((x & bit)) -ne 0 ]; then a="$a +${f%:*}"; else a="$a -${f%:*}"; fi
	done
	# shellcheck disable=SC2086
	MTOOLS_SKIP_CHECK=1 mattrib -i "$1" $a "::/$2" >/dev/null
}

# i5_fat KIND: a FAT image named KIND-attr, formatted by mkfs.fat.
i5_fat() {
	local im=$dir/$1-attr.img x got
	img "$1-attr" 32M
	mkfs.fat -n STATXATTR "$im" >/dev/null
	export MTOOLS_SKIP_CHECK=1
	for x in $i5_files; do
		echo "attribute byte 0x$x, set by mattrib" > "$dir/stage/i5.txt"
		mcopy -i "$im" "$dir/stage/i5.txt" "::/ATTR-$x"
		i5_mattrib "$im" "ATTR-$x" "$x"
	done
	for x in $i5_dirs; do
		mmd -i "$im" "::/ATTR-$x"
		i5_mattrib "$im" "ATTR-$x" "$x"
	done
	mcopy -i "$im" "$dir/stage/sample.txt" ::/SAMPLE.TXT
	i5_mattrib "$im" SAMPLE.TXT 27
	# Read the bits back as mtools sees them, for the log.
	mattrib -i "$im" "::/*" > "$dir/$1-attr.attrs"
	unset MTOOLS_SKIP_CHECK
	got=$(grep -c 'ATTR-' "$dir/$1-attr.attrs")
	[ "$got" -eq "$(echo $i5_files $i5_dirs | wc -w)" ] ||
		die "$1-attr: mattrib lists $got ATTR- files"
	disk "$1-attr"
}

i5_fat vfat
i5_fat msdos

# exFAT: append one entry set (File, Stream Extension, File Name entries)
# per empty file to the root directory.
img exfat-attr 32M
mkfs.exfat -L statx "$dir/exfat-attr.img" >/dev/null
python3 - "$dir/exfat-attr.img" sample.txt:27 $(for x in $i5_files; do echo "ATTR-$x:$x"; done) <<'EOF' ||
import struct
import sys

img, files = sys.argv[1], sys.argv[2:]
f = open(img, 'r+b')
boot = f.read(512)
assert boot[3:11] == b'EXFAT   '
heap, root = struct.unpack_from('<II', boot, 88)[0], struct.unpack_from('<I', boot, 96)[0]
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
	die "exfat-attr: writing the entry sets failed"
fsck.exfat -n "$dir/exfat-attr.img" > "$dir/exfat-attr.fsck" 2>&1 ||
	die "exfat-attr: fsck.exfat -n rejects the image: $(cat "$dir/exfat-attr.fsck")"
disk exfat-attr

# NTFS: ntfscp makes the files, then their file attributes are set in the
# MFT records.
img ntfs3-attr 32M
mkntfs -q -F -f -L statx "$dir/ntfs3-attr.img" >/dev/null 2>&1 ||
	die "ntfs3-attr: mkntfs failed"
i5_ntfs=()
for x in $i5_files; do
	echo "attribute byte 0x$x, set in the MFT record" > "$dir/stage/i5.txt"
	ntfscp -q "$dir/ntfs3-attr.img" "$dir/stage/i5.txt" "ATTR-$x" ||
		die "ntfs3-attr: ntfscp ATTR-$x failed"
	i5_ntfs+=("ATTR-$x:$x")
done
ntfscp -q "$dir/ntfs3-attr.img" "$dir/stage/sample.txt" sample.txt ||
	die "ntfs3-attr: ntfscp sample.txt failed"
i5_ntfs+=("sample.txt:27")
i5_args=()
for spec in "${i5_ntfs[@]}"; do
	ino=$(ntfsinfo -F "/${spec%%:*}" "$dir/ntfs3-attr.img" |
		sed -n 's/^Dumping Inode \([0-9]*\).*/\1/p')
	[ -n "$ino" ] || die "ntfs3-attr: no inode for ${spec%%:*}"
	i5_args+=("$ino:${spec#*:}")
done
python3 - "$dir/ntfs3-attr.img" "${i5_args[@]}" <<'EOF' ||
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
    ino, attr = (int(v, 0) for v in (spec.split(':')[0], '0x' + spec.split(':')[1]))
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
	die "ntfs3-attr: patching the MFT records failed"
for spec in "${i5_ntfs[@]}"; do
	got=$(ntfsinfo -F "/${spec%%:*}" "$dir/ntfs3-attr.img" |
		sed -n '/STANDARD_INFORMATION/,/FILE_NAME/s/.*File attributes:.*(0x\([0-9a-f]*\)).*/\1/p')
	[ $((16#$got & 0x27)) -eq $((16#${spec#*:})) ] ||
		die "ntfs3-attr: ${spec%%:*} reads back as 0x$got"
done
disk ntfs3-attr
rm -f "$dir/stage/i5.txt"
unset i5_files i5_dirs i5_ntfs i5_args spec ino got x
