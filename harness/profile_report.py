#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile_report.py: the instruction profile of harness/profile.sh, by
function, per directory entry listed.

    profile_report.py report --kernel NAME --system-map MAP --results LOG
        --windows PREFIX [--user-nm FILE] [--bench DIR] [--top N]
        [--detail FUNCTION]... --outdir DIR
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
goes where), and with --detail each block of FUNCTION (offsets from its
symbol, to read against objdump -d vmlinux: where a function has others
inlined into it).  DIR/NAME.json keeps the figures for the summary.

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

# The buckets.  A case's functions go to them in two steps.  First, the
# directory iteration is what getdents64() alone pays on the same
# filesystem (the case getdents_<fs> of the same boot, the baseline): in
# that case every kernel function but the system call's entry and exit and
# the interrupts is iteration; in the other cases each function gives
# iteration what the baseline spends in it per entry, at most what it spends
# itself (so dput, the slab or memchr, which iteration and lookup both call,
# are split between them).  Then what is left of each function goes to the
# bucket of the first pattern below that matches its whole name, or to
# "other kernel".  These are the names of the kernel this series builds
# (tinyconfig, -Os: many helpers are inlined into their callers, whose
# bucket their instructions take).
ITERATION = "directory iteration"
BUCKETS = [
    ("syscall entry/exit", [
        r"entry_SYSCALL_64.*", r"entry_SYSRETQ.*", r"do_syscall_64",
        r"x64_sys_call", r"syscall_exit_to_user_mode.*",
        r"syscall_return_via_sysret", r"syscall_trace_enter",
        r"exit_to_user_mode.*", r"arch_exit_to_user_mode.*",
        r"syscall_enter_from_user_mode.*", r"fpregs_.*",
        r"switch_fpu_return",
        # lseek(), once per listing
        r"__x64_sys_lseek", r"ksys_lseek", r"vfs_llseek",
        r"generic_file_llseek.*", r"dcache_dir_lseek", r"offset_dir_llseek",
        r"ext4_dir_llseek", r"ext4_llseek",
    ]),
    ("scheduler, interrupts", [
        r"asm_sysvec_.*", r"sysvec_.*", r"asm_common_interrupt",
        r"common_interrupt", r"__sysvec_.*", r"irq_.*", r"handle_.*irq.*",
        r"__handle_irq.*", r"tick_.*", r"timekeeping_.*", r"__timekeeping_.*",
        r"update_.*", r"__update_.*", r"hrtimer_.*", r"__hrtimer_.*",
        r"scheduler_tick", r"sched_tick", r"__schedule", r"schedule",
        r"preempt_schedule.*", r"raw_notifier.*", r"run_.*timer.*",
        r"__run_timers.*", r"account_.*", r"calc_.*", r"irqentry_.*",
        r"native_.*", r"apic_.*", r"lapic_.*", r"x2apic_.*", r"error_entry",
        r"error_return", r"restore_regs_and_return_to_kernel",
        r"swapgs_restore_regs_and_return_to_usermode", r"__irq_exit_rcu",
        r"irq_exit_rcu", r"handle_softirqs", r"__do_softirq",
        r"do_softirq.*", r"rcu_.*", r"cond_resched.*", r"__cond_resched.*",
        r"clockevents_.*", r"pit_.*", r"timer_.*", r"__timer_.*",
        r"trigger_load_balance", r"task_tick_.*", r"entity_tick", r"curr_.*",
        r"resched_.*", r"decay_load", r"do_timer", r"jiffies_.*",
        r"ktime_get_update_offsets.*", r"ntp_.*", r"second_overflow",
        r"i8259_.*", r"mask_and_ack_8259A", r"unmask_8259A.*",
        r"ack_APIC_irq", r"timer_interrupt", r"process_timeout",
        r"psi_.*", r"sched_.*", r"pick_.*", r"put_prev_.*", r"set_next_.*",
        r"enqueue_.*", r"dequeue_.*", r"check_preempt.*", r"wakeup_.*",
        r"try_to_wake_up", r"wake_up_.*", r"__wake_up.*",
    ]),
    ("directory iteration", [
        # getdents64() and statx_dir()'s own reading of the directory
        r"__x64_sys_getdents64", r"__do_sys_getdents64", r"iterate_dir",
        r"filldir64", r"verify_dirent_name", r"statx_dir_actor",
        r"dcache_readdir", r"scan_positives", r"offset_readdir",
        r"offset_iterate_dir", r"offset_dir_emit", r"find_positive_dentry",
        r"simple_positive", r"offset_find_next", r"simple_offset.*",
        r"mas_.*", r"mtree_.*", r"mt_find.*", r"ma_.*", r"mab_.*", r"mte_.*",
        r"fs_ftype_to_dtype", r"fs_umode_to_dtype", r"signal_pending",
        r"task_sigpending",
        r"dir_emit.*", r"dir_relax.*", r"memchr",
        r"ext4_readdir", r"ext4_dx_readdir", r"call_filldir",
        r"ext4_htree_.*", r"htree_dirblock_to_tree", r"free_rb_tree_fname",
        r"ext4fs_dirhash", r"__ext4fs_dirhash", r"str2hashbuf.*", r"dx_.*",
        r"ext4_dir_.*", r"ext4_check_dir_entry", r"__ext4_check_dir_entry",
        r"ext4_rec_len_from_disk", r"ext4_next_entry", r"get_dtype.*",
        r"in_32bit_syscall", r"ext4_bread.*", r"ext4_getblk",
        r"ext4_map_blocks", r"ext4_es_lookup_extent", r"rb_.*", r"__rb_.*",
        r"__ext4_read_dirblock", r"ext4_read_dirblock",
        r"inode_query_iversion", r"touch_atime", r"atime_needs_update",
        r"relatime_need_update", r"file_accessed", r"fsnotify.*",
        r"__fsnotify.*", r"security_file_permission", r"rw_verify_area",
        r"fdget_pos", r"__fdget_pos", r"fdput_pos", r"__f_unlock_pos",
        r"down_read_killable", r"down_read", r"up_read", r"__down_read.*",
        r"__up_read.*", r"mutex_lock", r"mutex_unlock", r"__mutex_.*",
        r"__brelse", r"brelse", r"__find_get_block.*", r"find_get_block.*",
        r"bdev_getblk", r"bh_.*", r"touch_buffer", r"ext4_buffer_uptodate",
        r"folio_.*", r"__folio_.*", r"xas_.*", r"xa_.*", r"filemap_.*",
        r"__filemap_.*",
    ]),
    ("name lookup", [
        # statx_dir's lookup of each name in the directory; statx()'s
        # path walk from the directory descriptor
        r"lookup_one.*", r"lookup_noperm.*", r"try_lookup_.*",
        r"lookup_fast", r"lookup_dcache", r"lookup_slow", r"__lookup_slow",
        r"d_hash.*", r"__d_lookup.*", r"d_lookup", r"d_revalidate",
        r"dput", r"fast_dput", r"retain_dentry", r"dget.*", r"d_same_name",
        r"dentry_string_cmp", r"inode_permission", r"generic_permission",
        r"may_lookup", r"acl_permission_check", r"full_name_hash",
        r"hashlen_string", r"load_unaligned_zeropad", r"link_path_walk.*",
        r"walk_component", r"step_into.*", r"handle_dots.*", r"path_init",
        r"path_lookupat.*", r"filename_lookup", r"complete_walk",
        r"terminate_walk", r"try_to_unlazy.*", r"legitimize_.*",
        r"__legitimize_.*", r"leave_rcu", r"nd_jump_root", r"set_root",
        r"set_nameidata", r"restore_nameidata", r"path_put", r"path_get",
        r"mntget", r"mntput.*", r"mnt_inc_count", r"mnt_dec_count",
        r"follow_down.*", r"follow_dotdot.*", r"choose_mountpoint.*",
        r"__lookup_mnt", r"lookup_mnt", r"traverse_mounts",
        r"__traverse_mounts", r"fdget_raw", r"__fget_light", r"__fget_files", r"fget.*", r"fput",
        r"lockref_.*", r"__d_rcu.*", r"__rcu_read_lock", r"__rcu_read_unlock",
        r"vfs_path_lookup", r"user_path_at.*", r"filename_.*",
        r"security_inode_permission", r"in_group_p", r"groups_search",
        r"capable.*", r"ns_capable.*", r"security_capable", r"cap_capable",
        r"ext4_lookup", r"__ext4_find_entry", r"ext4_find_entry",
        r"shmem_lookup", r"simple_lookup", r"offset_dir_lookup",
    ]),
    ("name lookup: the name's copy-in", [
        # statx()'s getname(): a names_cache object from the slab, the
        # path copied from user memory, putname()
        r"getname.*", r"__getname.*", r"do_getname.*", r"putname",
        r"strncpy_from_user", r"do_strncpy_from_user",
        r"kmem_cache_alloc.*", r"kmem_cache_free", r"__kmem_cache_.*",
        r"slab_.*", r"__slab_.*", r"___slab_alloc", r"alloc_from_pcs.*",
        r"free_to_pcs.*", r"free_to_partial_list.*", r"virt_to_slab",
        r"page_slab", r"trace_kmem_cache_.*", r"next_slab_obj",
        r"build_slab_freelist", r"new_slab", r"alloc_slab_page",
    ]),
    ("attributes", [
        # ->getattr and what statx() and statx_dir() ask of the inode
        r"vfs_statx", r"vfs_statx_path", r"vfs_getattr.*",
        r"shmem_getattr", r"ext4_getattr", r"ext4_file_getattr",
        r"generic_fillattr", r"security_inode_getattr", r"fill_mg_cmtime",
        r"inode_get_.*", r"statx_dir_getattr", r"generic_fill_statx_.*",
        r"ktime_get.*", r"current_time", r"i_uid_into_vfsuid",
        r"i_gid_into_vfsgid", r"make_vfsuid", r"make_vfsgid",
        r"ext4_has_inline_data", r"ext4_get_projid", r"ext4_inode_.*",
        r"i_size_read", r"stat_.*",
    ]),
    ("the record", [
        # struct statx to the caller: statx()'s cp_statx(), statx_dir's
        # record
        r"statx_dir_put", r"cp_statx", r"statx_from_kstat",
        r"copy_to_user", r"_copy_to_user", r"copy_struct_to_user",
        r"copy_user_.*", r"rep_movs_alternative", r"rep_stos_alternative",
        r"clear_user", r"__clear_user", r"memset", r"__memset",
        r"memcpy", r"__memcpy", r"memcpy_orig", r"memset_orig",
        r"__access_ok", r"statx_size_mask",
    ]),
    ("statx()'s and statx_dir()'s own code", [
        # the system calls' bodies: flag checks, struct kstat zeroed on
        # the stack (do_statx: rep stos, one instruction per 4 bytes), the
        # loop over the names, and whatever -Os inlined into them
        r"__x64_sys_statx", r"__do_sys_statx", r"do_statx",
        r"__x64_sys_statx_dir", r"__do_sys_statx_dir", r"vfs_statx_dir",
        r"__se_sys_statx.*",
    ]),
]
BUCKET_RES = [(b, re.compile("|".join("(?:%s)" % p for p in pats)))
              for b, pats in BUCKETS]
USER = "user space"
OTHER = "other kernel"
BUCKET_ORDER = [b for b, _ in BUCKETS] + [OTHER, USER]
# Never directory iteration, even in getdents64's own profile
NOT_ITERATION = ("syscall entry/exit", "scheduler, interrupts", USER)


def bucket(name):
    """The bucket of a function by its name alone"""
    if name.startswith("[user"):
        return USER
    for b, r in BUCKET_RES:
        if r.fullmatch(name):
            return b
    return OTHER


def buckets_of(per, baseline, is_baseline):
    """{bucket: insns per entry}, {bucket: [(insns per entry, function)]}
    for the functions' @per insns per entry, with the iteration of the
    @baseline case (getdents64 on the same filesystem) or, @is_baseline,
    as that case itself."""
    sums, members = {}, {}

    def add(b, f, v):
        if v <= 0:
            return
        sums[b] = sums.get(b, 0) + v
        m = members.setdefault(b, {})
        m[f] = m.get(f, 0) + v

    for f, v in per.items():
        b = bucket(f)
        it = 0
        if b not in NOT_ITERATION:
            if is_baseline:
                it = v
            elif baseline is not None:
                it = min(v, baseline.get(f, 0))
        add(ITERATION, f, it)
        add(b, f, v - it)
    return sums, {b: sorted(((v, f) for f, v in m.items()), reverse=True)
                  for b, m in members.items()}


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

    def name_at(self, addr):
        i = bisect.bisect_left(self.addrs, addr)
        return self.names[i] if i < len(self.addrs) and \
            self.addrs[i] == addr else "?"


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
    """({function: insns}, kernel insns, user insns, [(insns, function,
    start, end, next symbol)] of the blocks that run past the next symbol)"""
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
            cross.append((c, name, s, e, ksyms.name_at(nxt)))
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
    prof = {}
    for case, win, listings, entries in cases:
        path = "%s.%d" % (a.windows, win)
        blocks, head = read_window(path)
        if "overflow" in head:
            sys.exit("profile_report: %s: the plugin's table overflowed" % path)
        funcs, kern, user, cross = profile(blocks, ksyms, usyms)
        if kern + user != int(head.get("insns", kern + user)):
            sys.exit("profile_report: %s: blocks do not add up" % path)
        prof[case] = (blocks, funcs, kern, user, cross)
    summary = []
    for case, win, listings, entries in cases:
        blocks, funcs, kern, user, cross = prof[case]
        total = kern + user
        per = {f: c / entries for f, c in funcs.items()}
        fs = case.rsplit("_", 1)[-1]
        base_case = "getdents_" + fs
        is_base = case == base_case
        baseline = None
        if not is_base and base_case in prof:
            bn = [e for c, _, _, e in cases if c == base_case][0]
            baseline = {f: c / bn for f, c in prof[base_case][1].items()}
        buckets, members = buckets_of(per, baseline, is_base)
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
        crossed = sum(x[0] for x in cross)
        w("blocks that run past the next symbol: %.2f%% of the instructions%s"
          % (100.0 * crossed / total if total else 0,
             "" if not cross else " (the largest: %s)" % ", ".join(
                 "%s %x-%x into %s" % (n, st, e, nx) for _, n, st, e, nx in
                 sorted(cross, reverse=True)[:3])))
        w("")
        w("%4s  %10s  %6s  %6s  %s" % ("rank", "insns/ent", "%", "cum%",
                                        "function [bucket by name]"))
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
        if is_base:
            how = "this case is the baseline: all of its kernel functions " \
                "but entry/exit and interrupts are directory iteration"
        elif baseline is not None:
            how = "directory iteration: what %s spends per entry in each " \
                "function, at most what this case does" % base_case
        else:
            how = "no %s in this boot: buckets by name only" % base_case
        w("by bucket, insns per entry (%s); the functions in each, largest "
          "first:" % how)
        for b in BUCKET_ORDER:
            if b not in buckets:
                continue
            ms = members[b]
            w("  %-38s %8.2f  %5.1f%%" % (b, buckets[b],
                                          100 * buckets[b] * entries / total))
            w("      " + ", ".join("%s %.1f" % (f, v) for v, f in ms
                                   if v >= 0.05))
        for d in a.detail or []:
            bl = [(st, e, n, c) for st, e, n, c in blocks
                  if st >= KERNEL_START and ksyms.lookup(st)[0] == d]
            if not bl:
                continue
            base = ksyms.addrs[ksyms.names.index(d)]
            w("")
            w("%s's blocks (offset-end: instructions, runs per entry, "
              "instructions per entry):" % d)
            for st, e, n, c in sorted(bl):
                w("  +0x%x-0x%x: %d, %.3f, %.2f"
                  % (st - base, e - base, n, c / n / entries, c / entries))
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
    r.add_argument("--detail", action="append",
                   help="also list this function's blocks (repeatable)")
    r.add_argument("--outdir", required=True)
    s = sub.add_parser("summary")
    s.add_argument("dir")
    a = p.parse_args()
    report(a) if a.cmd == "report" else summary(a)


if __name__ == "__main__":
    main()
