#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The series as it is posted: From and Signed-off-by the poster.

  poster.py ident
      print the poster's identity, "Name <address>": POSTER_NAME and
      POSTER_EMAIL, else git config user.name and user.email.  Fail, saying
      why, when there is none or it is the repository's own identity.
  poster.py commits TREE BASE BRANCH [--unsigned]
      copy the commits BASE..BRANCH of TREE (no ref is moved) and print the
      copy's tip: the poster the author and committer of each, at the
      original author date, with the poster's Signed-off-by the last
      trailer.  With --unsigned, for checks only: authors and committers
      kept, no Signed-off-by at all.

The commits carry no Signed-off-by of their own: a sign-off certifies the
Developer's Certificate of Origin (Documentation/process/
submitting-patches.rst), which only a person can, and the repository's
identity is no person.  The poster, who reads what they send, signs.  A
Signed-off-by of the repository's identity still in a commit message is
dropped.
"""
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT_NAME = "Seed 0462fdd3 maintainers"
PROJECT_EMAIL = "maintainers@users.noreply.a-seed-0462fdd3.example"
SOB = "Signed-off-by"


def die(msg):
    sys.stderr.write("error: %s\n" % msg)
    sys.exit(1)


def git(*args, cwd=REPO, inp=None, env=None, check=True):
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.run(["git", "-C", cwd] + list(args), input=inp,
                       capture_output=True, text=True, env=e)
    if check and p.returncode:
        die("git %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def ident():
    """(name, email) of the poster, or fail saying why."""
    name = os.environ.get("POSTER_NAME", "").strip()
    email = os.environ.get("POSTER_EMAIL", "").strip()
    if bool(name) != bool(email):
        die("set both POSTER_NAME and POSTER_EMAIL (one of them is empty)")
    where = "POSTER_NAME and POSTER_EMAIL"
    if not name:
        name = git("config", "user.name", check=False).strip()
        email = git("config", "user.email", check=False).strip()
        where = "git config user.name and user.email"
    why = None
    if not name or not email:
        why = ("POSTER_NAME and POSTER_EMAIL are not set, nor are git config"
               " user.name and user.email both")
    elif email.lower() == PROJECT_EMAIL or name == PROJECT_NAME:
        why = ("%s are the repository's own identity (%s <%s>), which is"
               " no person" % (where, PROJECT_NAME, PROJECT_EMAIL))
    elif not re.fullmatch(r"[^<>@\s]+@[^<>@\s]+", email) or re.search(r"[<>\n]", name):
        why = "%s are not a name and an address: %r <%r>" % (where, name, email)
    if why:
        die("no poster identity to sign the patches with: %s.\n"
            "Each posted patch is From and Signed-off-by its poster, whose"
            " Signed-off-by certifies the Developer's Certificate of Origin"
            " (Documentation/process/submitting-patches.rst) for it; only a"
            " person can.  Read what you send, then set POSTER_NAME and"
            " POSTER_EMAIL to your own name and address:\n"
            "  make export POSTER_NAME='Your Name' POSTER_EMAIL=you@example.org\n"
            "Nothing postable was written." % why)
    return name, email


def strip_project_signoff(msg):
    """The message without the repository's Signed-off-by lines."""
    own = re.compile(r"^%s:\s*%s\s*<%s>\s*$" % (
        SOB, re.escape(PROJECT_NAME), re.escape(PROJECT_EMAIL)), re.I)
    lines = [l for l in msg.split("\n") if not own.match(l)]
    return "\n".join(lines).rstrip() + "\n"


def add_signoff(msg, who):
    """@who's Signed-off-by as the last trailer, as git commit -s adds it."""
    return git("-c", "trailer.where=end",
               "-c", "trailer.ifexists=addIfDifferentNeighbor",
               "-c", "trailer.ifmissing=add",
               "interpret-trailers", "--no-divider",
               "--trailer", "%s: %s" % (SOB, who), inp=msg)


def commits(tree, base, branch, unsigned):
    who = None if unsigned else ident()
    revs = git("rev-list", "--reverse", "%s..%s" % (base, branch),
               cwd=tree).split()
    parent = git("rev-parse", base + "^{commit}", cwd=tree).strip()
    for c in revs:
        raw = git("cat-file", "commit", c, cwd=tree)
        head, _, msg = raw.partition("\n\n")
        if re.search(r"^(encoding|gpgsig) ", head, re.M):
            die("%s: commit with an encoding or signature header" % c)
        hdr = {}
        for line in head.split("\n"):
            k, _, v = line.partition(" ")
            hdr.setdefault(k, v)
        tree_id = hdr["tree"]
        a = re.fullmatch(r"(.*) <(.*)> (\d+ [-+]\d{4})", hdr["author"])
        m = re.fullmatch(r"(.*) <(.*)> (\d+ [-+]\d{4})", hdr["committer"])
        msg = strip_project_signoff(msg)
        if who:
            msg = add_signoff(msg, "%s <%s>" % who)
            env = {"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1],
                   "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1],
                   "GIT_COMMITTER_DATE": a.group(3)}
        else:
            env = {"GIT_AUTHOR_NAME": a.group(1), "GIT_AUTHOR_EMAIL": a.group(2),
                   "GIT_COMMITTER_NAME": m.group(1),
                   "GIT_COMMITTER_EMAIL": m.group(2),
                   "GIT_COMMITTER_DATE": m.group(3)}
        env["GIT_AUTHOR_DATE"] = a.group(3)
        parent = git("commit-tree", "--no-gpg-sign", tree_id, "-p", parent,
                     inp=msg, env=env, cwd=tree).strip()
    return parent


if __name__ == "__main__":
    a = sys.argv[1:]
    if a == ["ident"]:
        print("%s <%s>" % ident())
    elif len(a) in (4, 5) and a[0] == "commits" and a[4:] in ([], ["--unsigned"]):
        print(commits(a[1], a[2], a[3], a[4:] == ["--unsigned"]))
    else:
        sys.exit(__doc__)
