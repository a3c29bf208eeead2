// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) under concurrent change, on a tmpfs of the case's own.
 *
 * mutate: threads call statx() asking for every mask bit, present and
 * future, by path and by fd, while other threads write, truncate, rename,
 * replace and unlink, chmod, utimensat and setxattr the same files, each
 * a fixed number of times.  Every call must succeed (or, by path, fail
 * with ENOENT while a name is being replaced), pass statx_check_result(),
 * and report an inode number and a size the operations can have
 * produced: sizes are whole pages up to MAX_PAGES, file X keeps its inode
 * through renames, and each file found at the replaced name has an inode
 * number recorded before it got that name.  tmpfs returns the change
 * cookie with STATX_ATTR_CHANGE_MONOTONIC: the cookie each thread sees
 * never goes back, in particular after a write() it has seen complete.
 *
 * remount_ro: while statx() runs on a file by path and by fd, the tmpfs
 * is remounted read-only and back (MS_REMOUNT) a fixed number of times;
 * every call must succeed and report the unchanging file exactly, each
 * remount must take effect (statvfs() flags, EROFS on open for writing),
 * and the cookie is the same afterwards.
 *
 * No thread ever waits on a futex: no contended mutex, no blocking
 * pthread_join(), only atomics and polls.
 */
#define _FILE_OFFSET_BITS 64
#include "statx_helpers.h"
#include <assert.h>
#include <poll.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include "../kselftest_harness.h"

#define PAGE		4096
#define MAX_PAGES	16
#define INO_SLOTS	32768	/* power of two */
#define MAX_MSGS	8
/* How many times each changing thread changes; remounts read-only. */
#define ROUNDS		2000
#define REMOUNTS	50

struct world {
	int dirfd;		/* the test directory */
	int fd;			/* file X, renamed between r0 and r1 */
	uint64_t ino_x;
	int stop;		/* the readers stop */
	int busy;		/* changing threads still running */
	uint64_t inos[INO_SLOTS];	/* inodes that may appear as "c" */
	unsigned int ninos;

	int lock;		/* a spinlock: see above */
	int failures;
	char msgs[MAX_MSGS][320];

	/* what happened, for the diagnostics */
	unsigned long statx_calls, enoent, writes, truncs, renames;
	unsigned long creates, unlinks, chmods, utimes, xattrs;
	unsigned long cookie_checks, cookie_advanced;

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

/* A changing thread has made its ROUNDS changes. */
static void *done(struct world *w)
{
	__atomic_fetch_sub(&w->busy, 1, __ATOMIC_RELEASE);
	return NULL;
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
	switch (mode & 07777) {
	case 0644: case 0600: case 0640: case 0444:
		return true;
	}
	return false;
}

struct cookie_seen {
	bool valid;
	uint64_t last;
};

/*
 * The change cookie of file X as this thread saw it: tmpfs returns it, as
 * monotonic, and it must never be smaller than the one the thread saw
 * before.  Returns whether it was there to check.
 */
static bool check_cookie(struct world *w, struct cookie_seen *cs,
			 const struct statx *stx, const char *who)
{
	uint64_t c;

	if (!(stx->stx_mask & STATX_CHANGE_COOKIE) ||
	    !(stx->stx_attributes & STATX_ATTR_CHANGE_MONOTONIC)) {
		fail(w, "%s: no monotonic change cookie (mask %#x, attributes %#llx)",
		     who, stx->stx_mask,
		     (unsigned long long)stx->stx_attributes);
		return false;
	}
	c = stx->stx_change_cookie;
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
	for (unsigned int n = 0; n < ROUNDS; n++) {
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
		    had && after.stx_change_cookie > before.stx_change_cookie)
			count(&w->cookie_advanced);
	}
	return done(w);
}

static void *truncater(void *arg)
{
	struct world *w = arg;
	uint32_t seed = 2;
	unsigned int n;

	for (n = 0; n < ROUNDS; n++) {
		if (ftruncate(w->fd, (off_t)(xorshift(&seed) % (MAX_PAGES + 1)) *
				     PAGE))
			fail(w, "ftruncate: %s", strerror(errno));
		count(&w->truncs);
	}
	return done(w);
}

static void *renamer(void *arg)
{
	struct world *w = arg;
	unsigned int n;

	/* An even number of times: X is r0 again at the end. */
	for (n = 0; n < ROUNDS; n++) {
		if (renameat(w->dirfd, n % 2 ? "r1" : "r0", w->dirfd,
			     n % 2 ? "r0" : "r1"))
			fail(w, "rename: %s", strerror(errno));
		count(&w->renames);
	}
	return done(w);
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

	for (i = 0; i < ROUNDS / 4; i++) {
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
	return done(w);
}

static void *chmodder(void *arg)
{
	static const mode_t modes[] = { 0600, 0640, 0444, 0644 };
	struct world *w = arg;
	unsigned int i;

	for (i = 0; i < ROUNDS; i++) {
		if (fchmod(w->fd, modes[i % 4]))
			fail(w, "fchmod: %s", strerror(errno));
		count(&w->chmods);
	}
	return done(w);
}

static void *utimer(void *arg)
{
	struct world *w = arg;
	uint32_t seed = 4;
	unsigned int n;

	for (n = 0; n < ROUNDS; n++) {
		/* 2001..2030 */
		long long asec = 978307200 + xorshift(&seed) % 900000000;
		long long msec = 978307200 + xorshift(&seed) % 900000000;

		if (statx_utimens(w->fd, NULL, asec, 0, msec,
				  xorshift(&seed) % 1000000000))
			fail(w, "futimens: %s", strerror(errno));
		count(&w->utimes);
	}
	return done(w);
}

static void *xattrer(void *arg)
{
	struct world *w = arg;
	char val[64];
	unsigned int i;

	memset(val, 'x', sizeof(val));
	/* user.* xattrs on tmpfs: CONFIG_TMPFS_XATTR */
	for (i = 0; i < ROUNDS; i++) {
		int r = i % 8 == 7 ? fremovexattr(w->fd, "user.statx") :
			fsetxattr(w->fd, "user.statx", val, 1 + i % 64, 0);

		if (r && errno != ENODATA)
			fail(w, "xattr: %s", strerror(errno));
		count(&w->xattrs);
	}
	return done(w);
}

FIXTURE(stress) {
	char dir[64];
	struct world *w;
	const char *mnt;
};

FIXTURE_SETUP(stress)
{
	struct world *w;
	struct stat st;
	char page[PAGE];
	int i;

	if (!statx_private_tmp(_metadata))
		return;
	w = calloc(1, sizeof(*w));
	ASSERT_TRUE(!!w);
	self->w = w;
	self->mnt = "/tmp/mnt";
	w->fd = -1;
	w->dirfd = -1;
	ASSERT_EQ(0, statx_mount_at("tmpfs", self->mnt, 0, NULL));
	snprintf(self->dir, sizeof(self->dir), "%s/st", self->mnt);
	ASSERT_EQ(0, mkdir(self->dir, 0755)) TH_LOG("mkdir %s: %m", self->dir);
	w->dirfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, w->dirfd);
	w->fd = openat(w->dirfd, "r0", O_CREAT | O_EXCL | O_RDWR, 0644);
	ASSERT_LE(0, w->fd);
	memset(page, 'X', sizeof(page));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(PAGE, write(w->fd, page, PAGE));
	ASSERT_EQ(0, fstat(w->fd, &st));
	w->ino_x = st.st_ino;
}

/* The tmpfs, read-only or not, goes with the namespace. */
FIXTURE_TEARDOWN(stress)
{
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;

	return t->fn(t->w);
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
 * Run @nchange changing threads and the readers after them until each
 * changing thread has made its changes.
 */
static void run_threads(struct world *w, void *(**fn)(void *), int n,
			int nchange)
{
	int started;

	w->busy = nchange;
	started = start_threads(w, fn, n);
	while (started == n && __atomic_load_n(&w->busy, __ATOMIC_ACQUIRE) > 0)
		poll(NULL, 0, 20);
	stop_threads(w, started);
}

static void report(struct __test_metadata *_metadata, struct world *w)
{
	int i;

	for (i = 0; i < w->failures && i < MAX_MSGS; i++)
		TH_LOG("%s", w->msgs[i]);
	EXPECT_EQ(0, w->failures);
}

TEST_F_TIMEOUT(stress, mutate, 120)
{
	void *(*fn[])(void *) = {
		reader_path, reader_path, reader_fd, writer, truncater,
		renamer, creator, chmodder, utimer, xattrer,
	};
	struct world *w = self->w;

	run_threads(w, fn, ARRAY_SIZE(fn), ARRAY_SIZE(fn) - 3);
	ksft_print_msg("%lu statx calls, %lu of them ENOENT\n",
		       w->statx_calls, w->enoent);
	ksft_print_msg("%lu write %lu truncate %lu rename %lu create %lu unlink\n",
		       w->writes, w->truncs, w->renames, w->creates,
		       w->unlinks);
	ksft_print_msg("%lu chmod %lu utimensat %lu xattr\n",
		       w->chmods, w->utimes, w->xattrs);
	ksft_print_msg("cookie checked %lu times, advanced over %lu/%lu writes\n",
		       w->cookie_checks, w->cookie_advanced, w->writes);
	report(_metadata, w);
	/* Every change was made, and every write moved the cookie. */
	EXPECT_EQ(ROUNDS, w->writes);
	EXPECT_EQ(ROUNDS, w->truncs);
	EXPECT_EQ(ROUNDS, w->renames);
	EXPECT_EQ(ROUNDS / 4, w->creates + w->unlinks);
	EXPECT_EQ(ROUNDS, w->chmods);
	EXPECT_EQ(ROUNDS, w->utimes);
	EXPECT_EQ(ROUNDS, w->xattrs);
	EXPECT_EQ(w->writes, w->cookie_advanced);
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
	struct statx before, after;
	int i, n, fd;

	/* Only a read-only fd may stay open across a read-only remount. */
	ASSERT_EQ(0, fsync(w->fd));
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

	n = start_threads(w, fn, 3);
	for (i = 0; i < REMOUNTS; i++) {
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
	}
	stop_threads(w, n);

	ksft_print_msg("%lu read-only remounts (%lu EBUSY) under %lu statx calls\n",
		       toggles, busy, w->statx_calls);
	report(_metadata, w);
	/* Nothing is open for writing: no remount is refused. */
	EXPECT_EQ(REMOUNTS, toggles);
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
	EXPECT_EQ(STATX_CHANGE_COOKIE, after.stx_mask & STATX_CHANGE_COOKIE);
	EXPECT_EQ(before.stx_change_cookie, after.stx_change_cookie);
}

TEST_HARNESS_MAIN
