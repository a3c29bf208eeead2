#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# profile-selftest.sh: check harness/profile_plugin.c and
# harness/profile_report.py on a guest whose instruction counts are known,
# without a kernel: a multiboot program (32-bit, run by QEMU's -kernel)
# that runs a two-instruction loop 1,000 times to warm up, then between
# the markers 1,000,000 times, then in a second window 3,000 times, and
# leaves through isa-debug-exit.  Each window must count exactly the loop's
# instructions, the "ret", and the end marker's block (mov, cpuid, jmp):
# 2N + 4.  The same with -icount.  Then profile_report.py on that window,
# and on made-up kernel windows (System.map lookups, a block that runs
# past its symbol, the buckets with and as the getdents64 baseline).  Takes a few seconds; make check runs it.
. "$(dirname "$0")/lib.sh"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden \
	-o "$t/plugin.so" "$HARNESS/profile_plugin.c"

cat > "$t/guest.S" <<'EOF'
	.text
	.code32
	.align 4
	.long 0x1badb002, 0, -0x1badb002	/* multiboot, no flags */
	.globl _start
_start:
	mov $1000, %ecx
	call work
	mov $0x5a9e1f01, %eax
	cpuid
	mov $1000000, %ecx
	call work
	mov $0x5a9e1f02, %eax
	cpuid
	jmp 1f
1:	mov $0x5a9e1f01, %eax
	cpuid
	mov $3000, %ecx
	call work
	mov $0x5a9e1f02, %eax
	cpuid
	jmp 2f
2:	mov $0xf4, %dx			/* isa-debug-exit: qemu exits with 1 */
	xor %al, %al
	out %al, %dx
3:	hlt
	jmp 3b
work:	dec %ecx
	jnz work
	ret
EOF
gcc -m32 -c -o "$t/guest.o" "$t/guest.S"
ld -m elf_i386 -Ttext 0x100000 -e _start -o "$t/guest.elf" "$t/guest.o"
nm -n "$t/guest.elf" > "$t/guest.nm"

fail=0
check() {	# check WHAT GOT WANT
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: $2 where $3 was due"
		fail=1
	fi
}

for icount in "" "-icount shift=0,sleep=off"; do
	rm -f "$t"/w.*
	rc=0
	# shellcheck disable=SC2086 # $icount is two words or none
	timeout 120 qemu-system-x86_64 -machine pc -cpu max,-erms,-fsrm -smp 1 \
		-m 64M $icount -display none -monitor none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=4 -kernel "$t/guest.elf" \
		-plugin "file=$t/plugin.so,out=$t/w,user_top=0" || rc=$?
	what="plugin${icount:+ with $icount}"
	check "$what: qemu's exit" $rc 1
	check "$what: window 0" "$(tail -1 "$t/w.0" 2>/dev/null)" "# blocks 3 insns 2000004"
	check "$what: window 1" "$(tail -1 "$t/w.1" 2>/dev/null)" "# blocks 3 insns 6004"
	check "$what: the loop's block" \
		"$(awk '$1 == "'"$(awk '$3 == "work" { sub(/^0+/, "", $1); print $1 }' "$t/guest.nm")"'" { print $3, $4 }' "$t/w.0" 2>/dev/null)" \
		"2 2000000"
	check "$what: summary" "$(grep -E '^(windows|bad_markers|open_window)' "$t/w.summary" | tr '\n' ' ')" \
		"windows 2 bad_markers 0 open_window 0 "
done

# The report on the first window: 2N + 4 instructions for N "entries".
printf 'PROFILE loop window=0 listings=1 entries=1000000\n' > "$t/results.log"
printf 'ffffffff81000000 T _text\nffffffff81100000 T _etext\n' > "$t/map0"
"$HARNESS/profile_report.py" report --kernel test --system-map "$t/map0" \
	--results "$t/results.log" --windows "$t/w" --user-nm "$t/guest.nm" \
	--outdir "$t/out" >/dev/null
check "report: total per entry" \
	"$(sed -n 's/^instructions per entry: //p' "$t/out/test-loop.txt")" \
	"2.0 (kernel 0.0, user 2.0)"
check "report: the loop's function" \
	"$(awk '$1 == 1 { print $2, $5 }' "$t/out/test-loop.txt")" "2.00 [user]"

# Two kernel windows of 10 entries.  getdents_x, the baseline: dput 30 and
# filldir64 9 per entry, all of it directory iteration.  statx_x:
# vfs_getattr_nosec's block runs past shmem_getattr's start; dput 40 per
# entry (a block in its middle), of which the baseline's 30 go to
# iteration and 10 to name lookup.
cat > "$t/map1" <<'EOF2'
ffffffff81000000 T _text
ffffffff81001000 T vfs_getattr_nosec
ffffffff81001040 t shmem_getattr
ffffffff81001100 T dput
ffffffff81001200 T filldir64
ffffffff81002000 T _etext
EOF2
cat > "$t/k.0" <<'EOF2'
# window 0
ffffffff81001100 ffffffff81001110 3 300
ffffffff81001200 ffffffff81001210 3 90
# blocks 2 insns 390
EOF2
cat > "$t/k.1" <<'EOF2'
# window 1
ffffffff81001000 ffffffff81001048 10 500
ffffffff81001120 ffffffff81001130 4 400
ffffffff81001200 ffffffff81001210 3 90
401000 401010 2 10
# blocks 4 insns 1000
EOF2
printf 'PROFILE getdents_x window=0 listings=2 entries=10\nPROFILE statx_x window=1 listings=2 entries=10\n' \
	> "$t/results.log"
printf '0000000000401000 T main\n' > "$t/k.nm"
"$HARNESS/profile_report.py" report --kernel test --system-map "$t/map1" \
	--results "$t/results.log" --windows "$t/k" --user-nm "$t/k.nm" \
	--outdir "$t/out" >/dev/null
f=$t/out/test-statx_x.txt
check "report: kernel total" "$(sed -n 's/^instructions per entry: //p' "$f")" \
	"100.0 (kernel 99.0, user 1.0)"
check "report: ranks" "$(awk '$1 ~ /^[0-9]+$/ { printf "%s=%s ", $5, $2 }' "$f")" \
	"vfs_getattr_nosec=50.00 dput=40.00 filldir64=9.00 [user]=1.00 "
check "report: a block past its symbol" \
	"$(grep -c 'past the next symbol: 50.00%.*vfs_getattr_nosec ffffffff81001000-ffffffff81001048 into shmem_getattr' "$f")" 1
check "report: buckets" \
	"$(grep -E '^  [a-z]' "$f" | sed 's/  */ /g' | tr '\n' ';')" \
	" directory iteration 39.00 39.0%; name lookup 10.00 10.0%; attributes 50.00 50.0%; user space 1.00 1.0%;"
check "report: the baseline's buckets" \
	"$(grep -E '^  [a-z]' "$t/out/test-getdents_x.txt" | sed 's/  */ /g' | tr '\n' ';')" \
	" directory iteration 39.00 100.0%;"

[ $fail = 0 ] || die "profile-selftest failed"
echo "profile-selftest: all passed"
