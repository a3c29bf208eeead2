#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: build the unpatched base and the patched kernel, boot each
# (one vCPU) with the same guest program, harness/guest/statx_bench.c,
# BENCH_BOOTS times (default 3) with -icount shift=0,sleep=off (the guest
# clock counts instructions: nearly the same figure on every boot) and once
# on plain TCG wall time, and print a table of ns per call with the
# patched/base ratio; with several boots, each icount figure is the median
# and the spread (lowest-highest) is shown.  The CPU is -cpu max without
# ERMS and FSRM, so that the kernel copies 8 bytes per counted instruction
# rather than one ("rep movsb").  Writes out/bench/bench.md.
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
gcc -static -O2 -Wall -o "$b/statx_walk" "$HARNESS/guest/statx_walk.c"
# The tree the walk makes: the base's sources, names, sizes and modes.
(cd "$base" && find . -path ./.git -prune -o -printf '%y %s %m %P\n') \
	> "$b/statx_walk.manifest"
INITRAMFS_EXTRA="$b/statx_bench $b/statx_walk $b/statx_walk.manifest" \
	step "build the initramfs" \
	"$HARNESS/initramfs.sh" "$TREE" "$BUILD/series/usr/include" "$b/initramfs.cpio" >/dev/null

# BENCH_CLOCKS=icount skips the wall-clock boots.  The kernels take turns,
# so that a change on the host weighs on both alike.
boots=${BENCH_BOOTS:-3}
export QEMU_CPU=${QEMU_CPU:-max,-erms,-fsrm}
for clock in ${BENCH_CLOCKS:-icount wall}; do
	n=$boots
	[ $clock = wall ] && n=1
	for i in $(seq 1 $n); do
		for k in base series; do
			extra=""
			[ $clock = icount ] && extra="-icount shift=0,sleep=off"
			run=$k-$clock-$i
			QEMU_SMP=1 QEMU_EXTRA="$extra" "$HARNESS/boot.sh" \
				"$BUILD/$k/arch/x86/boot/bzImage" "$b/initramfs.cpio" bench \
				"$b/$run" 1200 || die "the $k kernel failed the benchmark boot"
			sed -n 's/^BENCH //p' "$b/$run/results.log" > "$b/$run.txt"
			[ -s "$b/$run.txt" ] || die "no BENCH lines from the $k kernel"
			rm -rf "$b/$run/disks"
		done
	done
done

python3 - "$b" <<'PY' | tee "$b/bench.md"
import sys
d = sys.argv[1]
import glob
import os
import statistics


def load(n):
    """{case: [ns of each boot]} for the runs named n-1, n-2, ..."""
    runs = {}
    for f in sorted(glob.glob("%s/%s-[0-9]*.txt" % (d, n))):
        for l in open(f):
            c, v = l.split()[:2]
            runs.setdefault(c, []).append(float(v))
    return runs


r = {n: load(n) for n in ("base-icount", "series-icount", "base-wall", "series-wall")}
r = {n: v for n, v in r.items() if v}
wall = "base-wall" in r and "series-wall" in r
# The base's cases, then those only the patched kernel has (statx_dir).
cases = [c for c in r["base-icount"]] + \
    [c for c in r["series-icount"] if c not in r["base-icount"]]
nb = len(r["base-icount"][cases[0]])
nan = [float("nan")]


def fig(v):
    m = statistics.median(v)
    return "%.0f" % m if len(v) == 1 or min(v) == max(v) else \
        "%.0f (%.0f-%.0f)" % (m, min(v), max(v))


print("Medians of %d icount boots per kernel (lowest-highest where they differ), "
      "-cpu %s." % (nb, os.environ.get("QEMU_CPU", "max")))
print()
print("| case | base (icount ns) | patched (icount ns) | patched/base |"
      + (" base (wall ns) | patched (wall ns) | patched/base |" if wall else ""))
print("|---|---:|---:|---:|" + ("---:|---:|---:|" if wall else ""))
for c in cases:
    bv, sv = r["base-icount"].get(c, nan), r["series-icount"].get(c, nan)
    bi, si = statistics.median(bv), statistics.median(sv)
    line = "| %s | %s | %s | %.3f |" % (c, fig(bv), fig(sv), si / bi)
    if wall:
        bw = r["base-wall"].get(c, nan)[0]
        sw = r["series-wall"].get(c, nan)[0]
        line += " %.0f | %.0f | %.3f |" % (bw, sw, sw / bw)
    print(line.replace("nan", "-"))
s = {c: statistics.median(v) for c, v in r["series-icount"].items()}
if "statx_basic_tmpfs" in s and "statx_all_new_tmpfs" in s:
    print()
    print("All new fields together vs a basic call (patched, icount, tmpfs): %.3f"
          % (s["statx_all_new_tmpfs"] / s["statx_basic_tmpfs"]))
for fs in ("tmpfs", "ext4"):
    d, g, gs = ("list_%s_%s" % (k, fs) for k in ("statx_dir", "getdents",
                                                   "getdents_statx"))
    if d in s and g in s and gs in s:
        print()
        print("Listing on %s (patched, icount, ns per entry): statx_dir %.0f, "
              "getdents64 %.0f, getdents64 + statx %.0f; statx_dir is %.2f x "
              "getdents64 + statx and %.2f x getdents64"
              % (fs, s[d], s[g], s[gs], s[d] / s[gs], s[d] / s[g]))
        bgs = r["base-icount"].get(gs)
        if bgs:
            print("Against the unpatched kernel's getdents64 + statx (%.0f): "
                  "statx_dir is %.2f x" % (statistics.median(bgs),
                                          s[d] / statistics.median(bgs)))
d, g, gs = ("walk_%s_tree" % k for k in ("statx_dir", "getdents", "getdents_statx"))
if d in s and g in s and gs in s:
    print()
    print("Walking the kernel's source tree on tmpfs (patched, icount, ns per "
          "entry): statx_dir %.0f, getdents64 %.0f, getdents64 + statx %.0f; "
          "statx_dir is %.2f x getdents64 + statx" % (s[d], s[g], s[gs], s[d] / s[gs]))
PY
