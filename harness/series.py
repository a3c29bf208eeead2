#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Move the statx series between this repository and a kernel git tree.

The repository holds the series in two forms that together make each commit:
  - patches/NNNN-*.patch: git format-patch output of each commit, with the
    diffs that *create* files left out (their names stay in the diffstat's
    "create mode" lines, which say which commit creates which file);
  - the created files themselves, at their kernel paths at the repository
    root, in their final state (none, for a file a later patch deletes: the
    deleting patch carries its last content).
patches/series lists the patches in order.  The top-level MAINTAINERS holds
the series' entry, copied from the tree's MAINTAINERS.

  series.py assemble   build branch 'series' in the tree from the repository
  series.py regen      write patches/ and the root files from the tree
  series.py verify     check the repository reassembles to the tree's commits
  series.py mbox FILE  write the series as complete patches, created files
                       included, as one mbox that git am takes ('-': stdout)
  series.py apply DIR  git am that mbox onto the current HEAD of the kernel
                       git tree DIR (a 7.3 tree of one's own)

Commits are made with plumbing in a private index, and the work tree is then
moved with 'git reset --hard', which rewrites only files whose content
changed, so kernel rebuilds after an assemble stay incremental.  mbox and
apply need neither the tree nor $STATX_CACHE: only git and this repository.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("STATX_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
    "statx-series")
TREE = os.path.join(CACHE, "tree")
PATCHES = os.path.join(REPO, "patches")
SERIES = os.path.join(PATCHES, "series")
BASE = "statx-base"
BRANCH = "series"
ASSEMBLED = "refs/statx/assembled"
MAINT_HEAD = "FILESYSTEMS (VFS and infrastructure)"


def base_hint():
    """Why a patch may not apply: the base is not the one the series was
    tested on (base.sh takes a newer upload when Debian dropped it)."""
    try:
        with open(os.path.join(TREE, ".git", "statx-base-version")) as f:
            pkg, ver = f.read().split()[:2]
        with open(os.path.join(REPO, "harness", "lib.sh")) as f:
            tested = re.search(r"^BASE_TESTED=(\S+)", f.read(), re.M).group(1)
    except (OSError, ValueError, AttributeError):
        return ""
    if ver == tested:
        return ""
    return ("\nThe base is %s %s, not %s, which the series was tested on and"
            " which Debian's archive no longer has.  Rebase the series onto"
            " the new base (make assemble on the old tree, git rebase, make"
            " regen) and set BASE_TESTED in harness/lib.sh to %s.\n"
            % (pkg, ver, tested, ver))


def die(msg):
    sys.stderr.write("error: %s\n" % msg)
    sys.exit(1)


def git(*args, inp=None, env=None, check=True, binary=False):
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.run(["git", "-C", TREE, "-c", "gc.auto=0"] + list(args),
                       input=inp, capture_output=True, env=e)
    if check and p.returncode:
        die("git %s: %s" % (" ".join(args), p.stderr.decode(errors="replace")))
    return p.stdout if binary else p.stdout.decode()


def read_series():
    names = []
    if not os.path.exists(SERIES):
        return names
    with open(SERIES) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    return names


def split_patch(text):
    """Return (header, stat, [(path, block)]) of a format-patch file."""
    m = re.search(r"^diff --git ", text, re.M)
    head = text if not m else text[:m.start()]
    body = "" if not m else text[m.start():]
    blocks = []
    for b in re.split(r"(?m)^(?=diff --git )", body):
        if not b:
            continue
        path = re.match(r"diff --git a/(\S+) b/(\S+)", b).group(2)
        blocks.append((path, b))
    return head, blocks


def created_files(head):
    """Files (path, mode) a patch's commit creates, from its diffstat."""
    return [(p, mode) for mode, p in
            re.findall(r"^ create mode (\d+) (\S+)$", head, re.M)]


def load():
    patches = []
    for n in read_series():
        path = os.path.join(PATCHES, n)
        if not os.path.exists(path):
            die("patches/series names %s, which does not exist" % n)
        with open(path) as f:
            text = f.read()
        head, blocks = split_patch(text)
        patches.append({"name": n, "text": text, "head": head,
                        "blocks": blocks, "creates": created_files(head)})
    return patches


def contents_at_creation(patches):
    """Content of each created file in the commit that creates it: the root
    file with every later patch's hunks for it reverse-applied.  A file that
    a later patch deletes is not at the root: reverse-applying the deletion
    brings it back as it was then."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, p in enumerate(patches):
            for path, mode in p["creates"]:
                src = os.path.join(REPO, path)
                dst = os.path.join(tmp, path)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if os.path.exists(src):
                    shutil.copyfile(src, dst)
                elif not any(bpath == path and
                             re.search(r"^deleted file mode", block, re.M)
                             for later in patches[i + 1:]
                             for bpath, block in later["blocks"]):
                    die("%s creates %s, missing at the repository root"
                        % (p["name"], path))
                for later in reversed(patches[i + 1:]):
                    for bpath, block in later["blocks"]:
                        if bpath != path:
                            continue
                        r = subprocess.run(["git", "apply", "-R", "-"],
                                           cwd=tmp, input=block.encode(),
                                           capture_output=True)
                        if r.returncode:
                            die("cannot unwind %s of %s to its state in %s:"
                                " %s" % (later["name"], path, p["name"],
                                         r.stderr.decode()))
                with open(dst, "rb") as f:
                    out[path] = (mode, f.read())
                os.unlink(dst)
    return out


def complete_patches(patches):
    """Each patch's text with the diffs that create files put back, as git
    format-patch writes them (in path order, binary as git's binary patch),
    from the files' contents at creation."""
    created = contents_at_creation(patches)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_DIR=os.path.join(tmp, "git"),
                   GIT_INDEX_FILE=os.path.join(tmp, "index"))
        env.pop("GIT_WORK_TREE", None)
        cfg = ["-c", "core.abbrev=12", "-c", "diff.noprefix=false",
               "-c", "diff.mnemonicPrefix=false"]

        def tgit(*args, inp=None):
            p = subprocess.run(["git"] + cfg + list(args), input=inp,
                               capture_output=True, env=env)
            if p.returncode:
                die("git %s: %s" % (" ".join(args),
                                    p.stderr.decode(errors="replace")))
            return p.stdout

        tgit("init", "-q", "--bare", env["GIT_DIR"])
        for p in patches:
            if not p["creates"]:
                out.append(p["text"])
                continue
            if os.path.exists(env["GIT_INDEX_FILE"]):
                os.unlink(env["GIT_INDEX_FILE"])
            for path, mode in p["creates"]:
                sha = tgit("hash-object", "-w", "--stdin",
                           inp=created[path][1]).decode().strip()
                tgit("update-index", "--add", "--cacheinfo",
                     "%s,%s,%s" % (mode, sha, path))
            tree = tgit("write-tree").decode().strip()
            diff = tgit("diff-tree", "-p", "--binary", "--no-renames",
                        "--no-ext-diff", "--no-textconv",
                        "--src-prefix=a/", "--dst-prefix=b/",
                        "4b825dc642cb6eb9a060e54bf8d69288fbee4904", tree)
            _, new = split_patch(diff.decode(errors="surrogateescape"))
            blocks = sorted(p["blocks"] + new,
                            key=lambda b: b[0].encode(errors="surrogateescape"))
            out.append(p["head"] + "".join(b for _, b in blocks))
    return out


def build_commits(patches):
    """Make one commit per patch on top of the base; return the tip."""
    created = contents_at_creation(patches)
    parent = git("rev-parse", BASE + "^{commit}").strip()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"GIT_INDEX_FILE": os.path.join(tmp, "index")}
        git("read-tree", parent, env=env)
        for p in patches:
            diff = "".join(b for _, b in p["blocks"])
            if diff:
                r = subprocess.run(
                    ["git", "-C", TREE, "apply", "--cached", "-"],
                    input=diff.encode(), capture_output=True,
                    env=dict(os.environ, **env))
                if r.returncode:
                    die("patch %s does not apply:\n%s%s"
                        % (p["name"], r.stderr.decode(), base_hint()))
            for path, mode in p["creates"]:
                sha = git("hash-object", "-w", "--stdin",
                          inp=created[path][1]).strip()
                git("update-index", "--add", "--cacheinfo",
                    "%s,%s,%s" % (mode, sha, path), env=env)
            tree = git("write-tree", env=env).strip()
            info = subprocess.run(
                ["git", "mailinfo", os.path.join(tmp, "msg"),
                 os.path.join(tmp, "patch")],
                input=p["text"].encode(), capture_output=True, check=True)
            hdr = dict(l.split(": ", 1) for l in
                       info.stdout.decode().splitlines() if ": " in l)
            with open(os.path.join(tmp, "msg")) as f:
                msg = hdr["Subject"] + "\n\n" + f.read()
            cenv = {"GIT_AUTHOR_NAME": hdr["Author"],
                    "GIT_AUTHOR_EMAIL": hdr["Email"],
                    "GIT_AUTHOR_DATE": hdr["Date"],
                    "GIT_COMMITTER_NAME": hdr["Author"],
                    "GIT_COMMITTER_EMAIL": hdr["Email"],
                    "GIT_COMMITTER_DATE": hdr["Date"]}
            parent = git("commit-tree", tree, "-p", parent, inp=msg.encode(),
                         env=cenv).strip()
    return parent


def assemble():
    force = "--force" in sys.argv
    tip = build_commits(load())
    head = git("rev-parse", "HEAD").strip()
    last = git("rev-parse", "-q", "--verify", ASSEMBLED, check=False).strip()
    branch = git("symbolic-ref", "-q", "--short", "HEAD", check=False).strip()
    dirty = git("status", "--porcelain", "--untracked-files=no").strip()
    if not force and (dirty or (last and head != last)
                      or (not last and head != git("rev-parse", BASE).strip())):
        die("%s has work that is not in the repository (uncommitted changes,"
            " or commits made after the last assemble): run 'make regen' to"
            " keep it, or 'make assemble FORCE=1' to drop it" % TREE)
    if branch != BRANCH:
        git("checkout", "-q", "-B", BRANCH, head)
    git("update-ref", "refs/heads/" + BRANCH, tip)
    git("reset", "-q", "--hard", tip)
    git("update-ref", ASSEMBLED, tip)
    n = len(read_series())
    print("assembled %d patches: %s %s" % (n, TREE, tip[:12]))


def maintainers_entry(text):
    m = re.search(r"(?ms)^%s\n.*?(?=^\n)" % re.escape(MAINT_HEAD), text)
    return m.group(0) if m else None


def regen():
    if git("status", "--porcelain", "--untracked-files=no").strip():
        die("%s has uncommitted changes; commit them first" % TREE)
    base = git("rev-parse", BASE).strip()
    commits = git("rev-list", "--reverse", "%s..HEAD" % base).split()
    old_created = set()
    if os.path.exists(SERIES):
        for p in load():
            old_created |= {c for c, _ in p["creates"]}
        for n in read_series():
            os.unlink(os.path.join(PATCHES, n))
    names, new_created = [], set()
    for i, c in enumerate(commits, 1):
        text = git("format-patch", "-1", "--stdout", "--zero-commit",
                   "--no-signature", "--start-number", str(i), "-N", c)
        head, blocks = split_patch(text)
        creates = {p for p, _ in created_files(head)}
        in_base = set(git("ls-tree", "-r", "--name-only", base, "--",
                          *creates).split()) if creates else set()
        if in_base:
            die("%s re-creates base files %s" % (c[:12], in_base))
        new_created |= creates
        text = head + "".join(b for p, b in blocks if p not in creates)
        subj = git("log", "-1", "--format=%s", c)
        slug = re.sub(r"[^A-Za-z0-9]+", "-", subj).strip("-")[:52].rstrip("-")
        name = "%04d-%s.patch" % (i, slug)
        with open(os.path.join(PATCHES, name), "w") as f:
            f.write(text)
        names.append(name)
    for path in sorted(new_created):
        dst = os.path.join(REPO, path)
        entry = git("ls-tree", "HEAD", "--", path).split()
        if not entry:
            # Deleted by a later patch, which carries its last content.
            if os.path.exists(dst):
                os.unlink(dst)
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        data = git("show", "HEAD:" + path, binary=True)
        with open(dst, "wb") as f:
            f.write(data)
        os.chmod(dst, 0o755 if entry[0] == "100755" else 0o644)
    for path in sorted(old_created - new_created):
        if os.path.exists(os.path.join(REPO, path)):
            os.unlink(os.path.join(REPO, path))
    with open(SERIES, "w") as f:
        f.write("# The statx series, in order; see README.md.\n")
        f.write("".join(n + "\n" for n in names))
    entry = maintainers_entry(git("show", "HEAD:MAINTAINERS"))
    if entry:
        with open(os.path.join(REPO, "MAINTAINERS"), "w") as f:
            f.write(entry + "\n")
    git("update-ref", ASSEMBLED, "HEAD")
    print("regenerated %d patches, %d created files from %s"
          % (len(names), len(new_created), TREE))
    verify()


def verify():
    tip = build_commits(load())
    head = git("rev-parse", "refs/heads/" + BRANCH).strip()
    a = git("rev-list", "--reverse", "--format=%T", "%s..%s" % (BASE, tip))
    b = git("rev-list", "--reverse", "--format=%T", "%s..%s" % (BASE, head))
    trees = lambda s: [l for l in s.splitlines() if not l.startswith("commit")]
    if trees(a) != trees(b):
        die("the repository does not reassemble to branch %s of %s"
            " (run make regen, or make assemble)" % (BRANCH, TREE))
    entry = maintainers_entry(git("show", "%s:MAINTAINERS" % tip))
    root = os.path.join(REPO, "MAINTAINERS")
    if entry and (not os.path.exists(root) or open(root).read() != entry + "\n"):
        die("MAINTAINERS at the root differs from the series' entry")
    print("series verified: %d commits reassemble identically" % len(trees(a)))


def write_mbox(f, patches):
    for text in complete_patches(patches):
        f.write(text.encode(errors="surrogateescape"))


def mbox():
    if len(sys.argv) != 3:
        die("usage: series.py mbox FILE ('-': standard output)")
    patches = load()
    if sys.argv[2] == "-":
        write_mbox(sys.stdout.buffer, patches)
        return
    with open(sys.argv[2], "wb") as f:
        write_mbox(f, patches)
    sys.stderr.write("wrote %d patches to %s\n" % (len(patches), sys.argv[2]))


def apply():
    """git am the series onto the current HEAD of a kernel git tree of the
    user's own: its work tree clean, no am or rebase under way.  If a patch
    does not apply, say which, abort the am (the tree is left as it was) and
    fail."""
    if len(sys.argv) != 3:
        die("usage: series.py apply DIR (make apply TREE=DIR)")
    where = os.path.expanduser(sys.argv[2])

    def g(*args):
        return subprocess.run(["git", "-C", where] + list(args),
                              capture_output=True, text=True)

    r = g("rev-parse", "--show-toplevel")
    if r.returncode:
        die("%s is not a git work tree: %s" % (where, r.stderr.strip()))
    where = r.stdout.strip()
    if not os.path.exists(os.path.join(where, "fs", "stat.c")):
        die("%s is not a Linux kernel tree (no fs/stat.c)" % where)
    head = g("rev-parse", "-q", "--verify", "HEAD^{commit}").stdout.strip()
    if not head:
        die("%s has no commit to apply the series onto" % where)
    for d in ("rebase-apply", "rebase-merge"):
        path = g("rev-parse", "--git-path", d).stdout.strip()
        if os.path.exists(os.path.join(where, path)):
            die("%s has a git am or rebase under way (%s): finish or abort"
                " it first" % (where, path))
    r = g("status", "--porcelain", "--untracked-files=no")
    if r.returncode or r.stdout.strip():
        die("%s has uncommitted changes; commit or stash them first:\n%s"
            % (where, r.stdout or r.stderr))
    r = g("var", "GIT_COMMITTER_IDENT")
    if r.returncode:
        die("git am in %s needs a committer: set user.name and user.email"
            " (git config)\n%s" % (where, r.stderr.strip()))
    patches = load()
    with tempfile.TemporaryDirectory() as tmp:
        mb = os.path.join(tmp, "statx.mbox")
        with open(mb, "wb") as f:
            write_mbox(f, patches)
        r = g("am", "-q", mb)
        if r.returncode:
            done = g("rev-list", "--count", "%s..HEAD" % head).stdout.strip()
            n = int(done) if done.isdigit() else 0
            failed = patches[n]["name"] if n < len(patches) else "?"
            msg = "\n".join(l for l in (r.stdout + r.stderr).splitlines()
                            if l.startswith(("error:", "Patch failed")))
            g("am", "--abort")
            now = g("rev-parse", "HEAD").stdout.strip()
            left = ("the tree is left as it was (git am --abort)"
                    if now == head else
                    "git am --abort left HEAD at %s, not %s" % (now, head))
            subj = re.search(r"^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)",
                             patches[0]["head"], re.M)
            subj = subj.group(1).replace("\n ", " ") if subj else None
            hint = ""
            if subj and subj in g("log", "-n", "1000", "--format=%s",
                                  head).stdout.splitlines():
                hint = ("  HEAD already has the series' first commit (%s):"
                        " is the series applied already?" % subj)
            die("patch %d of %d, %s, does not apply to %s (HEAD %s): that is"
                " not a base of the series (Linux 7.3 as Debian's"
                " linux-source-7.3 carries it); %s.%s\n%s"
                % (n + 1, len(patches), failed, where, head[:12], left, hint,
                   msg))
    tip = g("rev-parse", "HEAD").stdout.strip()
    print("applied %d patches onto %s in %s: HEAD is %s"
          " ('git -C %s reset --hard %s' undoes it)"
          % (len(patches), head[:12], where, tip[:12], where, head[:12]))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    {"assemble": assemble, "regen": regen, "verify": verify,
     "mbox": mbox, "apply": apply}.get(
        cmd, lambda: die("usage: series.py assemble|regen|verify|mbox FILE"
                         "|apply DIR"))()
