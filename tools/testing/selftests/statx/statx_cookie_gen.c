// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) STATX_CHANGE_COOKIE and STATX_GEN on a filesystem of each type,
 * which each case makes for itself in a private mount namespace
 * (statx_scratch.h).
 *
 * The change cookie must be returned exactly by the filesystems that keep
 * it, and survive an unmount where the filesystem stores it.  The
 * generation must equal what the filesystem hands out through
 * FS_IOC_GETVERSION and inside its file handles, survive an unmount,
 * differ when an inode number comes back, and reach any caller who can
 * look the file up.  A caller that asks for
 * neither must get the answer it got before they existed.  The rules of
 * the change cookie are tested on filesystems the test makes itself, in
 * statx_cookie_promises.c.
 *
 * On a kernel that does not return the bits (checked on a memfd, a tmpfs
 * file every kernel with the feature answers for), the tests that need
 * them are skipped.
 */
#include "statx_cookie.h"

#include <grp.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include "statx_scratch.h"

#include "../kselftest_harness.h"

#define NOBODY		65534
#define NEW_BITS	(STATX_CHANGE_COOKIE | STATX_GEN)
#define ALL_MASK	(STATX_BASIC_STATS | STATX_BTIME | NEW_BITS)

/* Clear what the feature adds, to compare the rest of two answers. */
static void strip_new(struct statx *stx)
{
	stx->stx_mask &= ~NEW_BITS;
	stx->stx_attributes &= ~STATX_ATTR_CHANGE_MONOTONIC;
	stx->stx_attributes_mask &= ~STATX_ATTR_CHANGE_MONOTONIC;
	memset((char *)stx + STX_COOKIE_OFF, 0, 16);
}

FIXTURE(fs) {
	struct statx_scratch s;
	char dir[256];
	char file[PATH_MAX];
	char link[PATH_MAX];
	bool has_cookie;
	bool has_gen;
};

/*
 * What each filesystem returns.  "cookie": the change cookie (the
 * filesystems that keep it by the rules of the uapi header; xfs counts
 * access time updates and does not return it); "monotonic": it says the
 * cookie only grows; "remount": the cookie and the generation are on its
 * disk, and survive an unmount; "gen": a generation that, with
 * the inode number, names one inode; "ioctl": FS_IOC_GETVERSION.
 */
FIXTURE_VARIANT(fs) {
	const char *fstype;
	bool cookie;
	bool monotonic;
	bool remount;
	bool gen;
	bool ioctl;
	enum handle_layout handle;
};

FIXTURE_VARIANT_ADD(fs, tmpfs) {
	.fstype = "tmpfs",
	.cookie = true, .monotonic = true, .gen = true,
	.handle = HANDLE_SHMEM,
};

FIXTURE_VARIANT_ADD(fs, ext4) {
	.fstype = "ext4",
	.cookie = true, .remount = true, .gen = true, .ioctl = true,
	.handle = HANDLE_INO32,
};

FIXTURE_VARIANT_ADD(fs, xfs) {
	.fstype = "xfs",
	.remount = true, .gen = true, .ioctl = true, .handle = HANDLE_XFS,
};

FIXTURE_VARIANT_ADD(fs, btrfs) {
	.fstype = "btrfs",
	.cookie = true, .remount = true, .gen = true, .ioctl = true,
	.handle = HANDLE_BTRFS,
};

FIXTURE_VARIANT_ADD(fs, ntfs3) {
	.fstype = "ntfs3",
	.remount = true, .gen = true, .handle = HANDLE_INO32,
};

FIXTURE_VARIANT_ADD(fs, vfat) {
	.fstype = "vfat",
};

FIXTURE_VARIANT_ADD(fs, msdos) {
	.fstype = "msdos",
};

FIXTURE_VARIANT_ADD(fs, exfat) {
	.fstype = "exfat",
};

FIXTURE_SETUP(fs)
{
	enum statx_scratch_rc rc;
	int fd;

	rc = statx_scratch_new(&self->s, variant->fstype, 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", self->s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", self->s.why);
	self->has_cookie = kernel_returns(STATX_CHANGE_COOKIE);
	self->has_gen = kernel_returns(STATX_GEN);
	snprintf(self->dir, sizeof(self->dir), "%s/cg.XXXXXX", self->s.mnt);
	ASSERT_TRUE(!!mkdtemp(self->dir));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	snprintf(self->link, sizeof(self->link), "%s/link", self->dir);
	fd = open(self->file, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(6, write(fd, "hello\n", 6));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
}

/* The files go with the filesystem. */
FIXTURE_TEARDOWN(fs)
{
	statx_scratch_umount(&self->s);
}

/*
 * The change cookie of @path, where the test needs one: without it the
 * case fails here and stops, rather than going on with a cookie of 0.
 */
static __u64 get_cookie(struct __test_metadata *_metadata, const char *path)
{
	struct statx stx;
	int err;

	err = sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, ALL_MASK, &stx) ?
	      errno : 0;
	ASSERT_EQ(0, err) {
		TH_LOG("statx(%s): %s", path, strerror(err));
	}
	ASSERT_TRUE(stx.stx_mask & STATX_CHANGE_COOKIE) {
		TH_LOG("statx(%s) returned no change cookie", path);
	}
	return cookie_of(&stx);
}

/*
 * A caller that asks for neither bit gets neither, and the rest of its
 * answer is what a caller asking for both gets.
 */
TEST_F(fs, not_asked)
{
	struct statx old, all;
	int i;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0,
			       STATX_BASIC_STATS | STATX_BTIME, &old));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &all));
	EXPECT_EQ(0, old.stx_mask & NEW_BITS);
	EXPECT_EQ(0, old.stx_attributes & STATX_ATTR_CHANGE_MONOTONIC);
	EXPECT_EQ(0, cookie_of(&old));
	EXPECT_EQ(0, gen_of(&old));
	strip_new(&old);
	strip_new(&all);
	for (i = 0; i < (int)sizeof(old); i++)
		EXPECT_EQ(((unsigned char *)&old)[i],
			  ((unsigned char *)&all)[i])
			TH_LOG("byte 0x%x differs", i);
}

/* The bits are there exactly where the filesystem keeps the data. */
TEST_F(fs, presence)
{
	const char * const paths[] = { self->file, self->dir };
	struct statx stx;
	int i;

	if (!self->has_cookie && !self->has_gen)
		STATX_SKIP(return, "the kernel returns neither STATX_CHANGE_COOKIE nor STATX_GEN");
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, ALL_MASK, &stx));
		if (self->has_cookie) {
			EXPECT_EQ(variant->cookie,
				  !!(stx.stx_mask & STATX_CHANGE_COOKIE));
			if (!variant->cookie)
				EXPECT_EQ(0, cookie_of(&stx));
			EXPECT_EQ(variant->cookie,
				  !!(stx.stx_attributes_mask &
				     STATX_ATTR_CHANGE_MONOTONIC));
			EXPECT_EQ(variant->monotonic,
				  !!(stx.stx_attributes &
				     STATX_ATTR_CHANGE_MONOTONIC));
		}
		if (self->has_gen) {
			EXPECT_EQ(variant->gen, !!(stx.stx_mask & STATX_GEN));
			if (!variant->gen)
				EXPECT_EQ(0, gen_of(&stx));
			/* the spare u32 after stx_gen stays zero */
			EXPECT_EQ(0, stx_u32(&stx, STX_GEN_OFF + 4));
		}
	}
}

/*
 * After an unmount the cookie and the generation are read back from the
 * disk: both are what they were, and the cookie still moves on a change.
 */
TEST_F(fs, remount)
{
	struct statx a, b;
	int fd, ret;

	if (!self->has_cookie && !self->has_gen)
		STATX_SKIP(return, "the kernel returns neither STATX_CHANGE_COOKIE nor STATX_GEN");
	if (!variant->remount)
		STATX_SKIP(return, "%s keeps nothing across an unmount that is tested",
			   variant->fstype);

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &a));
	ASSERT_EQ(0, chdir("/"));
	sync();
	ret = statx_scratch_cycle(&self->s, variant->fstype, 0, NULL);
	ASSERT_EQ(0, ret) TH_LOG("unmount and mount %s again: %s",
				 variant->fstype, strerror(-ret));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &b));
	EXPECT_EQ(a.stx_ino, b.stx_ino);
	EXPECT_EQ(a.stx_mask & NEW_BITS, b.stx_mask & NEW_BITS);
	if (a.stx_mask & STATX_GEN)
		EXPECT_EQ(gen_of(&a), gen_of(&b));
	if (a.stx_mask & STATX_CHANGE_COOKIE) {
		EXPECT_EQ(cookie_of(&a), cookie_of(&b));
		fd = open(self->file, O_WRONLY | O_APPEND);
		ASSERT_LE(0, fd);
		ASSERT_EQ(1, write(fd, "x", 1));
		close(fd);
		EXPECT_NE(cookie_of(&b), get_cookie(_metadata, self->file));
	}
}

/*
 * A remount in place (mount(2) with MS_REMOUNT, which passes MS_I_VERSION
 * in its mask) keeps the counter: the cookie is still returned, unchanged,
 * and still moves with the file.
 */
TEST_F(fs, remount_in_place)
{
	__u64 c0, c1;
	int fd;

	if (!self->has_cookie)
		STATX_SKIP(return, "the kernel does not return STATX_CHANGE_COOKIE");
	if (!variant->cookie)
		STATX_SKIP(return, "%s keeps no change counter",
			   variant->fstype);

	c0 = get_cookie(_metadata, self->file);
	ASSERT_EQ(0, mount(NULL, self->s.mnt, NULL, MS_REMOUNT, NULL))
		TH_LOG("remount %s: %s", self->s.mnt, strerror(errno));
	c1 = get_cookie(_metadata, self->file);
	EXPECT_EQ(c0, c1);
	fd = open(self->file, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(fd, "x", 1));
	close(fd);
	EXPECT_NE(c1, get_cookie(_metadata, self->file));
}

/* The generation is the one the filesystem gives out by other ways. */
TEST_F(fs, gen_matches)
{
	const char * const paths[] = { self->file, self->dir };
	struct statx stx;
	__u32 hgen;
	__u64 hino;
	int i, fd, v;

	if (!self->has_gen)
		STATX_SKIP(return, "the kernel does not return STATX_GEN");
	if (!variant->gen)
		STATX_SKIP(return, "%s keeps no stable generation",
			   variant->fstype);

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0, ALL_MASK, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_GEN);
		if (variant->ioctl) {
			fd = open(paths[i], O_RDONLY);
			ASSERT_LE(0, fd);
			ASSERT_EQ(0, ioctl(fd, FS_IOC_GETVERSION, &v));
			close(fd);
			EXPECT_EQ((__u32)v, gen_of(&stx));
		}
		if (variant->handle != HANDLE_NONE) {
			ASSERT_TRUE(handle_ino_gen(paths[i], variant->handle,
						   &hino, &hgen));
			EXPECT_EQ(hino, stx.stx_ino);
			EXPECT_EQ(hgen, gen_of(&stx));
		}
	}
}

/*
 * When an inode number comes back after an unlink, the generation tells the
 * new inode from the old one.  Filesystems that hand out inode numbers in
 * increasing order (btrfs, tmpfs) do not reuse one in a bounded loop.
 */
TEST_F(fs, gen_reuse)
{
	enum { TRIES = 96 };
	__u64 ino[TRIES];
	__u32 gen[TRIES];
	char name[PATH_MAX];
	int i, j, fd, reused = 0;
	struct statx stx;

	if (!self->has_gen)
		STATX_SKIP(return, "the kernel does not return STATX_GEN");
	if (!variant->gen)
		STATX_SKIP(return, "%s keeps no stable generation",
			   variant->fstype);

	for (i = 0; i < TRIES; i++) {
		snprintf(name, sizeof(name), "%s/reuse%d", self->dir, i);
		fd = open(name, O_CREAT | O_WRONLY | O_EXCL, 0644);
		ASSERT_LE(0, fd);
		close(fd);
		ASSERT_EQ(0, sys_statx(AT_FDCWD, name, 0, ALL_MASK, &stx));
		ASSERT_TRUE(stx.stx_mask & STATX_GEN);
		ino[i] = stx.stx_ino;
		gen[i] = gen_of(&stx);
		ASSERT_EQ(0, unlink(name));
		for (j = 0; j < i; j++) {
			if (ino[j] != ino[i])
				continue;
			reused++;
			EXPECT_NE(gen[j], gen[i])
				TH_LOG("inode %llu came back with generation %u",
				       (unsigned long long)ino[i], gen[i]);
		}
		if (reused >= 3)
			break;
		if (i % 16 == 15)
			sync();
	}
	if (!reused)
		STATX_SKIP(return, "%s reused no inode number in %d tries",
			   variant->fstype, TRIES);
}

/* What nobody_statx() hands back. */
struct nobody_answer {
	int ret[3];
	struct statx stx[3];
	bool handle;
	__u64 hino;
	__u32 hgen;
};

/*
 * Run as nobody: statx by path, by O_PATH descriptor and by io_uring, and
 * name_to_handle_at() of the same path.
 */
static void nobody_statx(const char *path, enum handle_layout layout, int out)
{
	struct nobody_answer a;
	int fd;

	memset(&a, 0, sizeof(a));
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(2);
	a.ret[0] = sys_statx(AT_FDCWD, path, 0, ALL_MASK, &a.stx[0]) ?
		   -errno : 0;
	fd = open(path, O_PATH);
	a.ret[1] = fd < 0 ? -errno :
		   sys_statx(fd, "", AT_EMPTY_PATH, ALL_MASK, &a.stx[1]) ?
		   -errno : 0;
	a.ret[2] = uring_statx(AT_FDCWD, path, 0, ALL_MASK, &a.stx[2]);
	a.handle = handle_ino_gen(path, layout, &a.hino, &a.hgen);
	if (write(out, &a, sizeof(a)) != sizeof(a))
		_exit(3);
	_exit(0);
}

/* How many audit or security module denial lines the kernel log holds. */
static int audit_lines(void)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *p;
	int n = 0;

	if (len <= 0)
		return 0;
	buf = calloc(1, len + 1);
	if (!buf)
		return 0;
	len = klogctl(3, buf, len);	/* SYSLOG_ACTION_READ_ALL */
	for (p = buf; len > 0 && (p = strstr(p, "audit")); p++)
		n++;
	for (p = buf; len > 0 && (p = strstr(p, "avc:")); p++)
		n++;
	free(buf);
	return n;
}

/*
 * The generation has no gate: name_to_handle_at() already gives it, inside
 * the file handle, to anyone who can look the file up, so statx() gives it
 * to the same callers, and the change cookie with it.  A caller who cannot
 * read the file gets the answer root gets, generation and cookie included,
 * by path, by O_PATH descriptor and by io_uring; no security module hook
 * runs for it, so nothing is written to the kernel log.
 */
TEST_F(fs, gen_for_anyone)
{
	static const char * const how[] = { "path", "O_PATH fd", "io_uring" };
	struct nobody_answer a;
	int pfd[2], status, i, audits;
	struct statx root;
	pid_t pid;

	if (!self->has_gen)
		STATX_SKIP(return, "the kernel does not return STATX_GEN");
	if (!variant->gen)
		STATX_SKIP(return, "%s keeps no stable generation",
			   variant->fstype);
	chmod(self->file, 0600);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &root));
	if ((root.stx_mode & 0777) != 0600 || root.stx_uid != 0)
		STATX_SKIP(return, "%s files are mode %o, uid %u: no mode 0600 for root",
			   variant->fstype, root.stx_mode & 0777, root.stx_uid);

	audits = audit_lines();
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pfd[0]);
		nobody_statx(self->file, variant->handle, pfd[1]);
	}
	close(pfd[1]);
	ASSERT_EQ(sizeof(a), read(pfd[0], &a, sizeof(a)));
	close(pfd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);

	ASSERT_TRUE(root.stx_mask & STATX_GEN);
	for (i = 0; i < 3; i++) {
		if (i == 2 && a.ret[i] == NO_URING) {
			TH_LOG("io_uring is not available to uid %d", NOBODY);
			continue;
		}
		ASSERT_EQ(0, a.ret[i]) TH_LOG("statx by %s", how[i]);
		EXPECT_EQ(0, memcmp(&root, &a.stx[i], sizeof(root)))
			TH_LOG("statx by %s: mask %x want %x, gen %llu want %llu",
			       how[i], a.stx[i].stx_mask, root.stx_mask,
			       (unsigned long long)gen_of(&a.stx[i]),
			       (unsigned long long)gen_of(&root));
	}
	if (variant->handle != HANDLE_NONE) {
		EXPECT_TRUE(a.handle);
		EXPECT_EQ(root.stx_ino, a.hino);
		EXPECT_EQ(gen_of(&root), a.hgen);
	}
	EXPECT_EQ(audits, audit_lines());
}

/* io_uring's IORING_OP_STATX gives what the system call gives. */
TEST_F(fs, io_uring)
{
	struct statx sys, ring;
	int ret;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, ALL_MASK, &sys));
	memset(&ring, 0xa5, sizeof(ring));
	ret = uring_statx(AT_FDCWD, self->file, 0, ALL_MASK, &ring);
	if (ret == NO_URING)
		STATX_SKIP(return, "io_uring is not available: %s",
			   strerror(errno));
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, memcmp(&sys, &ring, sizeof(sys)));
}

#ifndef EXT4_IOC_SWAP_BOOT
#define EXT4_IOC_SWAP_BOOT	_IO('f', 17)
#endif

/*
 * EXT4_IOC_SWAP_BOOT exchanges a file's data, size and times with those of
 * the boot loader inode: the inode becomes another file in place.  It gets
 * a new generation, as the uapi header says, and its change cookie moves
 * on from the values it had: never one seen before, although the boot
 * loader inode's counter starts again from 1 when that inode was never
 * used.  The size says whose data the file holds.
 */
TEST(ext4_swap_boot)
{
	enum { WRITES = 16 };
	__u64 seen[WRITES + 3];
	struct statx_scratch s;
	enum statx_scratch_rc rc;
	char file[PATH_MAX];
	struct statx stx;
	int fd, i, j, ret, n = 0;
	__u32 gen;

	if (!kernel_returns(STATX_CHANGE_COOKIE) || !kernel_returns(STATX_GEN))
		STATX_SKIP(return, "the kernel does not return the cookie and generation");
	rc = statx_scratch_new(&s, "ext4", 0, NULL);
	if (rc == SCRATCH_LACKS)
		STATX_SKIP(return, "%s", s.why);
	ASSERT_EQ(SCRATCH_MOUNTED, rc) TH_LOG("%s", s.why);
	snprintf(file, sizeof(file), "%s/swapped", s.mnt);
	fd = open(file, O_CREAT | O_RDWR | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	/* A cookie after each change, the small values first. */
	for (i = 0; i <= WRITES; i++) {
		if (i)
			ASSERT_EQ(1, pwrite(fd, "x", 1, i - 1));
		ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, ALL_MASK, &stx));
		ASSERT_EQ(NEW_BITS, stx.stx_mask & NEW_BITS);
		seen[n++] = cookie_of(&stx);
	}
	ASSERT_EQ(0, fsync(fd));
	gen = gen_of(&stx);

	/* The boot loader inode of a new filesystem was never used: empty. */
	ret = ioctl(fd, EXT4_IOC_SWAP_BOOT) ? errno : 0;
	if (ret == ENOTTY && sizeof(long) == 4) {
		close(fd);
		statx_scratch_umount(&s);
		STATX_SKIP(return,
			   "ext4 does not take EXT4_IOC_SWAP_BOOT from a 32-bit program (ext4_compat_ioctl() does not list it)");
	}
	ASSERT_EQ(0, ret) {
		TH_LOG("EXT4_IOC_SWAP_BOOT: %s", strerror(ret));
	}
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, ALL_MASK, &stx));
	ASSERT_EQ(NEW_BITS, stx.stx_mask & NEW_BITS);
	EXPECT_EQ(0, stx.stx_size);
	EXPECT_NE(gen, gen_of(&stx));
	for (j = 0; j < n; j++)
		EXPECT_NE(seen[j], cookie_of(&stx))
			TH_LOG("after the swap the cookie %llu is one seen before",
			       (unsigned long long)cookie_of(&stx));
	seen[n++] = cookie_of(&stx);
	gen = gen_of(&stx);

	/* And back: the file has its data again, and a cookie of its own. */
	ASSERT_EQ(0, ioctl(fd, EXT4_IOC_SWAP_BOOT));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, ALL_MASK, &stx));
	EXPECT_EQ(WRITES, stx.stx_size);
	EXPECT_NE(gen, gen_of(&stx));
	for (j = 0; j < n; j++)
		EXPECT_NE(seen[j], cookie_of(&stx))
			TH_LOG("after the swap back the cookie %llu is one seen before",
			       (unsigned long long)cookie_of(&stx));
	close(fd);
	statx_scratch_umount(&s);
}

TEST_HARNESS_MAIN
