#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh BZIMAGE INITRAMFS MODE LOGDIR [TIMEOUT]: boot the guest under TCG
# with the disks from images.sh, console on ttyS0 (LOGDIR/console.log) and
# results on ttyS1 (LOGDIR/results.log).  Fails, printing the excerpt, on a
# timeout, a missing end marker, or any WARN/BUG/oops/sanitizer report.
# STATX_DISKS=0 boots with no disk, STATX_DISKS=FILE with the disks FILE
# lists ("file serial [props]"); BOOT_NAME names the kernel in messages.
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 mode=$3 logs=$4 tmo=${5:-900}
mkdir -p "$logs"
case "${STATX_DISKS:-1}" in
0)	rm -rf "$logs/disks"
	mkdir -p "$logs/disks"
	: > "$logs/disks/disks" ;;
1)	"$HARNESS/images.sh" "$logs/disks" ;;
*)	# A list the caller made, in images.sh's format.
	rm -rf "$logs/disks"
	mkdir -p "$logs/disks"
	cp "$STATX_DISKS" "$logs/disks/disks" ;;
esac

args=()
i=0
while read -r file serial props; do
	# "drive.X=Y" properties are options of -drive (throttling, ...), the
	# others of the virtio-blk device.
	dprops= vprops=
	for p in ${props//,/ }; do
		case "$p" in
		drive.*) dprops+=",${p#drive.}" ;;
		*) vprops+=",$p" ;;
		esac
	done
	args+=(-drive "file=$file,format=raw,if=none,id=d$i$dprops"
	       -device "virtio-blk-pci,drive=d$i,serial=$serial$vprops")
	i=$((i + 1))
done < "$logs/disks/disks"

rm -f "$logs/console.log" "$logs/results.log"
rc=0
t0=$(date +%s)
say "boot ${BOOT_NAME:-$(basename "$(dirname "$(dirname "$(dirname "$kernel")")")")} kernel, mode $mode (timeout ${tmo}s)"
timeout --foreground -k 10 "$tmo" qemu-system-x86_64 \
	-machine pc -cpu ${QEMU_CPU:-max} -smp ${QEMU_SMP:-2} -m ${QEMU_MEM:-1G} \
	${QEMU_EXTRA:-} \
	-display none -monitor none -no-reboot \
	-serial "file:$logs/console.log" -serial "file:$logs/results.log" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 panic_on_warn=1 oops=panic rdinit=/init statx.mode=$mode ${KCMDLINE:-}" \
	"${args[@]}" || rc=$?
say "guest ran $(( $(date +%s) - t0 ))s (qemu rc=$rc)"

fail=0
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	say "FAIL: the guest did not finish within ${tmo}s"
	fail=1
fi
if ! grep -q '^STATX-POWEROFF' "$logs/results.log" 2>/dev/null; then
	say "FAIL: the guest did not reach its end marker"
	fail=1
fi
pat='WARNING:|BUG:|Oops|Kernel panic|KASAN|UBSAN|kmemleak: [1-9]|unreferenced object|possible recursive locking|circular locking|INFO: task .* blocked|general protection fault|RIP:'
if grep -E -n "$pat" "$logs/console.log" > "$logs/reports.txt"; then
	say "FAIL: kernel reports in $logs/console.log:"
	first=$(head -1 "$logs/reports.txt" | cut -d: -f1)
	sed -n "$((first > 5 ? first - 5 : 1)),$((first + 40))p" "$logs/console.log" >&2
	fail=1
fi
if [ $fail -ne 0 ]; then
	say "last lines of the console:"
	tail -20 "$logs/console.log" >&2
fi
exit $fail
