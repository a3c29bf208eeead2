#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile_report.py: the instruction profile of harness/profile.sh, by
function, per directory entry listed.

    profile_report.py report --kernel NAME --system-map MAP --results LOG
        --windows PREFIX [--user-nm FILE] [--bench DIR] [--top N] --outdir DIR
    profile_report.py summary DIR

report: for each "PROFILE <case> window=<N> listings=<K> entries=<E>" line
of the guest's results LOG (harness/guest/statx_profile.c), read the
window PREFIX.N that harness/profile_plugin.c wrote (one line per
translation block: start, end, instructions, instructions executed),
give each block to the function its start address lies in (a block is
straight-line code up to a jump, a call or a return, so it lies in one
function; blocks that run past the next symbol are counted and said), by
the kernel's System.map for kernel addresses and by `nm -n` of the guest
program (--user-nm) for user ones, and write DIR/NAME-<case>.txt: the
total per entry (kernel, user, both) against the -icount figure of the
same case in harness/bench.sh's results (--bench, the directory of its
NAME-icount-*.txt files), the top N functions (default 40) per entry, and
the cost in buckets (syscall entry and exit, directory iteration, name
lookup, attributes, the record, ...; BUCKETS below says which function
goes where).  DIR/NAME.json keeps the figures for the summary.

summary: DIR/summary.md from the NAME.json files in DIR.
"""
import argparse
import bisect
import glob
import json
import os
import re
import statistics
import sys

KERNEL_START = 0xffffffff80000000
USER_TOP = 0x800000000000

# The buckets, in order: the first pattern that matches a function's whole
# name decides.  Names of the kernel this series builds (tinyconfig, -Os,
# so many helpers are inlined into their callers: a caller's bucket is
# where its inlined helpers' instructions go).
BUCKETS = [
    ("syscall entry/exit", [
        r"entry_SYSCALL_64.*", r"entry_SYSRETQ.*", r"do_syscall_64",
        r"x64_sys_call", r"syscall_exit_to_user_mode.*",
        r"syscall_trace_enter", r"exit_to_user_mode.*",
        r"arch_exit_to_user_mode.*", r"syscall_enter_from_user_mode.*",
        r"fpregs_.*", r"switch_fpu_return",
        # lseek(), once per listing
        r"__x64_sys_lseek", r"ksys_lseek", r"vfs_llseek",
        r"generic_file_llseek.*", r"dcache_dir_lseek", r"offset_dir_llseek",
        r"ext4_dir_llseek", r"ext4_llseek",
    ]),
    ("directory iteration", [
        r"__x64_sys_getdents64", r"__do_sys_getdents64", r"iterate_dir",
        r"filldir64", r"verify_dirent_name", r"statx_dir_actor",
        r"dcache_readdir", r"scan_positives", r"offset_readdir",
        r"offset_iterate_dir", r"offset_dir_emit", r"shmem_.*readdir.*",
        r"simple_offset.*", r"mas_.*", r"mtree_.*", r"mt_find.*",
        r"ma_.*", r"mab_.*", r"mte_.*",
        r"ext4_readdir", r"ext4_dx_readdir", r"call_filldir",
        r"ext4_htree_.*", r"htree_dirblock_to_tree", r"ext4_htree_store_dirent",
        r"free_rb_tree_fname", r"ext4fs_dirhash", r"__ext4fs_dirhash",
        r"str2hashbuf.*", r"dx_.*", r"ext4_dir_.*", r"ext4_check_dir_entry",
        r"__ext4_check_dir_entry", r"ext4_bread.*", r"ext4_getblk",
        r"ext4_map_blocks", r"ext4_es_lookup_extent", r"rb_.*",
        r"touch_atime", r"atime_needs_update", r"relatime_need_update",
        r"file_accessed", r"fsnotify.*", r"__fsnotify.*",
        r"security_file_permission", r"rw_verify_area",
        r"fdget_pos", r"__fdget_pos", r"fdput_pos", r"__f_unlock_pos",
        r"__fget_light", r"__fget_files", r"fget.*", r"fput",
        r"down_read_killable", r"down_read", r"up_read",
        r"__down_read.*", r"__up_read.*",
        r"mutex_lock", r"mutex_unlock", r"__mutex_.*",
        r"dir_emit.*", r"dir_relax.*", r"__brelse", r"brelse",
        r"__find_get_block.*", r"bh_.*", r"ext4_get_group_desc",
        r"__ext4_read_dirblock", r"ext4_read_dirblock",
        r"ext4_dir_llseek",
    ]),
    ("name lookup", [
        r"lookup_one.*", r"lookup_noperm.*", r"try_lookup_.*",
        r"lookup_fast", r"lookup_dcache", r"lookup_slow", r"__lookup_slow",
        r"d_hash.*", r"__d_lookup.*", r"d_lookup", r"d_revalidate",
        r"dput", r"dget.*", r"d_same_name", r"inode_permission",
        r"generic_permission", r"may_lookup", r"acl_permission_check",
        r"full_name_hash", r"hashlen_string", r"link_path_walk.*",
        r"walk_component", r"step_into.*", r"handle_dots.*",
        r"path_init", r"path_lookupat.*", r"filename_lookup",
        r"complete_walk", r"terminate_walk", r"try_to_unlazy.*",
        r"legitimize_.*", r"__legitimize_.*", r"nd_jump_root",
        r"set_root", r"path_put", r"path_get", r"mntget", r"mntput.*",
        r"follow_down.*", r"follow_dotdot.*", r"choose_mountpoint.*",
        r"__lookup_mnt", r"lookup_mnt", r"traverse_mounts",
        r"__traverse_mounts", r"getname.*", r"__getname.*",
        r"putname", r"strncpy_from_user", r"do_strncpy_from_user",
        r"kmem_cache_alloc.*", r"kmem_cache_free", r"__kmem_cache_.*",
        r"slab_.*", r"__slab_.*", r"lockref_.*", r"__d_rcu.*",
        r"vfs_path_lookup", r"user_path_at.*", r"filename_.*",
        r"d_is_.*", r"__d_entry_type", r"security_inode_permission",
        r"make_vfsuid", r"make_vfsgid", r"from_kuid.*", r"from_kgid.*",
        r"in_group_p", r"groups_search", r"capable.*", r"ns_capable.*",
        r"security_capable", r"cap_capable",
        r"ext4_lookup", r"__ext4_find_entry", r"ext4_find_entry",
        r"shmem_lookup", r"simple_lookup",
    ]),
    ("attributes", [
        r"vfs_statx.*", r"vfs_getattr.*", r"do_statx.*", r"__do_sys_statx",
        r"__x64_sys_statx", r"shmem_getattr", r"ext4_getattr",
        r"ext4_file_getattr", r"generic_fillattr", r"security_inode_getattr",
        r"fill_mg_cmtime", r"inode_get_.*", r"stat_.*", r"statx_dir_getattr",
        r"generic_fill_statx_.*", r"ktime_get.*", r"current_time",
        r"inode_.*time.*", r"ext4_inode_.*", r"ext4_get_projid",
        r"shmem_.*attr.*", r"sb_.*", r"i_size_read",
    ]),
    ("the record", [
        r"statx_dir_put", r"cp_statx", r"statx_from_kstat",
        r"copy_to_user", r"_copy_to_user", r"copy_struct_to_user",
        r"copy_user_.*", r"rep_movs_alternative", r"rep_stos_alternative",
        r"clear_user", r"__clear_user", r"memset", r"__memset",
        r"memcpy", r"__memcpy", r"memcpy_orig", r"memset_orig",
        r"statx_size_mask", r"__x64_sys_statx_dir", r"__do_sys_statx_dir",
        r"vfs_statx_dir",
    ]),
    ("scheduler, interrupts", [
        r"asm_sysvec_.*", r"sysvec_.*", r"asm_common_interrupt",
        r"common_interrupt", r"__sysvec_.*", r"irq_.*", r"handle_.*irq.*",
        r"__handle_irq.*", r"tick_.*", r"timekeeping_.*", r"update_.*",
        r"hrtimer_.*", r"__hrtimer_.*", r"scheduler_tick", r"sched_tick",
        r"__schedule", r"schedule", r"preempt_schedule.*",
        r"raw_notifier.*", r"run_.*timer.*", r"__run_timers.*",
        r"account_.*", r"calc_.*", r"irqentry_.*", r"native_.*",
        r"apic_.*", r"lapic_.*", r"x2apic_.*", r"error_entry",
        r"error_return", r"restore_regs_and_return_to_kernel",
        r"swapgs_restore_regs_and_return_to_usermode",
        r"__irq_exit_rcu", r"irq_exit_rcu", r"handle_softirqs",
        r"__do_softirq", r"do_softirq.*", r"rcu_.*", r"cond_resched.*",
        r"__cond_resched.*", r"ktime_.*", r"clockevents_.*", r"pit_.*",
        r"timer_.*", r"__timer_.*", r"trigger_load_balance",
        r"task_tick_.*", r"entity_tick", r"curr_.*", r"resched_.*",
    ]),
]
BUCKET_RES = [(b, re.compile("|".join("(?:%s)" % p for p in pats)))
              for b, pats in BUCKETS]
USER = "user space"
OTHER = "other kernel"
BUCKET_ORDER = [b for b, _ in BUCKETS] + [OTHER, USER]


def bucket(name):
    if name.startswith("[user"):
        return USER
    for b, r in BUCKET_RES:
        if r.fullmatch(name):
            return b
    return OTHER


class Symbols:
    """Addresses to the function they lie in, from System.map or nm -n."""

    def __init__(self, lines, what, lo=0, hi=1 << 64):
        syms = []
        for line in lines:
            f = line.split()
            if len(f) < 3 or f[1] not in "tTwW":
                continue
            try:
                a = int(f[0], 16)
            except ValueError:
                continue
            if lo <= a < hi:
                syms.append((a, f[2]))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]
        self.what = what

    def lookup(self, addr):
        """(name, address of the next symbol or None)"""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0:
            return "[%s ?]" % self.what, self.addrs[0] if self.addrs else None
        nxt = self.addrs[i + 1] if i + 1 < len(self.addrs) else None
        return self.names[i], nxt


def read_window(path):
    """[(start, end, n_insns, insns)] and the header's figures"""
    blocks, head = [], {}
    for line in open(path):
        if line.startswith("#"):
            f = line[1:].split()
            for k, v in zip(f[0::2], f[1::2]):
                head[k] = v
            continue
        s, e, n, c = line.split()
        blocks.append((int(s, 16), int(e, 16), int(n), int(c)))
    return blocks, head


def profile(blocks, ksyms, usyms):
    """({function: insns}, kernel insns, user insns, insns of blocks that run
    past the next symbol, [(insns, function, start, end)] of those)"""
    funcs, kern, user, cross = {}, 0, 0, []
    for s, e, n, c in blocks:
        if s >= KERNEL_START:
            name, nxt = ksyms.lookup(s)
            if ksyms.etext and s >= ksyms.etext:
                name, nxt = "[kernel, past _etext]", None
            kern += c
        elif s < USER_TOP:
            name, nxt = usyms.lookup(s) if usyms else ("[user]", None)
            if not name.startswith("["):
                name = "[user] " + name
            user += c
        else:
            name, nxt = "[kernel, other]", None
            kern += c
        if nxt is not None and e > nxt and not name.startswith("[user"):
            cross.append((c, name, s, e))
        funcs[name] = funcs.get(name, 0) + c
    return funcs, kern, user, cross


def bench_figure(bench, kernel, case):
    """The median -icount ns (instructions) per entry of harness/bench.sh's
    list_<case> on @kernel, and how many boots gave it."""
    if not bench:
        return None, 0
    v = []
    for f in glob.glob(os.path.join(bench, "%s-icount-[0-9]*.txt" % kernel)):
        for line in open(f):
            p = line.split()
            if len(p) >= 2 and p[0] == "list_" + case:
                v.append(float(p[1]))
    return (statistics.median(v), len(v)) if v else (None, 0)


def report(a):
    ksyms = Symbols(open(a.system_map), "kernel", lo=KERNEL_START)
    ksyms.etext = None
    for line in open(a.system_map):
        f = line.split()
        if len(f) == 3 and f[2] == "_etext":
            ksyms.etext = int(f[0], 16)
    usyms = Symbols(open(a.user_nm), "user", hi=USER_TOP) if a.user_nm else None
    cases = []
    for line in open(a.results, errors="replace"):
        m = re.match(r"PROFILE (\S+) window=(\d+) listings=(\d+) entries=(\d+)",
                     line)
        if m:
            cases.append((m.group(1), int(m.group(2)), int(m.group(3)),
                          int(m.group(4))))
    if not cases:
        sys.exit("profile_report: no PROFILE lines in %s" % a.results)
    os.makedirs(a.outdir, exist_ok=True)
    summary = []
    for case, win, listings, entries in cases:
        path = "%s.%d" % (a.windows, win)
        blocks, head = read_window(path)
        if "overflow" in head:
            sys.exit("profile_report: %s: the plugin's table overflowed" % path)
        funcs, kern, user, cross = profile(blocks, ksyms, usyms)
        total = kern + user
        if total != int(head.get("insns", total)):
            sys.exit("profile_report: %s: blocks do not add up" % path)
        per = {f: c / entries for f, c in funcs.items()}
        buckets = {}
        members = {}
        for f, v in per.items():
            b = bucket(f)
            buckets[b] = buckets.get(b, 0) + v
            members.setdefault(b, []).append((v, f))
        bfig, nboots = bench_figure(a.bench, a.kernel, case)
        out = []
        w = out.append
        w("%s kernel, %s: %d listings, %d entries (window %d of the boot)"
          % (a.kernel, case, listings, entries, win))
        w("")
        w("instructions per entry: %.1f (kernel %.1f, user %.1f)"
          % (total / entries, kern / entries, user / entries))
        if bfig is not None:
            w("harness/bench.sh's list_%s: %.1f (median of %d -icount boots); "
              "this profile / bench = %.3f"
              % (case, bfig, nboots, total / entries / bfig))
        crossed = sum(c for c, *_ in cross)
        w("blocks that run past the next symbol: %.2f%% of the instructions%s"
          % (100.0 * crossed / total if total else 0,
             "" if not cross else " (largest: %s)" % ", ".join(
                 "%s %x-%x" % (n, s, e) for _, n, s, e in
                 sorted(cross, reverse=True)[:3])))
        w("")
        w("%4s  %10s  %6s  %6s  %s" % ("rank", "insns/ent", "%", "cum%",
                                        "function [bucket]"))
        cum = 0.0
        top = sorted(per.items(), key=lambda x: -x[1])
        for i, (f, v) in enumerate(top[:a.top], 1):
            cum += v
            w("%4d  %10.2f  %6.2f  %6.2f  %s [%s]"
              % (i, v, 100 * v * entries / total, 100 * cum * entries / total,
                 f, bucket(f)))
        rest = sum(v for _, v in top[a.top:])
        w("      %10.2f  %6.2f          the other %d functions"
          % (rest, 100 * rest * entries / total, max(0, len(top) - a.top)))
        w("")
        w("by bucket (insns per entry; the functions in each, largest first):")
        for b in BUCKET_ORDER:
            if b not in buckets:
                continue
            ms = sorted(members[b], reverse=True)
            w("  %-24s %8.2f  %5.1f%%" % (b, buckets[b],
                                          100 * buckets[b] * entries / total))
            w("      " + ", ".join("%s %.1f" % (f, v) for v, f in ms
                                   if v >= 0.05))
        with open(os.path.join(a.outdir, "%s-%s.txt" % (a.kernel, case)),
                  "w") as f:
            f.write("\n".join(out) + "\n")
        summary.append({
            "kernel": a.kernel, "case": case, "listings": listings,
            "entries": entries, "total": total / entries,
            "kernel_insns": kern / entries, "user_insns": user / entries,
            "bench": bfig, "crossed": crossed / entries,
            "buckets": buckets,
            "top": [(f, v) for f, v in top[:10]],
        })
        print("%s %s: %.1f instructions per entry%s"
              % (a.kernel, case, total / entries,
                 "" if bfig is None else " (bench %.1f, ratio %.3f)"
                 % (bfig, total / entries / bfig)))
    with open(os.path.join(a.outdir, "%s.json" % a.kernel), "w") as f:
        json.dump(summary, f, indent=1)


def summary(a):
    rows = []
    for f in sorted(glob.glob(os.path.join(a.dir, "*.json"))):
        rows += json.load(open(f))
    if not rows:
        sys.exit("profile_report: no profiles in %s" % a.dir)
    out = []
    w = out.append
    w("Instructions per directory entry, by bucket (harness/profile.sh; "
      "the functions in each bucket: the per-case files).")
    w("")
    w("| kernel | case | total | bench (-icount) | ratio | "
      + " | ".join(BUCKET_ORDER) + " |")
    w("|---|---|---:|---:|---:|" + "---:|" * len(BUCKET_ORDER))
    for r in rows:
        w("| %s | %s | %.1f | %s | %s | " % (
            r["kernel"], r["case"], r["total"],
            "-" if r["bench"] is None else "%.1f" % r["bench"],
            "-" if r["bench"] is None else "%.3f" % (r["total"] / r["bench"]))
          + " | ".join("%.1f" % r["buckets"].get(b, 0) for b in BUCKET_ORDER)
          + " |")
    w("")
    for r in rows:
        w("%s %s, top functions: %s" % (
            r["kernel"], r["case"],
            ", ".join("%s %.1f" % (f, v) for f, v in r["top"])))
    with open(os.path.join(a.dir, "summary.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("report")
    r.add_argument("--kernel", required=True)
    r.add_argument("--system-map", required=True)
    r.add_argument("--results", required=True)
    r.add_argument("--windows", required=True)
    r.add_argument("--user-nm")
    r.add_argument("--bench")
    r.add_argument("--top", type=int, default=40)
    r.add_argument("--outdir", required=True)
    s = sub.add_parser("summary")
    s.add_argument("dir")
    a = p.parse_args()
    report(a) if a.cmd == "report" else summary(a)


if __name__ == "__main__":
    main()
