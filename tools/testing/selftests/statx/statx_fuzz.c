// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded, repeatable statx(2) fuzzer.
 *
 * A fixed number of calls (STATX_FUZZ_COUNT, default 200000) is made with
 * arguments drawn from a seeded generator (STATX_FUZZ_SEED): directory fds
 * of every kind, paths from a corpus (empty, NULL, bad pointers, "/",
 * "..", names at and beyond NAME_MAX and PATH_MAX, symlink loops, chains
 * and dangling links made here on a tmpfs of the case's own and on a
 * second one, and files of the procfs and sysfs it mounts), random
 * flag and mask words, and result buffers that are NULL, unmapped,
 * read-only, misaligned or straddle a page boundary into a PROT_NONE
 * page.
 *
 * For every call a model of statx() predicts the set of acceptable
 * outcomes.  When an input is wrong in exactly one way, the set is the one
 * errno the documentation gives for it; only combinations whose order
 * the documentation leaves open accept each of their errnos.  Every result
 * must be in the documented errno set; a success must leave the bytes
 * around the 256-byte struct untouched, pass statx_check_result() and
 * agree with fstatat() on the same arguments; a failure must not write the
 * buffer.  The call count and a per-errno histogram are printed as KTAP
 * diagnostics.
 */
#define _FILE_OFFSET_BITS 64	/* 64-bit st_ino in the -m32 build too */
#include "statx_helpers.h"
#include <dirent.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include "../kselftest_harness.h"

#define FUZZ_DEFAULT_SEED	0x5eedf00dcafe0007ULL
#define FUZZ_DEFAULT_COUNT	200000UL

/*
 * The errnos statx(2) documents, and why each can happen in this test:
 * EACCES	search permission is denied on a path component (the test
 *		runs as root, so only a filesystem or LSM refusing it);
 * EBADF	a relative or empty path with a dirfd that is not open
 *		(closed, -1, negative, huge);
 * EFAULT	the path or the buffer is NULL, unmapped, read-only, in the
 *		kernel half, or runs into a PROT_NONE page;
 * EINVAL	a flag statx() does not know, both AT_STATX_* sync bits, or
 *		STATX__RESERVED in the mask;
 * ELOOP	a symlink loop, or more than 40 links in one resolution;
 * ENAMETOOLONG	a path of PATH_MAX bytes or more, or a component longer
 *		than the filesystem takes;
 * ENOENT	a missing component, a dangling link, an empty path without
 *		AT_EMPTY_PATH;
 * ENOMEM	the kernel ran out of memory (documented; no call here
 *		expects it, so it fails the test unless the model allows
 *		any documented errno);
 * ENOTDIR	a non-final component, or the dirfd of a relative path, is
 *		not a directory.
 */
#define OK		1ULL
#define E(e)		(1ULL << (e))
#define DOCUMENTED	(E(EACCES) | E(EBADF) | E(EFAULT) | E(EINVAL) | \
			 E(ELOOP) | E(ENAMETOOLONG) | E(ENOENT) | \
			 E(ENOMEM) | E(ENOTDIR))
#define ANY		(OK | DOCUMENTED)

static const char *errname(int e)
{
	static char buf[32];

	switch (e) {
	case 0:			return "success";
	case EACCES:		return "EACCES";
	case EBADF:		return "EBADF";
	case EFAULT:		return "EFAULT";
	case EINVAL:		return "EINVAL";
	case ELOOP:		return "ELOOP";
	case ENAMETOOLONG:	return "ENAMETOOLONG";
	case ENOENT:		return "ENOENT";
	case ENOMEM:		return "ENOMEM";
	case ENOTDIR:		return "ENOTDIR";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* Our own generator, so a seed means the same calls with any libc. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)	/* xorshift64* */
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return (unsigned int)((rnd(r) >> 32) % n);
}

enum pkind { P_STR, P_EMPTY, P_NULL, P_BAD };

struct pent {
	enum pkind kind;
	const char *path;
	char label[80];
	uint64_t follow, nofollow;	/* outcomes, with and without NOFOLLOW */
	bool portable;			/* relative, same in every fuzz dir */
};

enum dkind {
	D_CWD, D_DIR, D_OPATH_DIR, D_FSDIR, D_OPATH_FILE, D_FILE,
	D_CLOSED, D_MINUS1, D_HUGE, D_NEG, D_NR
};

static const char *const dnames[D_NR] = {
	"AT_FDCWD", "dir", "O_PATH dir", "dir on the second tmpfs", "O_PATH file",
	"file", "closed fd", "-1", "huge fd", "negative fd",
};

enum bkind {
	B_OK, B_MISALIGNED, B_PAGE_END, B_NULL, B_UNMAPPED, B_RDONLY,
	B_STRADDLE, B_KERNEL, B_NR
};

static const char *const bnames[B_NR] = {
	"aligned", "misaligned", "ends at PROT_NONE", "NULL", "unmapped",
	"read-only", "straddles into PROT_NONE", "kernel address",
};

#define MAX_PENTS	1024
#define MAX_FS		1
#define PAGE		4096
#define GUARD		128

struct fuzz {
	char w[64];			/* work dir in /tmp, also the cwd */
	int dirfd, opath_dir, opath_file, filefd, closedfd;
	int fsdirs[MAX_FS], nfsdirs;
	struct pent p[MAX_PENTS];
	int np;
	unsigned char *mem;		/* 8 pages, see map_buffers() */
	unsigned long hist[64], other_errno[4096];
	unsigned long calls, mismatches, max_reports;
};

static struct pent *add(struct fuzz *f, enum pkind kind, const char *path,
			uint64_t follow, uint64_t nofollow, bool portable)
{
	struct pent *p = &f->p[f->np];
	size_t len;

	if (f->np == MAX_PENTS)
		return NULL;
	f->np++;
	len = path && kind == P_STR ? strlen(path) : 0;
	p->kind = kind;
	p->path = path;
	p->follow = follow;
	p->nofollow = nofollow;
	p->portable = portable;
	if (kind != P_STR)
		snprintf(p->label, sizeof(p->label), "<%s>",
			 kind == P_EMPTY ? "empty" :
			 kind == P_NULL ? "NULL" : "bad pointer");
	else if (len < 60)
		snprintf(p->label, sizeof(p->label), "\"%s\"", path);
	else
		snprintf(p->label, sizeof(p->label), "\"%.24s...%.16s\" (%zu bytes)",
			 path, path + len - 16, len);
	return p;
}

static void add_str(struct fuzz *f, const char *path, uint64_t follow,
		    uint64_t nofollow)
{
	add(f, P_STR, strdup(path), follow, nofollow, false);
}

static void add_fmt(struct fuzz *f, uint64_t follow, uint64_t nofollow,
		    const char *fmt, ...)
{
	char buf[PATH_MAX * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add_str(f, buf, follow, nofollow);
}

static char *repeat(const char *s, int n, const char *tail)
{
	size_t l = strlen(s), t = strlen(tail);
	char *r = malloc(l * n + t + 1), *q = r;
	int i;

	for (i = 0; i < n; i++, q += l)
		memcpy(q, s, l);
	memcpy(q, tail, t + 1);
	return r;
}

/* The work dir: files, directories and links the corpus names. */
static int make_tree(struct fuzz *f)
{
	char a[PATH_MAX], b[PATH_MAX];
	int i, fd;

	snprintf(f->w, sizeof(f->w), "/tmp/fuzz");
	if (mkdir(f->w, 0755))
		return -1;
	if (chdir(f->w))
		return -1;
	fd = open("f.dat", O_CREAT | O_WRONLY | O_EXCL, 0644);
	if (fd < 0 || write(fd, "data\n", 5) != 5 || close(fd))
		return -1;
	if (mkdir("d", 0755))
		return -1;
	struct { const char *target, *name; } links[] = {
		{ "loop2", "loop1" }, { "loop1", "loop2" }, { "self", "self" },
		{ "nx.dat", "dangle" }, { "f.dat", "lnf" }, { "d", "lnd" },
		{ "..", "d/up" },
	};
	for (i = 0; i < (int)ARRAY_SIZE(links); i++) {
		if (symlink(links[i].target, links[i].name))
			return -1;
	}
	snprintf(a, sizeof(a), "%s/f.dat", f->w);
	if (symlink(a, "abs"))
		return -1;
	/* c0 -> c1 -> ... -> c39 -> f.dat: 40 links, the most allowed. */
	for (i = 39; i >= 0; i--) {
		snprintf(a, sizeof(a), "c%d", i + 1);
		snprintf(b, sizeof(b), "c%d", i);
		if (symlink(i == 39 ? "f.dat" : a, b))
			return -1;
	}
	/* e0 -> ... -> e40 -> f.dat: 41 links, one too many. */
	for (i = 40; i >= 0; i--) {
		snprintf(a, sizeof(a), "e%d", i + 1);
		snprintf(b, sizeof(b), "e%d", i);
		if (symlink(i == 40 ? "f.dat" : a, b))
			return -1;
	}
	return 0;
}

/* Relative names, valid against the work dir (cwd, dirfd, O_PATH dirfd). */
static void add_relative(struct fuzz *f)
{
	/* tmpfs says so for a name longer than NAME_MAX */
	const uint64_t tl = E(ENAMETOOLONG);
	struct {
		const char *path;
		uint64_t follow, nofollow;
		bool portable;
	} rel[] = {
		{ ".", OK, OK, true },
		{ "..", OK, OK, true },
		{ "f.dat", OK, OK, true },
		{ "f.dat/", E(ENOTDIR), E(ENOTDIR), true },
		{ "f.dat/x", E(ENOTDIR), E(ENOTDIR), true },
		{ "f.dat/..", E(ENOTDIR), E(ENOTDIR), true },
		{ "d", OK, OK, true },
		{ "d/", OK, OK, true },
		{ "d/.", OK, OK, true },
		{ "d/..", OK, OK, true },
		{ "d/../f.dat", OK, OK, true },
		{ "nx.dat", E(ENOENT), E(ENOENT), true },
		{ "nx.dat/x", E(ENOENT), E(ENOENT), true },
		{ "d/nx.dat", E(ENOENT), E(ENOENT), true },
		{ "loop1", E(ELOOP), OK },
		{ "loop1/", E(ELOOP), E(ELOOP) },
		{ "loop2/x", E(ELOOP), E(ELOOP) },
		{ "self", E(ELOOP), OK },
		{ "dangle", E(ENOENT), OK },
		{ "dangle/", E(ENOENT), E(ENOENT) },
		{ "lnf", OK, OK },
		{ "lnf/", E(ENOTDIR), E(ENOTDIR) },
		{ "lnf/x", E(ENOTDIR), E(ENOTDIR) },
		{ "lnd", OK, OK },
		{ "lnd/", OK, OK },
		{ "lnd/..", OK, OK },
		{ "d/up/f.dat", OK, OK },
		{ "abs", OK, OK },
		{ "c0", OK, OK },
		{ "c0/x", E(ENOTDIR), E(ENOTDIR) },
		{ "e0", E(ELOOP), OK },
		{ "e0/x", E(ELOOP), E(ELOOP) },
	};
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(rel); i++)
		add(f, P_STR, rel[i].path, rel[i].follow, rel[i].nofollow,
		    rel[i].portable);
	/* NAME_MAX and one past it. */
	add(f, P_STR, repeat("n", NAME_MAX, ""), E(ENOENT), E(ENOENT), false);
	add(f, P_STR, repeat("n", NAME_MAX + 1, ""), tl, tl, false);
	add(f, P_STR, repeat("n", NAME_MAX + 1, "/x"), tl, tl, false);
	/* PATH_MAX - 1 bytes resolve; PATH_MAX bytes do not. */
	add(f, P_STR, repeat("./", (PATH_MAX - 1 - 5) / 2, "f.dat"), OK, OK,
	    true);
	add(f, P_STR, repeat("./", (PATH_MAX - 1 - 7) / 2, "nx.dat/"),
	    E(ENOENT), E(ENOENT), true);
	add(f, P_STR, repeat("./", (PATH_MAX - 1 - 5) / 2, "/f.dat"),
	    E(ENAMETOOLONG), E(ENAMETOOLONG), true);
	add(f, P_STR, repeat("n", 3 * PATH_MAX, ""), E(ENAMETOOLONG),
	    E(ENAMETOOLONG), true);
}

static void add_absolute(struct fuzz *f)
{
	add_str(f, "/", OK, OK);
	add_str(f, "/..", OK, OK);
	add_str(f, "//.", OK, OK);
	add_str(f, "/tmp", OK, OK);
	add_str(f, "/tmp/statx-fuzz-nonexistent", E(ENOENT), E(ENOENT));
	add(f, P_STR, repeat("/", PATH_MAX - 1, ""), OK, OK, false);
	add(f, P_STR, repeat("/", PATH_MAX, ""), E(ENAMETOOLONG),
	    E(ENAMETOOLONG), false);
	add_fmt(f, OK, OK, "%s", f->w);
	add_fmt(f, OK, OK, "%s/f.dat", f->w);
	add_fmt(f, E(ELOOP), OK, "%s/loop1", f->w);
	add_fmt(f, E(ENOENT), OK, "%s/dangle", f->w);
	add_fmt(f, E(ELOOP), OK, "%s/e0", f->w);
	add_fmt(f, OK, OK, "%s/c0", f->w);
}

/*
 * A second tmpfs, another mount and superblock: a small tree of its own,
 * and a directory fd there that the relative names are tried from.
 */
static void add_second_tmpfs(struct __test_metadata *_metadata,
			     struct fuzz *f)
{
	const char *d = "/tmp/fs2";
	char p[64];
	int fd;

	ASSERT_EQ(0, statx_mount_at("tmpfs", d, 0, NULL));
	add_str(f, d, OK, OK);
	snprintf(p, sizeof(p), "%s/f.dat", d);
	ASSERT_EQ(0, statx_put_file(p, NULL, 0));
	snprintf(p, sizeof(p), "%s/d", d);
	ASSERT_EQ(0, mkdir(p, 0755));
	fd = open(d, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	f->fsdirs[f->nfsdirs++] = fd;
	add_fmt(f, OK, OK, "%s/f.dat", d);
	add_fmt(f, OK, OK, "%s/d/..", d);
	add_fmt(f, E(ENOENT), E(ENOENT), "%s/nx.dat", d);
	add_fmt(f, E(ENOTDIR), E(ENOTDIR), "%s/f.dat/x", d);
	add_fmt(f, E(ENOTDIR), E(ENOTDIR), "%s/f.dat/", d);
	snprintf(p, sizeof(p), "%s/", d);
	add(f, P_STR, repeat(p, 1, repeat("n", NAME_MAX + 1, "")),
	    E(ENAMETOOLONG), E(ENAMETOOLONG), false);
	snprintf(p, sizeof(p), "%s/lp", d);
	ASSERT_EQ(0, symlink("lp", p));
	add_str(f, p, E(ELOOP), OK);
	snprintf(p, sizeof(p), "%s/dg", d);
	ASSERT_EQ(0, symlink("nx.dat", p));
	add_str(f, p, E(ENOENT), OK);
}

/*
 * Everything in @dir, each expected to resolve; not "..", which for
 * /proc/self is /proc, whose link count follows the number of tasks and
 * can change between the statx() and the fstatat() it is compared with.
 */
static void add_listing(struct fuzz *f, const char *dir, int max)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)) && max-- > 0)
		if (strcmp(de->d_name, ".."))
			add_fmt(f, OK, OK, "%s/%s", dir, de->d_name);
	closedir(d);
}

/* procfs and sysfs, mounted in the case's namespace */
static void add_proc_sys(struct __test_metadata *_metadata, struct fuzz *f)
{
	ASSERT_EQ(0, statx_mount_at("proc", "/tmp/proc", 0, NULL));
	ASSERT_EQ(0, statx_mount_at("sysfs", "/tmp/sys", 0, NULL));
	add_listing(f, "/tmp/proc/self", 80);
	add_listing(f, "/tmp/sys/kernel", 40);
	add_fmt(f, OK, OK, "/tmp/proc/self/fd/%d", f->dirfd);
	add_fmt(f, OK, OK, "/tmp/proc/self/fd/%d", f->opath_file);
	add_fmt(f, OK, OK, "/tmp/proc/self/fd/%d/f.dat", f->dirfd);
	add_fmt(f, E(ENOENT), E(ENOENT), "/tmp/proc/self/fd/%d", f->closedfd);
	add_str(f, "/tmp/proc/self/cwd/f.dat", OK, OK);
	add_str(f, "/tmp/proc/self/cwd/loop1", E(ELOOP), OK);
	add_str(f, "/tmp/proc/self/root/..", OK, OK);
}

/*
 * Eight pages: 0 holds guarded buffers, 1 is read-only, 2 runs into the
 * PROT_NONE page 3, 4 is unmapped, 5 runs into the PROT_NONE page 6
 * (for paths with no NUL before the boundary), 7 is spare.
 */
static int map_buffers(struct fuzz *f)
{
	unsigned char *m = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	memset(m, STATX_POISON, 8 * PAGE);
	if (mprotect(m + PAGE, PAGE, PROT_READ) ||
	    mprotect(m + 3 * PAGE, PAGE, PROT_NONE) ||
	    munmap(m + 4 * PAGE, PAGE) ||
	    mprotect(m + 6 * PAGE, PAGE, PROT_NONE))
		return -1;
	f->mem = m;
	return 0;
}

static void add_bad_pointers(struct fuzz *f)
{
	add(f, P_EMPTY, "", 0, 0, false);
	add(f, P_EMPTY, "", 0, 0, false);
	add(f, P_NULL, NULL, 0, 0, false);
	add(f, P_NULL, NULL, 0, 0, false);
	add(f, P_BAD, (const char *)(f->mem + 4 * PAGE), 0, 0, false);
	add(f, P_BAD, (const char *)(uintptr_t)~(uintptr_t)(PAGE - 1), 0, 0,
	    false);
	/* "aaaa..." up to the PROT_NONE page, no NUL: placed per call. */
	snprintf(add(f, P_BAD, NULL, 0, 0, false)->label, sizeof(f->p[0].label),
		 "<path running into PROT_NONE>");
}

FIXTURE(fuzz) {
	struct fuzz *f;
};

FIXTURE_SETUP(fuzz)
{
	struct fuzz *f = calloc(1, sizeof(*f));
	int i;

	ASSERT_TRUE(!!f);
	self->f = f;
	if (!statx_private_tmp(_metadata))
		return;
	for (i = 0; i < MAX_FS; i++)
		f->fsdirs[i] = -1;
	ASSERT_EQ(0, map_buffers(f));
	ASSERT_EQ(0, make_tree(f)) TH_LOG("making %s: %m", f->w);
	f->dirfd = open(f->w, O_RDONLY | O_DIRECTORY);
	f->opath_dir = open(f->w, O_PATH | O_DIRECTORY);
	f->opath_file = open("f.dat", O_PATH);
	f->filefd = open("f.dat", O_RDONLY);
	/* A number no open() in this test will hand out again. */
	f->closedfd = dup2(f->filefd, 987);
	ASSERT_LE(0, f->dirfd);
	ASSERT_LE(0, f->opath_dir);
	ASSERT_LE(0, f->opath_file);
	ASSERT_LE(0, f->filefd);
	ASSERT_LE(0, f->closedfd);
	ASSERT_EQ(0, close(f->closedfd));
	add_relative(f);
	add_absolute(f);
	add_second_tmpfs(_metadata, f);
	add_proc_sys(_metadata, f);
	add_bad_pointers(f);
	ASSERT_LT(f->np, MAX_PENTS);
}

/* The trees go with the case's mount namespace. */
FIXTURE_TEARDOWN(fuzz)
{
	struct fuzz *f = self->f;
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nfsdirs; i++)
		close(f->fsdirs[i]);
}

struct call {
	int dirfd;
	enum dkind dk;
	const struct pent *p;
	const char *path;
	unsigned int flags, mask;
	enum bkind bk;
	unsigned char *buf;
};

static unsigned int rand_flags(struct rng *r)
{
	static const unsigned int sync[] = {
		AT_STATX_SYNC_AS_STAT, AT_STATX_FORCE_SYNC,
		AT_STATX_DONT_SYNC,
	};
	unsigned int valid = 0, k = below(r, 100);

	if (below(r, 2))
		valid |= AT_SYMLINK_NOFOLLOW;
	if (below(r, 4) == 0)
		valid |= AT_NO_AUTOMOUNT;
	if (below(r, 3) == 0)
		valid |= AT_EMPTY_PATH;
	valid |= sync[below(r, 3)];
	if (k < 75)
		return valid;
	if (k < 80)
		return valid | AT_STATX_SYNC_TYPE;	/* both sync bits */
	if (k < 90)
		return valid | 1U << below(r, 32);
	if (k < 95)
		return (unsigned int)rnd(r);
	return 0;
}

static unsigned int rand_mask(struct rng *r)
{
	static const unsigned int masks[] = {
		STATX_BASIC_STATS, STATX_BASIC_STATS | STATX_BTIME, STATX_ALL,
		STATX_TYPE | STATX_INO, STATX_MNT_ID_UNIQUE,
		STATX_DIOALIGN | STATX_WRITE_ATOMIC | STATX_SUBVOL,
		STATX_BASIC_STATS | STATX_BTIME | STATX_GEN |
		STATX_CHANGE_COOKIE | STATX_IO_PARAMS,
		STATX_GEN, STATX_CHANGE_COOKIE, STATX_IO_PARAMS,
		STATX_DIO_READ_ALIGN,
	};
	unsigned int k = below(r, 100);

	if (k < 35)
		return masks[below(r, ARRAY_SIZE(masks))];
	if (k < 50)
		return STATX_ALL_BITS;
	if (k < 54)
		return ~0U;
	if (k < 69)
		return 1U << below(r, 32);
	if (k < 84)
		return (unsigned int)rnd(r) & ~STATX__RESERVED;
	if (k < 87)
		return (unsigned int)rnd(r);
	if (k < 90)
		return STATX__RESERVED | STATX_BASIC_STATS;
	return 0;
}

static int pick_dirfd(struct fuzz *f, struct rng *r, enum dkind *dk)
{
	*dk = below(r, D_NR);
	switch (*dk) {
	case D_CWD:
		return AT_FDCWD;
	case D_DIR:
		return f->dirfd;
	case D_OPATH_DIR:
		return f->opath_dir;
	case D_FSDIR:
		if (!f->nfsdirs) {
			*dk = D_DIR;
			return f->dirfd;
		}
		return f->fsdirs[below(r, f->nfsdirs)];
	case D_OPATH_FILE:
		return f->opath_file;
	case D_FILE:
		return f->filefd;
	case D_CLOSED:
		return f->closedfd;
	case D_MINUS1:
		return -1;
	case D_HUGE:
		return below(r, 2) ? INT_MAX : 0x7ffffff0;
	case D_NEG:
		return -1000 - (int)below(r, 1000);
	default:
		return AT_FDCWD;
	}
}

/* Fill the bytes a buffer kind is checked by, and pick the pointer. */
static unsigned char *pick_buffer(struct fuzz *f, struct rng *r,
				  enum bkind bk)
{
	unsigned char *m = f->mem;
	unsigned int k = below(r, 100);

	switch (bk) {
	case B_OK:
	case B_MISALIGNED:
		memset(m, STATX_POISON, 2 * GUARD + 16 + 256);
		return m + GUARD + (bk == B_MISALIGNED ? 1 + below(r, 15) : 0);
	case B_PAGE_END:
		memset(m + 3 * PAGE - 256 - GUARD, STATX_POISON, 256 + GUARD);
		return m + 3 * PAGE - 256;
	case B_STRADDLE:
		memset(m + 3 * PAGE - 256 - GUARD, STATX_POISON, 256 + GUARD);
		return m + 3 * PAGE - 1 - below(r, 255);
	case B_UNMAPPED:
		return m + 4 * PAGE + (k < 50 ? 0 : k);
	case B_RDONLY:
		return m + PAGE + (k < 50 ? 0 : k);
	case B_KERNEL:
		return (unsigned char *)~(uintptr_t)(PAGE - 1);
	case B_NULL:
	default:
		return NULL;
	}
}

static bool fd_is_open(enum dkind dk)
{
	return dk == D_DIR || dk == D_OPATH_DIR || dk == D_FSDIR ||
	       dk == D_OPATH_FILE || dk == D_FILE;
}

/* What statx() may return for @c, as a set of outcomes (bit 0: success). */
static uint64_t expected(const struct call *c)
{
	bool follow = !(c->flags & AT_SYMLINK_NOFOLLOW);
	uint64_t pre = 0, lookup;

	/* Argument errors: when several apply, their order is not ABI. */
	if ((c->mask & STATX__RESERVED) || (c->flags & ~STATX_VALID_FLAGS) ||
	    (c->flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		pre |= E(EINVAL);
	switch (c->p->kind) {
	case P_NULL:
		/* With AT_EMPTY_PATH, NULL is "" whatever the other flags. */
		if (!(c->flags & AT_EMPTY_PATH))
			pre |= E(EFAULT);
		break;
	case P_EMPTY:
		if (!(c->flags & AT_EMPTY_PATH))
			pre |= E(ENOENT);
		break;
	case P_BAD:
		pre |= E(EFAULT);
		break;
	case P_STR:
		if (strlen(c->path) >= PATH_MAX)
			pre |= E(ENAMETOOLONG);
		break;
	}
	if (pre)
		return pre;

	if (c->p->kind != P_STR)	/* the dirfd itself */
		lookup = c->dk == D_CWD || fd_is_open(c->dk) ? OK : E(EBADF);
	else if (c->path[0] == '/')
		lookup = follow ? c->p->follow : c->p->nofollow;
	else if (c->dk == D_FILE || c->dk == D_OPATH_FILE)
		lookup = E(ENOTDIR);
	else if (!fd_is_open(c->dk) && c->dk != D_CWD)
		lookup = E(EBADF);
	else if (c->dk == D_FSDIR && !c->p->portable)
		lookup = ANY;
	else
		lookup = follow ? c->p->follow : c->p->nofollow;

	if (!(lookup & OK))
		return lookup;
	switch (c->bk) {
	case B_OK: case B_MISALIGNED: case B_PAGE_END:
		return lookup;
	default:
		return (lookup & ~OK) | E(EFAULT);
	}
}

static bool unchanged(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++ != STATX_POISON)
			return false;
	return true;
}

/* Check what the call did to memory; describe a problem in @why. */
static int check_memory(struct fuzz *f, const struct call *c, int ret,
			char *why, size_t len)
{
	const unsigned char *m = f->mem, *b = c->buf;

	switch (c->bk) {
	case B_OK:
	case B_MISALIGNED:
		if (ret) {
			if (!unchanged(m, 2 * GUARD + 16 + 256))
				return statx_fail(why, len, "failed call wrote the buffer");
			return 0;
		}
		if (!unchanged(m, b - m) ||
		    !unchanged(b + 256, m + 2 * GUARD + 16 + 256 - (b + 256)))
			return statx_fail(why, len, "wrote outside the 256-byte struct");
		return 0;
	case B_PAGE_END:
		if (!unchanged(m + 3 * PAGE - 256 - GUARD,
			       ret ? 256 + GUARD : GUARD))
			return statx_fail(why, len, ret ?
					  "failed call wrote the buffer" :
					  "wrote before the struct");
		return 0;
	case B_STRADDLE:
		if (!unchanged(m + 3 * PAGE - 256 - GUARD,
			       b - (m + 3 * PAGE - 256 - GUARD)))
			return statx_fail(why, len, "wrote before the struct");
		return 0;
	default:
		return 0;
	}
}

/* A success must agree with fstatat() on the same arguments. */
static int check_against_fstatat(const struct call *c, const void *buf,
				 char *why, size_t len)
{
	unsigned int fl = c->flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH |
				      AT_NO_AUTOMOUNT);
	const char *path = c->p->kind == P_STR ? c->path : "";
	struct statx stx;
	struct stat st;

	if (c->p->kind == P_NULL)
		fl |= AT_EMPTY_PATH;
	memcpy(&stx, buf, sizeof(stx));
	if (fstatat(c->dirfd, path, &st, fl))
		return statx_fail(why, len, "statx succeeded, fstatat failed: %m");
	if ((stx.stx_mask & STATX_INO) && stx.stx_ino != st.st_ino)
		return statx_fail(why, len, "stx_ino %llu, st_ino %llu",
				  (unsigned long long)stx.stx_ino,
				  (unsigned long long)st.st_ino);
	if ((stx.stx_mask & STATX_TYPE) &&
	    (stx.stx_mode & S_IFMT) != (st.st_mode & S_IFMT))
		return statx_fail(why, len, "stx_mode %#o, st_mode %#o",
				  stx.stx_mode, st.st_mode);
	if ((stx.stx_mask & STATX_MODE) &&
	    (stx.stx_mode & ~S_IFMT) != (st.st_mode & ~S_IFMT))
		return statx_fail(why, len, "stx_mode %#o, st_mode %#o",
				  stx.stx_mode, st.st_mode);
	if ((stx.stx_mask & STATX_NLINK) && stx.stx_nlink != st.st_nlink)
		return statx_fail(why, len, "stx_nlink %u, st_nlink %lu",
				  stx.stx_nlink, (unsigned long)st.st_nlink);
	if ((stx.stx_mask & STATX_UID) && stx.stx_uid != st.st_uid)
		return statx_fail(why, len, "stx_uid %u, st_uid %u",
				  stx.stx_uid, st.st_uid);
	if ((stx.stx_mask & STATX_GID) && stx.stx_gid != st.st_gid)
		return statx_fail(why, len, "stx_gid %u, st_gid %u",
				  stx.stx_gid, st.st_gid);
	if (stx.stx_dev_major != major(st.st_dev) ||
	    stx.stx_dev_minor != minor(st.st_dev))
		return statx_fail(why, len, "stx_dev %u:%u, st_dev %u:%u",
				  stx.stx_dev_major, stx.stx_dev_minor,
				  major(st.st_dev), minor(st.st_dev));
	return 0;
}

static unsigned long long env_ull(const char *name, unsigned long long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

static void report(struct __test_metadata *_metadata, struct fuzz *f,
		   unsigned long i, const struct call *c, int got,
		   uint64_t want, const char *why)
{
	char set[256] = "";
	int e;

	if (++f->mismatches > f->max_reports)
		return;
	for (e = 0; e < 64; e++)
		if (want & (1ULL << e))
			snprintf(set + strlen(set), sizeof(set) - strlen(set),
				 " %s", errname(e));
	TH_LOG("call %lu: statx(%s %d, %s, %#x, %#x, %s %p): %s, expected%s%s%s",
	       i, dnames[c->dk], c->dirfd, c->p->label, c->flags, c->mask,
	       bnames[c->bk], c->buf, errname(got), set, why ? "; " : "",
	       why ? why : "");
}

TEST_F_TIMEOUT(fuzz, random_calls, 420)
{
	struct fuzz *f = self->f;
	uint64_t seed = env_ull("STATX_FUZZ_SEED", FUZZ_DEFAULT_SEED);
	unsigned long count = env_ull("STATX_FUZZ_COUNT", FUZZ_DEFAULT_COUNT);
	struct timespec t0, t1;
	unsigned char copy[256];
	struct rng r;
	unsigned long i;
	int e;

	r.s = splitmix64(&seed) | 1;
	f->max_reports = env_ull("STATX_FUZZ_REPORTS", 20);
	ksft_print_msg("seed %#llx, %lu calls, corpus of %d paths, %d filesystems\n",
		       (unsigned long long)env_ull("STATX_FUZZ_SEED",
						  FUZZ_DEFAULT_SEED),
		       count, f->np, f->nfsdirs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count; i++) {
		char why[256] = "";
		uint64_t want;
		struct call c;
		int ret, got;

		c.dirfd = pick_dirfd(f, &r, &c.dk);
		c.p = &f->p[below(&r, f->np)];
		/* Walks of ~2000 components are costly under TCG: fewer. */
		if (c.p->kind == P_STR && c.p->path[0] == '.' &&
		    strlen(c.p->path) > PATH_MAX / 2 && below(&r, 4))
			c.p = &f->p[below(&r, f->np)];
		c.path = c.p->path;
		if (c.p->kind == P_BAD && !c.path) {
			unsigned int n = 1 + below(&r, 200);

			memset(f->mem + 6 * PAGE - n, 'a', n);
			c.path = (const char *)(f->mem + 6 * PAGE - n);
		}
		c.flags = rand_flags(&r);
		c.mask = rand_mask(&r);
		c.bk = below(&r, 3) ? below(&r, 3) : below(&r, B_NR);
		c.buf = pick_buffer(f, &r, c.bk);

		ret = sys_statx(c.dirfd, c.path, c.flags, c.mask,
				(struct statx *)c.buf);
		got = ret ? errno : 0;
		f->calls++;
		if (got < 64)
			f->hist[got]++;
		else if (got < 4096)
			f->other_errno[got]++;

		want = expected(&c);
		if (got >= 64 || !(want & (1ULL << got))) {
			report(_metadata, f, i, &c, got, want, NULL);
			continue;
		}
		if (check_memory(f, &c, ret, why, sizeof(why))) {
			report(_metadata, f, i, &c, got, want, why);
			continue;
		}
		if (ret || c.bk == B_STRADDLE)
			continue;
		memcpy(copy, c.buf, sizeof(copy));
		if (statx_check_result(copy, c.mask, why, sizeof(why)) ||
		    check_against_fstatat(&c, copy, why, sizeof(why)))
			report(_metadata, f, i, &c, got, want, why);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	ksft_print_msg("statx calls: %lu in %.1f s, seed %#llx\n", f->calls,
		       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		       (unsigned long long)env_ull("STATX_FUZZ_SEED",
						  FUZZ_DEFAULT_SEED));
	for (e = 0; e < 64; e++)
		if (f->hist[e])
			ksft_print_msg("errno %-12s %lu%s\n", errname(e),
				       f->hist[e], e && !(DOCUMENTED & E(e)) ?
				       " (not documented)" : "");
	for (e = 0; e < 4096; e++)
		if (f->other_errno[e])
			ksft_print_msg("errno %d (%s): %lu (not documented)\n",
				       e, strerror(e), f->other_errno[e]);
	EXPECT_EQ(0, f->mismatches);
	EXPECT_EQ(count, f->calls);
}

#define DIRBUF	(16 * PAGE)

/*
 * statx_dir() with the same directory fds, flags and masks as statx()
 * above, buffers of random sizes that are whole, NULL, unmapped,
 * read-only, a kernel address, or end at a PROT_NONE page, and struct
 * statx sizes in records of every kind.  Bad flags, a reserved mask bit or
 * a struct statx size out of range or not a multiple of 8: EINVAL; an fd
 * that is not open, or open O_PATH: EBADF; a file: ENOTDIR.  A directory:
 * records, 0 at its end, EINVAL only for a buffer smaller than the largest
 * record, EFAULT only for a buffer not writable; records whole and nothing
 * written past them.
 */
TEST_F_TIMEOUT(fuzz, statx_dir_calls, 120)
{
	static const size_t sizes[] = {
		0, 1, 0x120, 0x128, 0x220, 0x221, 4096, DIRBUF,
	};
	static const size_t stx_sizes[] = {
		0, 8, 0x88, 0x8c, 0x90, 0x94, 0xb8, 0xff, 0x108, 0x140,
		0xff8, 0x1000, 0x1008, (size_t)-8,
	};
	struct fuzz *f = self->f;
	uint64_t seed = env_ull("STATX_FUZZ_SEED", FUZZ_DEFAULT_SEED);
	unsigned long count = env_ull("STATX_FUZZ_COUNT", FUZZ_DEFAULT_COUNT) / 20;
	unsigned long i, bad = 0, hist[4] = { 0 };
	unsigned char *mem;
	struct rng r;

	mem = mmap(NULL, DIRBUF + PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(mem != MAP_FAILED);
	ASSERT_EQ(0, mprotect(mem + DIRBUF, PAGE, PROT_NONE));
	r.s = splitmix64(&seed) | 1;
	for (i = 0; i < count; i++) {
		static const unsigned int syncs[] = {
			AT_STATX_SYNC_AS_STAT, AT_STATX_FORCE_SYNC,
			AT_STATX_DONT_SYNC,
		};
		unsigned int flags = below(&r, 4) ? syncs[below(&r, 3)] :
				     rand_flags(&r);
		unsigned int mask = rand_mask(&r);
		size_t size = below(&r, 2) ? sizes[below(&r, ARRAY_SIZE(sizes))] :
				below(&r, DIRBUF + 1);
		size_t stx_size = below(&r, 2) ? sizeof(struct statx) :
				  stx_sizes[below(&r, ARRAY_SIZE(stx_sizes))];
		size_t head = offsetof(struct statx_dirent, d_stx) + stx_size;
		unsigned int k = below(&r, 10);
		bool writable = k < 6;
		unsigned char *buf;
		enum dkind dk;
		int fd = pick_dirfd(f, &r, &dk), want = 0, err;
		ssize_t ret;

		if (k < 6)		/* ending at the PROT_NONE page */
			buf = mem + DIRBUF - size;
		else if (k == 6)
			buf = NULL;
		else if (k == 7)
			buf = f->mem + 4 * PAGE;	/* unmapped */
		else if (k == 8)
			buf = f->mem + PAGE;		/* read-only */
		else
			buf = (unsigned char *)~(uintptr_t)(PAGE - 1);
		if ((flags & ~AT_STATX_SYNC_TYPE) ||
		    (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE ||
		    (mask & STATX__RESERVED) || stx_size < 0x90 ||
		    stx_size > 0x1000 || stx_size % 8)
			want = EINVAL;
		else if (dk != D_DIR && dk != D_FSDIR && dk != D_FILE)
			want = EBADF;
		else if (dk == D_FILE)
			want = ENOTDIR;
		if ((dk == D_DIR || dk == D_FSDIR) && below(&r, 3) == 0)
			lseek(fd, 0, SEEK_SET);
		if (writable)
			memset(buf, STATX_POISON, size);
		ret = sys_statx_dir_sized(fd, buf, size, mask, flags, stx_size);
		err = ret < 0 ? errno : 0;
		hist[ret > 0 ? 0 : !ret ? 1 : err == EINVAL ? 2 : 3]++;
		if (want) {
			if (ret != -1 || err != want) {
				bad++;
				TH_LOG("#%lu %s, %s[%zu], %#x, %#x, %#zx: %zd %s, not %s",
				       i, dnames[dk], writable ? "buf" : "bad buf",
				       size, mask, flags, stx_size, ret,
				       strerror(err), strerror(want));
			}
			continue;
		}
		/* A directory */
		if (ret < 0 && !(err == EINVAL && size < head + 0x100) &&
		    !(err == EFAULT && !writable)) {
			bad++;
			TH_LOG("#%lu %s, %s[%zu], %#x, %#x, %#zx: %s", i,
			       dnames[dk], writable ? "buf" : "bad buf", size,
			       mask, flags, stx_size, strerror(err));
		}
		if (ret > 0) {
			ssize_t pos = 0;

			EXPECT_TRUE(writable);
			EXPECT_GE((ssize_t)size, ret);
			while (pos < ret) {
				const struct statx_dirent *d = (void *)(buf + pos);
				const char *name = (const char *)d + head;

				if (d->d_reclen < head + 8 || d->d_reclen % 8 ||
				    d->d_reclen > ret - pos ||
				    strlen(name) != d->d_namelen)
					break;
				pos += d->d_reclen;
			}
			EXPECT_EQ(ret, pos) TH_LOG("call %lu: a bad record", i);
			for (pos = ret; pos < (ssize_t)size; pos++)
				if (buf[pos] != STATX_POISON)
					break;
			EXPECT_EQ((ssize_t)size, pos)
				TH_LOG("call %lu: byte %zd past %zd written", i,
				       pos, ret);
		}
	}
	ksft_print_msg("statx_dir %lu calls: %lu read, %lu at end, %lu EINVAL, %lu others\n",
		       count, hist[0], hist[1], hist[2], hist[3]);
	EXPECT_EQ(0, bad);
	munmap(mem, DIRBUF + PAGE);
}

TEST_HARNESS_MAIN
