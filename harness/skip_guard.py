#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""skip_guard.py DIR: fail if a statx selftest can skip around STATX_SKIP().

The kselftest harness's SKIP() sets the case's result to KSFT_SKIP whatever
it was, so a skip after a failed EXPECT_*() reports the failure as a skip.
The statx selftests skip with STATX_SKIP() (statx_helpers.h), which keeps a
failure.  This fails on every other way to mark a case skipped in the C
files under DIR: the identifiers SKIP, KSFT_SKIP, ksft_test_result_skip and
ksft_exit_skip, wherever they appear in code, except inside the one
"#define STATX_SKIP(" of statx_helpers.h and ksft_exit_skip() in the body
of statx_require_extensions() there, the whole-program skip of a kernel
without the series, which runs before any case.

The files are read as the C preprocessor reads them: backslash-newlines are
spliced first, then comments and string and character literals are
dropped.  So "SKIP (", a SKIP split from its "(" across lines or by a
comment, and "#define MY_SKIP SKIP" are all caught, and a comment or a
message that mentions SKIP is not.  Token pasting ("SK ## IP") is not
followed.
"""
import os
import re
import sys

FORBIDDEN = re.compile(r'(?<![A-Za-z0-9_])'
                       r'(SKIP|KSFT_SKIP|ksft_test_result_skip|ksft_exit_skip)'
                       r'(?![A-Za-z0-9_])')
GUARD_FILE = 'statx_helpers.h'
GUARD_DEF = re.compile(r'\s*#\s*define\s+STATX_SKIP\s*\(')
# The one whole-program skip, before main() and so before any case: the
# function that decides that the kernel lacks the series.
PROBE_DEF = re.compile(r'.*\bstatx_require_extensions\s*\(\s*void\s*\)\s*$')


def splice(text):
    """Characters with their line numbers, backslash-newlines removed."""
    out, line, i, n = [], 1, 0, len(text)
    while i < n:
        if text[i] == '\\' and text.startswith('\n', i + 1):
            line += 1
            i += 2
            continue
        if text[i] == '\\' and text.startswith('\r\n', i + 1):
            line += 1
            i += 3
            continue
        out.append((text[i], line))
        if text[i] == '\n':
            line += 1
        i += 1
    return out


def strip(chars):
    """Drop comments and literals: a comment becomes a space (so one
    spanning lines joins them, as in C), a literal becomes an empty one."""
    out, i, n = [], 0, len(chars)
    while i < n:
        c, line = chars[i]
        nxt = chars[i + 1][0] if i + 1 < n else ''
        if c == '/' and nxt == '*':
            i += 2
            while i < n and not (chars[i][0] == '*' and i + 1 < n and
                                 chars[i + 1][0] == '/'):
                i += 1
            i += 2
            out.append((' ', line))
            continue
        if c == '/' and nxt == '/':
            while i < n and chars[i][0] != '\n':
                i += 1
            continue
        if c in '"\'':
            q = c
            i += 1
            while i < n and chars[i][0] != q and chars[i][0] != '\n':
                i += 2 if chars[i][0] == '\\' else 1
            i += 1
            out += [(q, line), (q, line)]
            continue
        out.append((c, line))
        i += 1
    return out


def logical_lines(chars):
    """Lists of (char, line), one per line after splicing."""
    cur = []
    for c in chars:
        if c[0] == '\n':
            yield cur
            cur = []
        else:
            cur.append(c)
    yield cur


def scan(path, name):
    """(bad uses, number of guard definitions) in one file."""
    with open(path, encoding='utf-8', errors='replace') as f:
        raw = f.read()
    src = raw.split('\n')
    bad, defs = [], 0
    in_probe = False
    for ll in logical_lines(strip(splice(raw))):
        text = ''.join(c for c, _ in ll)
        if name == GUARD_FILE and GUARD_DEF.match(text):
            defs += 1
            continue
        if name == GUARD_FILE and PROBE_DEF.match(text):
            in_probe = True
            continue
        probe_body = in_probe
        if in_probe:
            # Its body, up to the closing brace in column 0.
            in_probe = not text.startswith('}')
        for m in FORBIDDEN.finditer(text):
            if probe_body and m.group(1) == 'ksft_exit_skip':
                continue
            line = ll[m.start()][1]
            bad.append('%s:%d: %s outside the definition of STATX_SKIP(): %s'
                       % (path, line, m.group(1), src[line - 1].strip()))
    return bad, defs


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: skip_guard.py DIR')
    top = sys.argv[1]
    bad, defs, files = [], 0, 0
    for d, _, names in os.walk(top):
        for name in sorted(names):
            if not name.endswith(('.c', '.h')):
                continue
            files += 1
            b, n = scan(os.path.join(d, name), name)
            bad += b
            defs += n
    for b in bad:
        print(b)
    if defs != 1:
        print('%s/%s: %d definitions of STATX_SKIP(), not 1'
              % (top, GUARD_FILE, defs))
    if bad or defs != 1:
        print('A statx selftest skips with STATX_SKIP() from %s, which keeps a'
              ' failed case failed; SKIP() would report it as skipped.'
              % GUARD_FILE)
        sys.exit(1)
    print('%d files: every skip goes through STATX_SKIP()' % files)


if __name__ == '__main__':
    main()
