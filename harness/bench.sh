#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: build the unpatched base and the patched kernel, boot each
# (one vCPU) with the same guest program, harness/guest/statx_bench.c, once
# with -icount shift=0,sleep=off (the guest clock counts instructions: the
# same figure on every run) and once on plain TCG wall time, and print a
# table of ns per call with the patched/base ratio.  Writes out/bench.md.
. "$(dirname "$0")/lib.sh"

"$HARNESS/deps.sh"
"$HARNESS/base.sh"
"$HARNESS/series.py" assemble
base=$("$HARNESS/worktree.sh" base)
STATX_CONFIG_LENIENT=1 "$HARNESS/build.sh" base "$base"
"$HARNESS/build.sh" series "$TREE"

b=$OUT/bench
rm -rf "$b"
mkdir -p "$b"
gcc -static -O2 -Wall -isystem "$BUILD/series/usr/include" \
	-o "$b/statx_bench" "$HARNESS/guest/statx_bench.c"
INITRAMFS_EXTRA="$b/statx_bench" step "build the initramfs" \
	"$HARNESS/initramfs.sh" "$TREE" "$BUILD/series/usr/include" "$b/initramfs.cpio" >/dev/null

# BENCH_CLOCKS=icount skips the wall-clock boots.
for k in base series; do
	for clock in ${BENCH_CLOCKS:-icount wall}; do
		extra=""
		[ $clock = icount ] && extra="-icount shift=0,sleep=off"
		QEMU_SMP=1 QEMU_EXTRA="$extra" "$HARNESS/boot.sh" \
			"$BUILD/$k/arch/x86/boot/bzImage" "$b/initramfs.cpio" bench \
			"$b/$k-$clock" 1200 || die "the $k kernel failed the benchmark boot"
		sed -n 's/^BENCH //p' "$b/$k-$clock/results.log" > "$b/$k-$clock.txt"
		[ -s "$b/$k-$clock.txt" ] || die "no BENCH lines from the $k kernel"
	done
done

python3 - "$b" <<'PY' | tee "$b/bench.md"
import sys
d = sys.argv[1]
def load(n):
    return dict((l.split()[0], float(l.split()[1])) for l in open("%s/%s.txt" % (d, n)))
import os
names = [n for n in ("base-icount", "series-icount", "base-wall", "series-wall")
         if os.path.exists("%s/%s.txt" % (d, n))]
r = {n: load(n) for n in names}
wall = "base-wall" in r and "series-wall" in r
cases = [c for c in r["base-icount"]]
print("| case | base (icount ns) | patched (icount ns) | patched/base |"
      + (" base (wall ns) | patched (wall ns) | patched/base |" if wall else ""))
print("|---|---:|---:|---:|" + ("---:|---:|---:|" if wall else ""))
for c in cases:
    bi, si = r["base-icount"][c], r["series-icount"].get(c, float("nan"))
    line = "| %s | %.0f | %.0f | %.3f |" % (c, bi, si, si / bi)
    if wall:
        bw, sw = r["base-wall"][c], r["series-wall"].get(c, float("nan"))
        line += " %.0f | %.0f | %.3f |" % (bw, sw, sw / bw)
    print(line)
s = r["series-icount"]
if "statx_basic_tmpfs" in s and "statx_all_new_tmpfs" in s:
    print()
    print("All new fields together vs a basic call (patched, icount, tmpfs): %.3f"
          % (s["statx_all_new_tmpfs"] / s["statx_basic_tmpfs"]))
PY
