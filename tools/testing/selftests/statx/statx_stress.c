// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) under concurrent change, on a filesystem of each type that each
 * case makes for itself in a private mount namespace (statx_scratch.h).
 *
 * mutate: threads call statx() asking for every mask bit, present and
 * future, by path and by fd, while other threads write, truncate, rename,
 * replace and unlink, chmod, utimensat and setxattr the same files.  Every
 * call must succeed (or, by path, fail with ENOENT while a name is being
 * replaced), pass statx_check_result(), and report an inode number and a
 * size the operations can have produced: sizes are whole pages up to
 * MAX_PAGES, file X keeps its inode through renames, and each file found
 * at the replaced name has an inode number recorded before it got that
 * name.  Where the kernel returns STATX_CHANGE_COOKIE with
 * STATX_ATTR_CHANGE_MONOTONIC, the cookie each thread sees never goes
 * back, in particular after a write() it has seen complete.
 *
 * remount_ro: while statx() runs on a file by path and by fd, the
 * filesystem is remounted read-only and back (MS_REMOUNT); every call must
 * succeed and report the unchanging file exactly, and each remount must
 * take effect (statvfs() flags, EROFS on open for writing).
 *
 * STATX_STRESS_SECONDS sets the time per filesystem (default 2); a run
 * goes on (up to ten times as long) until every kind of operation has
 * happened a few times, so a slow machine still covers them all.
 *
 * No thread ever waits on a futex (no contended mutex, no blocking
 * pthread_join(), no detached threads racing for glibc's stack cache lock)
 * and times are set with utimensat_time64 where it exists: a -m32 glibc
 * program makes futex waits and utimensat() calls with the time32 system
 * calls, which a kernel without CONFIG_COMPAT_32BIT_TIME lacks.
 */
#define _FILE_OFFSET_BITS 64
#include "statx_check.h"
#include <assert.h>
#include <poll.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include "statx_scratch.h"
#include "../kselftest_harness.h"

#define PAGE		4096
#define MAX_PAGES	16
#define INO_SLOTS	32768	/* power of two */
#define MAX_MSGS	8

struct world {
	int dirfd;		/* the test directory */
	int fd;			/* file X, renamed between r0 and r1 */
	uint64_t ino_x;
	bool posix_modes;	/* chmod stores exactly what it is given */
	int stop;
	uint64_t inos[INO_SLOTS];	/* inodes that may appear as "c" */
	unsigned int ninos;

	int lock;		/* a spinlock: see above */
	int failures;
	char msgs[MAX_MSGS][320];

	/* what happened, for the diagnostics */
	unsigned long statx_calls, enoent, writes, truncs, renames;
	unsigned long creates, unlinks, chmods, utimes, xattrs;
	unsigned long cookie_checks, cookie_advanced, cookie_plain;

	/* the threads */
	struct thread {
		struct world *w;
		void *(*fn)(void *arg);
		pthread_t id;
	} threads[16];
};

static void fail(struct world *w, const char *fmt, ...)
{
	va_list ap;

	while (__atomic_exchange_n(&w->lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	if (w->failures < MAX_MSGS) {
		va_start(ap, fmt);
		vsnprintf(w->msgs[w->failures], sizeof(w->msgs[0]), fmt, ap);
		va_end(ap);
	}
	w->failures++;
	__atomic_store_n(&w->lock, 0, __ATOMIC_RELEASE);
}

static bool stopping(struct world *w)
{
	return __atomic_load_n(&w->stop, __ATOMIC_RELAXED);
}

static void count(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static void ino_add(struct world *w, uint64_t ino)
{
	unsigned int i = (unsigned int)(ino * 0x9e3779b1U) & (INO_SLOTS - 1);

	if (w->ninos >= INO_SLOTS / 2)
		return;
	while (__atomic_load_n(&w->inos[i], __ATOMIC_RELAXED)) {
		if (w->inos[i] == ino)
			return;
		i = (i + 1) & (INO_SLOTS - 1);
	}
	__atomic_store_n(&w->inos[i], ino, __ATOMIC_RELEASE);
	w->ninos++;
}

static bool ino_known(struct world *w, uint64_t ino)
{
	unsigned int i = (unsigned int)(ino * 0x9e3779b1U) & (INO_SLOTS - 1);
	uint64_t v;

	while ((v = __atomic_load_n(&w->inos[i], __ATOMIC_ACQUIRE))) {
		if (v == ino)
			return true;
		i = (i + 1) & (INO_SLOTS - 1);
	}
	return false;
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Is this a size the writers can have produced? */
static bool size_ok(uint64_t size)
{
	return size % PAGE == 0 && size <= (uint64_t)MAX_PAGES * PAGE;
}

static bool mode_ok(struct world *w, unsigned int mode)
{
	if (!S_ISREG(mode))
		return false;
	if (!w->posix_modes)
		return true;
	switch (mode & 07777) {
	case 0644: case 0600: case 0640: case 0444:
		return true;
	}
	return false;
}

/* stx_change_cookie, where the headers name it. */
static uint64_t change_cookie(const struct statx *stx)
{
#if STATX_HDR_HAS_CHANGE_COOKIE
	static_assert(offsetof(struct statx, stx_change_cookie) ==
		       STATX_OFF_CHANGE_COOKIE, "stx_change_cookie not at 0xc8");
	return stx->stx_change_cookie;
#else
	return statx_u64_at(stx, STATX_OFF_CHANGE_COOKIE);
#endif
}

struct cookie_seen {
	bool valid;
	uint64_t last;
};

/*
 * The change cookie of file X as this thread saw it: it must never be
 * smaller than the one the thread saw before.  Returns whether the
 * kernel reported a monotonic cookie at all.
 */
static bool check_cookie(struct world *w, struct cookie_seen *cs,
			 const struct statx *stx, const char *who)
{
	uint64_t c;

	if (!STATX_HDR_HAS_CHANGE_COOKIE ||
	    !(stx->stx_mask & STATX_CHANGE_COOKIE))
		return false;
	if (!(stx->stx_attributes & STATX_ATTR_CHANGE_MONOTONIC)) {
		count(&w->cookie_plain);
		return false;
	}
	c = change_cookie(stx);
	count(&w->cookie_checks);
	if (cs->valid && c < cs->last)
		fail(w, "%s: change cookie went back from %llu to %llu", who,
		     (unsigned long long)cs->last, (unsigned long long)c);
	cs->valid = true;
	cs->last = c;
	return true;
}

static void *reader_path(void *arg)
{
	static const char *const names[] = { "r0", "r1", "c" };
	static const unsigned int sync[] = {
		AT_STATX_SYNC_AS_STAT, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
	};
	struct world *w = arg;
	struct cookie_seen cs = {};
	unsigned int i;

	for (i = 0; !stopping(w); i++) {
		const char *name = names[i % 3];
		unsigned int flags = sync[(i / 3) % 3] |
				     (i & 8 ? AT_SYMLINK_NOFOLLOW : 0);
		char why[256];
		struct statx stx;

		count(&w->statx_calls);
		if (sys_statx(w->dirfd, name, flags, STATX_ALL_BITS, &stx)) {
			if (errno == ENOENT)
				count(&w->enoent);
			else
				fail(w, "statx(%s): %s", name, strerror(errno));
			continue;
		}
		if (statx_check_result(&stx, STATX_ALL_BITS, why, sizeof(why)))
			fail(w, "statx(%s): %s", name, why);
		if (!mode_ok(w, stx.stx_mode))
			fail(w, "statx(%s): stx_mode %#o", name, stx.stx_mode);
		if (!size_ok(stx.stx_size))
			fail(w, "statx(%s): stx_size %llu is no size written", name,
			     (unsigned long long)stx.stx_size);
		if (stx.stx_nlink > 1)
			fail(w, "statx(%s): stx_nlink %u", name, stx.stx_nlink);
		if (name[0] == 'r') {
			if (stx.stx_ino != w->ino_x)
				fail(w, "statx(%s): stx_ino %llu, file X is %llu",
				     name, (unsigned long long)stx.stx_ino,
				     (unsigned long long)w->ino_x);
			else
				check_cookie(w, &cs, &stx, "path reader");
		} else if (!ino_known(w, stx.stx_ino)) {
			fail(w, "statx(c): stx_ino %llu was never created as c",
			     (unsigned long long)stx.stx_ino);
		}
	}
	return NULL;
}

static void *reader_fd(void *arg)
{
	struct world *w = arg;
	struct cookie_seen cs = {};

	while (!stopping(w)) {
		struct statx stx;
		char why[256];

		count(&w->statx_calls);
		if (sys_statx(w->fd, "", AT_EMPTY_PATH, STATX_ALL_BITS, &stx)) {
			fail(w, "statx(fd of X): %s", strerror(errno));
			continue;
		}
		if (statx_check_result(&stx, STATX_ALL_BITS, why, sizeof(why)))
			fail(w, "statx(fd of X): %s", why);
		if (stx.stx_ino != w->ino_x || stx.stx_nlink != 1 ||
		    !size_ok(stx.stx_size) || !mode_ok(w, stx.stx_mode))
			fail(w, "statx(fd of X): ino %llu (X: %llu) nlink %u size %llu mode %#o",
			     (unsigned long long)stx.stx_ino,
			     (unsigned long long)w->ino_x, stx.stx_nlink,
			     (unsigned long long)stx.stx_size, stx.stx_mode);
		check_cookie(w, &cs, &stx, "fd reader");
	}
	return NULL;
}

/* Write a page of X, then look: the cookie is not older than before. */
static void *writer(void *arg)
{
	struct world *w = arg;
	struct cookie_seen cs = {};
	uint32_t seed = 1;
	char page[PAGE];

	memset(page, 'w', sizeof(page));
	while (!stopping(w)) {
		off_t off = (off_t)(xorshift(&seed) % MAX_PAGES) * PAGE;
		struct statx before, after;
		bool had;

		if (sys_statx(w->fd, "", AT_EMPTY_PATH, STATX_CHANGE_COOKIE,
			      &before))
			fail(w, "write thread: statx: %s", strerror(errno));
		had = check_cookie(w, &cs, &before, "before a write()");
		if (pwrite(w->fd, page, PAGE, off) != PAGE) {
			fail(w, "write thread: pwrite: %s", strerror(errno));
			continue;
		}
		count(&w->writes);
		if (sys_statx(w->fd, "", AT_EMPTY_PATH, STATX_CHANGE_COOKIE,
			      &after))
			fail(w, "write thread: statx: %s", strerror(errno));
		if (check_cookie(w, &cs, &after, "after a completed write()") &&
		    had && change_cookie(&after) > change_cookie(&before))
			count(&w->cookie_advanced);
	}
	return NULL;
}

static void *truncater(void *arg)
{
	struct world *w = arg;
	uint32_t seed = 2;

	while (!stopping(w)) {
		if (ftruncate(w->fd, (off_t)(xorshift(&seed) % (MAX_PAGES + 1)) *
				     PAGE))
			fail(w, "ftruncate: %s", strerror(errno));
		count(&w->truncs);
	}
	return NULL;
}

static void *renamer(void *arg)
{
	struct world *w = arg;
	int i;

	for (i = 0; !stopping(w); i ^= 1) {
		if (renameat(w->dirfd, i ? "r1" : "r0", w->dirfd,
			     i ? "r0" : "r1"))
			fail(w, "rename: %s", strerror(errno));
		count(&w->renames);
	}
	return NULL;
}

/*
 * Make "new", record its inode, give it a size, and move it over "c";
 * now and then unlink "c" instead.
 */
static void *creator(void *arg)
{
	static char data[MAX_PAGES * PAGE];
	struct world *w = arg;
	uint32_t seed = 3;
	unsigned int i;

	for (i = 0; !stopping(w); i++) {
		size_t len = (xorshift(&seed) % (MAX_PAGES + 1)) * PAGE;
		struct stat st;
		int fd;

		if (i % 4 == 3) {
			if (unlinkat(w->dirfd, "c", 0) && errno != ENOENT)
				fail(w, "unlink c: %s", strerror(errno));
			count(&w->unlinks);
			continue;
		}
		fd = openat(w->dirfd, "new", O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0) {
			fail(w, "create new: %s", strerror(errno));
			break;
		}
		if (fstat(fd, &st))
			fail(w, "fstat new: %s", strerror(errno));
		ino_add(w, st.st_ino);
		if (len && write(fd, data, len) != (ssize_t)len)
			fail(w, "write new: %s", strerror(errno));
		close(fd);
		if (renameat(w->dirfd, "new", w->dirfd, "c"))
			fail(w, "rename new c: %s", strerror(errno));
		count(&w->creates);
	}
	return NULL;
}

static void *chmodder(void *arg)
{
	static const mode_t modes[] = { 0600, 0640, 0444, 0644 };
	struct world *w = arg;
	unsigned int i;

	for (i = 0; !stopping(w); i++) {
		/* FAT-like filesystems refuse some modes: fine. */
		if (fchmod(w->fd, modes[i % 4]) && errno != EPERM)
			fail(w, "fchmod: %s", strerror(errno));
		count(&w->chmods);
	}
	return NULL;
}

/* futimens(), with 64-bit times in the -m32 build too. */
static int set_times(int fd, const struct timespec ts[2])
{
#ifdef __NR_utimensat_time64
	struct { int64_t sec, nsec; } t[2] = {
		{ ts[0].tv_sec, ts[0].tv_nsec }, { ts[1].tv_sec, ts[1].tv_nsec },
	};

	return syscall(__NR_utimensat_time64, fd, NULL, t, 0);
#else
	return futimens(fd, ts);
#endif
}

static void *utimer(void *arg)
{
	struct world *w = arg;
	uint32_t seed = 4;

	while (!stopping(w)) {
		/* 2001..2030: every filesystem here can store those. */
		struct timespec ts[2] = {
			{ 978307200 + xorshift(&seed) % 900000000, 0 },
			{ 978307200 + xorshift(&seed) % 900000000,
			  xorshift(&seed) % 1000000000 },
		};

		if (set_times(w->fd, ts))
			fail(w, "futimens: %s", strerror(errno));
		count(&w->utimes);
	}
	return NULL;
}

static void *xattrer(void *arg)
{
	struct world *w = arg;
	char val[64];
	unsigned int i;

	memset(val, 'x', sizeof(val));
	for (i = 0; !stopping(w); i++) {
		int r = i % 8 == 7 ? fremovexattr(w->fd, "user.statx") :
			fsetxattr(w->fd, "user.statx", val, 1 + i % 64, 0);

		if (r && (errno == EOPNOTSUPP || errno == ENOTSUP))
			break;	/* no user xattrs on this filesystem */
		if (r && errno != ENODATA)
			fail(w, "xattr: %s", strerror(errno));
		count(&w->xattrs);
	}
	return NULL;
}

FIXTURE(stress) {
	struct statx_scratch s;
	char dir[PATH_MAX];
	struct world *w;
	const char *mnt;
};

FIXTURE_VARIANT(stress) {
	const char *fstype;
	bool posix_modes;
};

FIXTURE_VARIANT_ADD(stress, tmpfs) {
	.fstype = "tmpfs", .posix_modes = true,
};

FIXTURE_VARIANT_ADD(stress, ext4) {
	.fstype = "ext4", .posix_modes = true,
};

FIXTURE_VARIANT_ADD(stress, xfs) {
	.fstype = "xfs", .posix_modes = true,
};

FIXTURE_VARIANT_ADD(stress, btrfs) {
	.fstype = "btrfs", .posix_modes = true,
};

FIXTURE_VARIANT_ADD(stress, vfat) {
	.fstype = "vfat",
};

FIXTURE_VARIANT_ADD(stress, msdos) {
	.fstype = "msdos",
};

FIXTURE_VARIANT_ADD(stress, exfat) {
	.fstype = "exfat",
};

FIXTURE_VARIANT_ADD(stress, ntfs3) {
	.fstype = "ntfs3",
};

FIXTURE_SETUP(stress)
{
	enum statx_scratch_rc rc;
	struct world *w;
	struct stat st;
	char page[PAGE];
	int i;

	rc = statx_scratch_new(&self->s, variant->fstype, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	w = calloc(1, sizeof(*w));
	ASSERT_TRUE(!!w);
	self->w = w;
	self->mnt = self->s.mnt;
	w->posix_modes = variant->posix_modes;
	w->fd = -1;
	snprintf(self->dir, sizeof(self->dir), "%s/st%05d", self->mnt,
		 getpid() % 100000);
	ASSERT_EQ(0, mkdir(self->dir, 0755)) TH_LOG("mkdir %s: %m", self->dir);
	w->dirfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, w->dirfd);
	w->fd = openat(w->dirfd, "r0", O_CREAT | O_EXCL | O_RDWR, 0644);
	ASSERT_LE(0, w->fd);
	memset(page, 'X', sizeof(page));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(PAGE, write(w->fd, page, PAGE));
	ASSERT_EQ(0, fsync(w->fd));
	ASSERT_EQ(0, fstat(w->fd, &st));
	w->ino_x = st.st_ino;
}

FIXTURE_TEARDOWN(stress)
{
	struct world *w = self->w;

	/* The filesystem, read-only or not, goes with the namespace. */
	if (w) {
		if (w->fd >= 0)
			close(w->fd);
		close(w->dirfd);
	}
	statx_scratch_umount(&self->s);
}

static unsigned int stress_seconds(void)
{
	const char *v = getenv("STATX_STRESS_SECONDS");

	return v && atoi(v) > 0 ? atoi(v) : 2;
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;

	return t->fn(t->w);
}

static double elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Start threads running @fn on @w. */
static int start_threads(struct world *w, void *(**fn)(void *), int n)
{
	int i;

	for (i = 0; i < n; i++) {
		w->threads[i].w = w;
		w->threads[i].fn = fn[i];
		if (pthread_create(&w->threads[i].id, NULL, thread_main,
				   &w->threads[i])) {
			fail(w, "pthread_create: %s", strerror(errno));
			break;
		}
	}
	return i;
}

/* Tell the threads to stop and join them, polling rather than waiting. */
static void stop_threads(struct world *w, int n)
{
	int i;

	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		while (pthread_tryjoin_np(w->threads[i].id, NULL) == EBUSY)
			poll(NULL, 0, 5);
}

/*
 * Run the threads for @seconds, and on (up to ten times as long) until
 * @enough says every operation had its turn.
 */
static void run_threads(struct world *w, void *(**fn)(void *), int n,
			unsigned int seconds, bool (*enough)(struct world *))
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = start_threads(w, fn, n);
	while (elapsed(&t0) < seconds ||
	       (!enough(w) && elapsed(&t0) < 10.0 * seconds))
		poll(NULL, 0, 20);
	stop_threads(w, n);
}

static void report(struct __test_metadata *_metadata, struct world *w)
{
	int i;

	for (i = 0; i < w->failures && i < MAX_MSGS; i++)
		TH_LOG("%s", w->msgs[i]);
	EXPECT_EQ(0, w->failures);
}

static bool mutated_enough(struct world *w)
{
	return w->writes >= 50 && w->truncs >= 50 && w->renames >= 50 &&
	       w->creates >= 20 && w->unlinks >= 5 && w->chmods >= 50 &&
	       w->utimes >= 50 && w->statx_calls >= 2000;
}

TEST_F_TIMEOUT(stress, mutate, 120)
{
	void *(*fn[])(void *) = {
		reader_path, reader_path, reader_fd, writer, truncater,
		renamer, creator, chmodder, utimer, xattrer,
	};
	struct world *w = self->w;

	run_threads(w, fn, ARRAY_SIZE(fn), stress_seconds(),
		    mutated_enough);
	ksft_print_msg("%s: %lu statx calls, %lu of them ENOENT\n",
		       variant->fstype, w->statx_calls, w->enoent);
	ksft_print_msg("%s: %lu write %lu truncate %lu rename %lu create %lu unlink\n",
		       variant->fstype, w->writes, w->truncs, w->renames,
		       w->creates, w->unlinks);
	ksft_print_msg("%s: %lu chmod %lu utimensat %lu xattr\n",
		       variant->fstype, w->chmods, w->utimes, w->xattrs);
	if (w->cookie_checks)
		ksft_print_msg("%s: cookie checked %lu times, advanced over %lu/%lu writes\n",
			       variant->fstype, w->cookie_checks,
			       w->cookie_advanced, w->writes);
	else if (w->cookie_plain)
		ksft_print_msg("%s: change cookie without CHANGE_MONOTONIC, not checked\n",
			       variant->fstype);
	else
		ksft_print_msg("%s: no change cookie (%s), not checked\n",
			       variant->fstype, STATX_HDR_HAS_CHANGE_COOKIE ?
			       "the kernel did not return one" :
			       "the headers lack stx_change_cookie");
	report(_metadata, w);
	/* Every kind of operation must have happened. */
	EXPECT_LT(0, w->writes);
	EXPECT_LT(0, w->truncs);
	EXPECT_LT(0, w->renames);
	EXPECT_LT(0, w->creates);
	EXPECT_LT(0, w->unlinks);
	EXPECT_LT(0, w->chmods);
	EXPECT_LT(0, w->utimes);
	EXPECT_LT(0, w->statx_calls);
}

static void check_frozen(struct world *w, const struct stat *st,
			 const char *who, int ret, const struct statx *stx)
{
	char why[256];

	count(&w->statx_calls);
	if (ret) {
		fail(w, "%s: %s during remount", who, strerror(errno));
		return;
	}
	if (statx_check_result(stx, STATX_ALL_BITS, why, sizeof(why)))
		fail(w, "%s: %s", who, why);
	if (stx->stx_ino != st->st_ino || stx->stx_size != (uint64_t)st->st_size ||
	    stx->stx_mode != st->st_mode ||
	    stx->stx_mtime.tv_sec != st->st_mtim.tv_sec ||
	    stx->stx_mtime.tv_nsec != st->st_mtim.tv_nsec)
		/* ino, size, mode, mtime: now and before the remounts */
		fail(w, "%s: %llu %llu %#o %lld.%09u, was %llu %llu %#o %lld.%09ld",
		     who, (unsigned long long)stx->stx_ino,
		     (unsigned long long)stx->stx_size, stx->stx_mode,
		     (long long)stx->stx_mtime.tv_sec, stx->stx_mtime.tv_nsec,
		     (unsigned long long)st->st_ino,
		     (unsigned long long)st->st_size, st->st_mode,
		     (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
}

/* File r0 as it was before the remounts started. */
static struct stat frozen_st;

static void *frozen_path(void *arg)
{
	struct world *w = arg;

	while (!stopping(w)) {
		struct statx stx;
		int r = sys_statx(w->dirfd, "r0", 0, STATX_ALL_BITS, &stx);

		check_frozen(w, &frozen_st, "statx(r0)", r, &stx);
	}
	return NULL;
}

static void *frozen_fd(void *arg)
{
	struct world *w = arg;

	while (!stopping(w)) {
		struct statx stx;
		int r = sys_statx(w->fd, "", AT_EMPTY_PATH, STATX_ALL_BITS,
				  &stx);

		check_frozen(w, &frozen_st, "statx(fd of r0)", r, &stx);
	}
	return NULL;
}

static bool is_rdonly(const char *mnt)
{
	struct statvfs sv;

	return !statvfs(mnt, &sv) && (sv.f_flag & ST_RDONLY);
}

TEST_F_TIMEOUT(stress, remount_ro, 120)
{
	void *(*fn[])(void *) = { frozen_path, frozen_path, frozen_fd };
	struct world *w = self->w;
	unsigned long toggles = 0, busy = 0;
	unsigned int seconds = (stress_seconds() + 1) / 2;
	struct statx before, after;
	struct timespec t0;
	int n, fd;

	/* Only a read-only fd may stay open across a read-only remount. */
	close(w->fd);
	w->fd = openat(w->dirfd, "r0", O_RDONLY);
	ASSERT_LE(0, w->fd);
	ASSERT_EQ(0, fstat(w->fd, &frozen_st));
	ASSERT_EQ(0, sys_statx(w->fd, "", AT_EMPTY_PATH, STATX_ALL_BITS,
			       &before));
	ASSERT_EQ(0, mount(NULL, self->mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL))
		TH_LOG("remount %s ro: %m", self->mnt);
	ASSERT_EQ(0, mount(NULL, self->mnt, NULL, MS_REMOUNT, NULL))
		TH_LOG("remount %s rw: %m", self->mnt);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = start_threads(w, fn, 3);
	do {
		if (mount(NULL, self->mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL)) {
			if (errno != EBUSY)
				fail(w, "remount ro: %s", strerror(errno));
			busy++;
		} else {
			toggles++;
			if (!is_rdonly(self->mnt))
				fail(w, "remounted ro, statvfs says rw");
			fd = openat(w->dirfd, "r0", O_WRONLY);
			if (fd >= 0 || errno != EROFS)
				fail(w, "open for writing on a ro mount: %s",
				     fd >= 0 ? "succeeded" : strerror(errno));
			if (fd >= 0)
				close(fd);
		}
		if (mount(NULL, self->mnt, NULL, MS_REMOUNT, NULL))
			fail(w, "remount rw: %s", strerror(errno));
		else if (is_rdonly(self->mnt))
			fail(w, "remounted rw, statvfs says ro");
	} while (elapsed(&t0) < seconds ||
		 ((toggles < 5 || w->statx_calls < 1000) &&
		  elapsed(&t0) < 10.0 * seconds));
	stop_threads(w, n);

	ksft_print_msg("%s: %lu read-only remounts (%lu EBUSY) under %lu statx calls\n",
		       variant->fstype, toggles, busy, w->statx_calls);
	report(_metadata, w);
	EXPECT_LT(0, toggles);
	EXPECT_FALSE(is_rdonly(self->mnt));

	/*
	 * Back to read-write, the unchanged file looks as it did before: the
	 * same fields (a remount must not lose i_version, say), attributes
	 * and change cookie.
	 */
	ASSERT_EQ(0, sys_statx(w->fd, "", AT_EMPTY_PATH, STATX_ALL_BITS,
			       &after));
	EXPECT_EQ(before.stx_mask, after.stx_mask);
	EXPECT_EQ(before.stx_attributes, after.stx_attributes);
	EXPECT_EQ(before.stx_attributes_mask, after.stx_attributes_mask);
	if (before.stx_mask & after.stx_mask & STATX_CHANGE_COOKIE)
		EXPECT_EQ(change_cookie(&before), change_cookie(&after));
}

TEST_HARNESS_MAIN
