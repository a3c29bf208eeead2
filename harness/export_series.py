#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""export_series.py TREE BASE BRANCH GROUPS COVERS OUTDIR [--am WORKTREE]

Write the series as the small series it is posted as (GROUPS: one line
per series, "name<TAB>subject of its first patch", in order), each in
OUTDIR/NN-name/: git format-patch output with its cover letter (COVERS/name:
subject line, then the text, followed by the list of series it applies
after), base-commit and prerequisite-patch-id trailers for the series
before it, and To:/Cc: from scripts/get_maintainer.pl run on its patches
in TREE: each patch To its maintainers and Cc their reviewers and lists,
the cover letter to all of them, and Cc linux-api where a series changes
the uapi or the system call tables.

With --am: apply the series in order with git am in WORKTREE, from a
clean BASE, and check after each that the tree is the one the series
leaves in BRANCH.
"""
import os
import re
import subprocess
import sys
import textwrap


def base_package(tree):
    """(package, version) of the base, as base.sh recorded it."""
    with open(os.path.join(tree, ".git", "statx-base-version")) as f:
        pkg, ver = f.read().split()[:2]
    return pkg, ver


def base_release(tree):
    """The base's kernel release, from its Makefile (7.3-rc7)."""
    v = {}
    out = subprocess.run(["git", "-C", tree, "show", "statx-base:Makefile"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines()[:8]:
        m = re.match(r"(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION) = ?(.*)", line)
        if m:
            v[m.group(1)] = m.group(2).strip()
    rel = "%s.%s" % (v.get("VERSION"), v.get("PATCHLEVEL"))
    return rel + v.get("EXTRAVERSION", "")


def run(*args, cwd=None, check=True):
    p = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True)
    if check and p.returncode:
        sys.exit("error: %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def groups_of(tree, base, branch, path):
    commits = run("git", "-C", tree, "rev-list", "--reverse",
                  "%s..%s" % (base, branch)).split()
    subjects = [run("git", "-C", tree, "log", "-1", "--format=%s", c).strip()
                for c in commits]
    groups = []
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        name, subject = line.rstrip("\n").split("\t", 1)
        if subject not in subjects:
            sys.exit("error: %s: no patch has the subject %r" % (path, subject))
        groups.append((name, subjects.index(subject)))
    if not groups or groups[0][1] != 0:
        sys.exit("error: %s: the first series must start at the first patch" % path)
    out = []
    for i, (name, first) in enumerate(groups):
        last = groups[i + 1][1] - 1 if i + 1 < len(groups) else len(commits) - 1
        if last < first:
            sys.exit("error: %s: series %s is empty or out of order" % (path, name))
        out.append((name, first, last))
    return commits, out


def recipients(tree, patches):
    """To: the maintainers get_maintainer.pl names for @patches (M: lines,
    whatever the entry's S: says); Cc: its reviewers and lists."""
    to, cc = [], []
    text = run("perl", "scripts/get_maintainer.pl", "--no-git",
               "--no-git-fallback", *patches, cwd=tree)
    for line in text.splitlines():
        m = re.match(r"(.*?) \((.*)\)$", line.strip())
        who, role = (m.group(1), m.group(2)) if m else (line.strip(), "")
        if not who:
            continue
        dest = to if role.startswith(("maintainer", "supporter",
                                      "odd fixer")) else cc
        if who not in dest:
            dest.append(who)
    return to, cc


def fold(name, addrs):
    return "%s: %s\n" % (name, ",\n ".join(addrs)) if addrs else ""


def add_headers(path, to, cc):
    """Insert To: and Cc: at the end of the mail headers of @path."""
    text = open(path).read()
    head, sep, body = text.partition("\n\n")
    extra = (fold("To", to) + fold("Cc", cc)).rstrip("\n")
    if extra:
        head += "\n" + extra
    open(path, "w").write(head + sep + body)


def touches_abi(tree, commits):
    for c in commits:
        files = run("git", "-C", tree, "diff-tree", "-r", "--no-commit-id",
                    "--name-only", c).split()
        if any(f.startswith(("include/uapi/", "arch/x86/entry/syscalls/",
                             "scripts/syscall.tbl")) for f in files):
            return True
    return False


def export(tree, base, branch, groups_path, covers, outdir):
    commits, groups = groups_of(tree, base, branch, groups_path)
    os.makedirs(outdir, exist_ok=True)
    for k, (name, first, last) in enumerate(groups, 1):
        d = os.path.join(outdir, "%02d-%s" % (k, name))
        prev = commits[first - 1] if first else base
        rng = "%s..%s" % (prev, commits[last])
        run("git", "-C", tree, "format-patch", "-q", "--cover-letter",
            "--zero-commit", "--base=%s" % base, "-o", d, rng)
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        abi = touches_abi(tree, commits[first:last + 1])
        # Each patch to its own maintainers; the cover letter to them all.
        all_to, all_cc = [], []
        for f in files[1:]:
            to, cc = recipients(tree, [f])
            add_headers(f, to, cc)
            all_to += [a for a in to if a not in all_to]
            all_cc += [a for a in cc if a not in all_cc]
        if abi and "linux-api@vger.kernel.org" not in all_cc:
            all_cc.append("linux-api@vger.kernel.org")
        cover = [f for f in os.listdir(d) if f.startswith("0000-")][0]
        cover = os.path.join(d, cover)
        subject, _, body = open(os.path.join(covers, name)).read().partition("\n")
        # "Cc: address" lines first in the text: more recipients of the
        # cover letter, for whom no file of the series names them.
        lines = body.split("\n")
        while lines and lines[0].startswith("Cc: "):
            extra = lines.pop(0)[4:].strip()
            if extra not in all_cc:
                all_cc.append(extra)
        body = "\n".join(lines)
        after = [n for n, _, _ in groups[:k - 1]]
        body = body.strip("\n") + "\n\n"
        tail = ("This is series %d of %d.  It applies to Linux %s as"
                " Debian's %s %s carries it (mainline with Debian's"
                " patches; the base-commit below is that tree as imported,"
                " not a mainline commit)"
                % (k, len(groups), base_release(tree), *base_package(tree)))
        tail += (" after the series %s, in that order; the"
                 " prerequisite-patch-id lines list their patches."
                 % ", ".join(after) if after else ".")
        body += textwrap.fill(tail, 72) + "\n"
        text = open(cover).read()
        text = text.replace("*** SUBJECT HERE ***", subject.strip())
        text = text.replace("*** BLURB HERE ***", body.strip("\n"))
        if "***" in text:
            sys.exit("error: %s: placeholders left" % cover)
        open(cover, "w").write(text)
        add_headers(cover, all_to, [a for a in all_cc if a not in all_to])
        to, cc = all_to, all_cc
        print("%02d-%-20s %3d patches  To: %s" % (k, name, last - first + 1,
                                                   ", ".join(to) or "-"))
        print("%25s Cc: %s" % ("", ", ".join(cc) or "-"))


def am(tree, base, branch, groups_path, outdir, wt):
    commits, groups = groups_of(tree, base, branch, groups_path)
    git = lambda *a, check=True: run("git", "-C", wt, "-c", "user.name=am",
                                     "-c", "user.email=am@localhost", *a,
                                     check=check)
    git("am", "--abort", check=False)
    git("checkout", "-q", "-f", "--detach", base)
    for k, (name, first, last) in enumerate(groups, 1):
        d = os.path.join(outdir, "%02d-%s" % (k, name))
        patches = sorted(os.path.join(d, f) for f in os.listdir(d)
                         if f.endswith(".patch") and not f.startswith("0000-"))
        git("am", "-q", *patches)
        want = run("git", "-C", tree, "rev-parse", commits[last] + "^{tree}").strip()
        got = git("rev-parse", "HEAD^{tree}").strip()
        if want != got:
            sys.exit("error: series %s: git am gives tree %s, the series has %s"
                     % (name, got, want))
        print("git am %02d-%s (%d patches) after the series before it: tree matches"
              % (k, name, len(patches)))


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 8 and a[6] == "--am":
        am(a[0], a[1], a[2], a[3], a[5], a[7])
    elif len(a) == 6:
        export(*a)
    else:
        sys.exit(__doc__)
