// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) argument checking: each bad input gets its exact errno and
 * leaves the buffer untouched, as does an error of the filesystem, and
 * each form of AT_EMPTY_PATH returns the file the descriptor refers to.
 * The scratch tree is on a tmpfs of the case's own; the permission case
 * runs as uid 65534.
 */
#include "statx_helpers.h"

#include <signal.h>

#include "../kselftest_harness.h"

FIXTURE(args) {
	char dir[64];
	char file[96];
	char subdir[96];
	struct statx stx;
	struct stat file_st;
};

/*
 * A scratch tree on a private tmpfs, searchable by everyone:
 *	DIR/file	a regular file with 5 bytes
 *	DIR/sub/	an empty directory
 */
FIXTURE_SETUP(args)
{
	if (!statx_private_tmp(_metadata))
		return;
	snprintf(self->dir, sizeof(self->dir), "/tmp/statx_errno");
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	snprintf(self->subdir, sizeof(self->subdir), "%s/sub", self->dir);
	ASSERT_EQ(0, statx_put_file(self->file, "data\n", 5));
	ASSERT_EQ(0, mkdir(self->subdir, 0755));
	ASSERT_EQ(0, stat(self->file, &self->file_st));
}

/* The tree goes with the case's mount namespace. */
FIXTURE_TEARDOWN(args)
{
}

/* Is @stx still all poison? */
static bool untouched(const struct statx *stx)
{
	const unsigned char *p = (const unsigned char *)stx;
	unsigned int i;

	for (i = 0; i < sizeof(*stx); i++)
		if (p[i] != STATX_POISON)
			return false;
	return true;
}

/*
 * statx() must fail with @err and not write to the buffer.  A macro, so
 * that a failure names the line of the case.
 */
#define EXPECT_STATX_ERR(err, dfd, path, flags, mask) do {		\
	const int __want = (err);					\
									\
	memset(&self->stx, STATX_POISON, sizeof(self->stx));		\
	EXPECT_EQ(-1, sys_statx(dfd, path, flags, mask, &self->stx));	\
	EXPECT_EQ(__want, errno) {					\
		TH_LOG("expected %s, got %s", strerror(__want),		\
		       strerror(errno));				\
	}								\
	EXPECT_TRUE(untouched(&self->stx));				\
} while (0)

/* statx() must succeed and return the inode @ino. */
#define EXPECT_STATX_INO(ino, dfd, path, flags, mask) do {		\
	memset(&self->stx, STATX_POISON, sizeof(self->stx));		\
	EXPECT_EQ(0, sys_statx(dfd, path, flags, mask, &self->stx)) {	\
		TH_LOG("statx: %s", strerror(errno));			\
	}								\
	EXPECT_EQ(STATX_INO, self->stx.stx_mask & STATX_INO);		\
	EXPECT_EQ((__u64)(ino), self->stx.stx_ino);			\
} while (0)

TEST_F(args, reserved_mask_bit)
{
	EXPECT_STATX_ERR(EINVAL, AT_FDCWD, self->file, 0, STATX__RESERVED);
	EXPECT_STATX_ERR(EINVAL, AT_FDCWD, self->file, 0,
			 STATX__RESERVED | STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EINVAL, AT_FDCWD, self->file, 0, ~0U);
	/* The mask is checked before the path is looked up. */
	EXPECT_STATX_ERR(EINVAL, AT_FDCWD, "/nonexistent", 0, STATX__RESERVED);
	/* ... and before the fd is looked at. */
	EXPECT_STATX_ERR(EINVAL, -1, "", AT_EMPTY_PATH, STATX__RESERVED);
}

/* Every other mask bit, known or not, is accepted. */
TEST_F(args, unknown_mask_bits_ignored)
{
	EXPECT_STATX_INO(self->file_st.st_ino, AT_FDCWD, self->file, 0, 0);
	EXPECT_STATX_INO(self->file_st.st_ino, AT_FDCWD, self->file, 0,
			 ~STATX__RESERVED);
	EXPECT_EQ(0, self->stx.stx_mask & ~statx_known_mask());
}

/* Each flag bit the kernel does not know is EINVAL, each it knows is not. */
TEST_F(args, flag_bits)
{
	unsigned int bit, flags;

	for (bit = 0; bit < 32; bit++) {
		flags = 1U << bit;
		if (flags & STATX_VALID_FLAGS) {
			EXPECT_STATX_INO(self->file_st.st_ino, AT_FDCWD,
					 self->file, flags, STATX_BASIC_STATS);
		} else {
			EXPECT_STATX_ERR(EINVAL, AT_FDCWD, self->file, flags,
					 STATX_BASIC_STATS);
			/* also when the path does not exist */
			EXPECT_STATX_ERR(EINVAL, AT_FDCWD, "/nonexistent",
					 flags, STATX_BASIC_STATS);
		}
	}
}

/*
 * An unknown flag is EINVAL also where an empty or NULL path makes the
 * kernel use the descriptor without a path walk, for statx() as for
 * fstatat(), and with AT_FDCWD.
 */
TEST_F(args, unknown_flag_with_empty_path)
{
	int fd = open(self->file, O_RDONLY);
	struct stat st;

	ASSERT_LE(0, fd);
	EXPECT_STATX_ERR(EINVAL, fd, "", AT_EMPTY_PATH | AT_REMOVEDIR,
			 STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EINVAL, fd, NULL, AT_EMPTY_PATH | AT_SYMLINK_FOLLOW,
			 STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EINVAL, AT_FDCWD, "", AT_EMPTY_PATH | AT_REMOVEDIR,
			 STATX_BASIC_STATS);
	EXPECT_EQ(-1, fstatat(fd, "", &st, AT_EMPTY_PATH | AT_REMOVEDIR));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST_F(args, force_and_dont_sync)
{
	int fd = open(self->file, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_STATX_ERR(EINVAL, AT_FDCWD, self->file,
			 AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC,
			 STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EINVAL, fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_TYPE,
			 STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EINVAL, fd, NULL, AT_EMPTY_PATH | AT_STATX_SYNC_TYPE,
			 STATX_BASIC_STATS);
	close(fd);
}

TEST_F(args, bad_path_pointer)
{
	char *page;
	int fd = open(self->file, O_RDONLY);

	ASSERT_LE(0, fd);
	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(page != MAP_FAILED);
	EXPECT_STATX_ERR(EFAULT, AT_FDCWD, (char *)8, 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EFAULT, AT_FDCWD, page, 0, STATX_BASIC_STATS);
	/* A bad pointer is not an empty path, even with AT_EMPTY_PATH. */
	EXPECT_STATX_ERR(EFAULT, fd, page, AT_EMPTY_PATH, STATX_BASIC_STATS);
	/* A NULL path without AT_EMPTY_PATH is a bad pointer too. */
	EXPECT_STATX_ERR(EFAULT, AT_FDCWD, NULL, 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EFAULT, fd, NULL, 0, STATX_BASIC_STATS);
	munmap(page, 4096);
	close(fd);
}

/*
 * A buffer the kernel cannot write: no mapping, a read-only mapping, and
 * one that ends half-way into an unmapped page.
 */
TEST_F(args, bad_buffer_pointer)
{
	unsigned char *page;
	struct statx *stx;
	int fd = open(self->file, O_RDONLY);

	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
				(struct statx *)8));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
				(struct statx *)8));
	EXPECT_EQ(EFAULT, errno);

	page = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(page != MAP_FAILED);
	errno = 0;
	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
				(struct statx *)page));
	EXPECT_EQ(EFAULT, errno);

	ASSERT_EQ(0, mprotect(page, 4096, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, munmap(page + 4096, 4096));
	stx = (struct statx *)(page + 4096 - 128);
	memset(stx, STATX_POISON, 128);
	errno = 0;
	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
				stx));
	EXPECT_EQ(EFAULT, errno);
	/* The whole buffer fits in the page: works. */
	stx = (struct statx *)(page + 4096 - sizeof(*stx));
	EXPECT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
			       stx));
	EXPECT_EQ(self->file_st.st_ino, stx->stx_ino);
	munmap(page, 4096);
	close(fd);
}

TEST_F(args, empty_path)
{
	EXPECT_STATX_ERR(ENOENT, AT_FDCWD, "", 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(ENOENT, AT_FDCWD, "", AT_SYMLINK_NOFOLLOW,
			 STATX_BASIC_STATS);
}

TEST_F(args, empty_path_regular_fd)
{
	int fd = open(self->file, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, "", AT_EMPTY_PATH,
			 STATX_BASIC_STATS);
	EXPECT_EQ(5, self->stx.stx_size);
	/* The fast path and the path walk agree. */
	EXPECT_STATX_INO(self->file_st.st_ino, fd, "",
			 AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			 STATX_BASIC_STATS);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, "",
			 AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_STATX_FORCE_SYNC,
			 STATX_BASIC_STATS);
	/* A relative path from a regular file: ENOTDIR */
	EXPECT_STATX_ERR(ENOTDIR, fd, "x", 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(ENOTDIR, fd, "x", AT_EMPTY_PATH, STATX_BASIC_STATS);
	close(fd);
}

TEST_F(args, empty_path_directory_fd)
{
	struct stat st;
	int fd = open(self->subdir, O_RDONLY | O_DIRECTORY);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, stat(self->subdir, &st));
	EXPECT_STATX_INO(st.st_ino, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS);
	EXPECT_TRUE(S_ISDIR(self->stx.stx_mode));
	/* Relative to the directory */
	EXPECT_STATX_INO(self->file_st.st_ino, fd, "../file", 0,
			 STATX_BASIC_STATS);
	EXPECT_STATX_ERR(ENOENT, fd, "file", 0, STATX_BASIC_STATS);
	close(fd);
}

TEST_F(args, empty_path_o_path_fd)
{
	int fd = open(self->file, O_PATH);

	ASSERT_LE(0, fd);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, "", AT_EMPTY_PATH,
			 STATX_BASIC_STATS);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, NULL, AT_EMPTY_PATH,
			 STATX_BASIC_STATS);
	close(fd);
}

/* AT_FDCWD with an empty path is the working directory. */
TEST_F(args, empty_path_at_fdcwd)
{
	struct stat st;
	char cwd[PATH_MAX];

	ASSERT_TRUE(!!getcwd(cwd, sizeof(cwd)));
	ASSERT_EQ(0, chdir(self->subdir));
	ASSERT_EQ(0, stat(".", &st));
	EXPECT_STATX_INO(st.st_ino, AT_FDCWD, "", AT_EMPTY_PATH,
			 STATX_BASIC_STATS);
	/* NULL is the empty path here too. */
	EXPECT_STATX_INO(st.st_ino, AT_FDCWD, NULL, AT_EMPTY_PATH,
			 STATX_BASIC_STATS);
	ASSERT_EQ(0, chdir(cwd));
}

/* A NULL path with AT_EMPTY_PATH names the descriptor, whatever the flags. */
TEST_F(args, null_path_empty_path)
{
	int fd = open(self->file, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, NULL, AT_EMPTY_PATH,
			 STATX_BASIC_STATS);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, NULL,
			 AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC,
			 STATX_BASIC_STATS);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, NULL,
			 AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS);
	close(fd);
}

TEST_F(args, bad_fd)
{
	int fd = open(self->file, O_RDONLY);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	EXPECT_STATX_ERR(EBADF, -1, "file", 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EBADF, fd, "file", 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EBADF, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EBADF, fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EBADF, -1, "", AT_EMPTY_PATH, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(EBADF, INT_MAX, "", AT_EMPTY_PATH, STATX_BASIC_STATS);
	/* An absolute path ignores the descriptor. */
	EXPECT_STATX_INO(self->file_st.st_ino, -1, self->file, 0,
			 STATX_BASIC_STATS);
	EXPECT_STATX_INO(self->file_st.st_ino, fd, self->file, 0,
			 STATX_BASIC_STATS);
}

TEST_F(args, not_a_directory)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/x", self->file);
	EXPECT_STATX_ERR(ENOTDIR, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	snprintf(path, sizeof(path), "%s/", self->file);
	EXPECT_STATX_ERR(ENOTDIR, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(ENOTDIR, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
			 STATX_BASIC_STATS);
}

TEST_F(args, no_such_file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/missing", self->dir);
	EXPECT_STATX_ERR(ENOENT, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	snprintf(path, sizeof(path), "%s/missing/x", self->dir);
	EXPECT_STATX_ERR(ENOENT, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	/* A dangling symlink: ENOENT following it, the link itself without. */
	snprintf(path, sizeof(path), "%s/dangling", self->dir);
	ASSERT_EQ(0, symlink("missing", path));
	EXPECT_STATX_ERR(ENOENT, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	memset(&self->stx, 0, sizeof(self->stx));
	EXPECT_EQ(0, sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
			       STATX_BASIC_STATS, &self->stx));
	EXPECT_TRUE(S_ISLNK(self->stx.stx_mode));
	EXPECT_EQ(7, self->stx.stx_size);
}

TEST_F(args, name_too_long)
{
	char *path = malloc(PATH_MAX + 2);
	char name[NAME_MAX + 2];
	struct stat root;

	ASSERT_TRUE(!!path);
	/* A component of NAME_MAX + 1 bytes */
	memset(name, 'a', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	snprintf(path, PATH_MAX, "%s/%s", self->dir, name);
	EXPECT_STATX_ERR(ENAMETOOLONG, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	/* NAME_MAX bytes is allowed: it just does not exist. */
	name[NAME_MAX] = '\0';
	snprintf(path, PATH_MAX, "%s/%s", self->dir, name);
	EXPECT_STATX_ERR(ENOENT, AT_FDCWD, path, 0, STATX_BASIC_STATS);

	/* PATH_MAX bytes with the terminating NUL do not fit. */
	memset(path, '/', PATH_MAX);
	path[PATH_MAX] = '\0';
	EXPECT_STATX_ERR(ENAMETOOLONG, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	/* PATH_MAX - 1 slashes are the root directory. */
	path[PATH_MAX - 1] = '\0';
	ASSERT_EQ(0, stat("/", &root));
	EXPECT_STATX_INO(root.st_ino, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	free(path);
}

/*
 * A chain of 40 symlinks resolves (MAXSYMLINKS); one more is ELOOP, as is
 * a link to itself.  AT_SYMLINK_NOFOLLOW stops at the first link.
 */
TEST_F(args, symlink_loop)
{
	char path[PATH_MAX], target[32];
	int i;

	for (i = 1; i <= 41; i++) {
		snprintf(path, sizeof(path), "%s/l%d", self->dir, i);
		if (i == 1)
			snprintf(target, sizeof(target), "file");
		else
			snprintf(target, sizeof(target), "l%d", i - 1);
		ASSERT_EQ(0, symlink(target, path));
	}
	snprintf(path, sizeof(path), "%s/l40", self->dir);
	EXPECT_STATX_INO(self->file_st.st_ino, AT_FDCWD, path, 0,
			 STATX_BASIC_STATS);
	snprintf(path, sizeof(path), "%s/l41", self->dir);
	EXPECT_STATX_ERR(ELOOP, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	memset(&self->stx, 0, sizeof(self->stx));
	EXPECT_EQ(0, sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
			       STATX_BASIC_STATS, &self->stx));
	EXPECT_TRUE(S_ISLNK(self->stx.stx_mode));

	snprintf(path, sizeof(path), "%s/self", self->dir);
	ASSERT_EQ(0, symlink("self", path));
	EXPECT_STATX_ERR(ELOOP, AT_FDCWD, path, 0, STATX_BASIC_STATS);
	snprintf(path, sizeof(path), "%s/self/x", self->dir);
	EXPECT_STATX_ERR(ELOOP, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
			 STATX_BASIC_STATS);
}

/*
 * Permission: resolving a path needs search (x) permission on every
 * directory on the way, nothing on the file itself.  Run as uid 65534.
 */
static int nobody(int dfd, const char *path, unsigned int flags,
		  struct statx *stx)
{
	return statx_as_nobody(dfd, path, flags, STATX_BASIC_STATS, stx);
}

TEST_F(args, search_permission)
{
	char locked[256], path[PATH_MAX];
	struct statx stx;
	int fd, dfd, ret;

	snprintf(locked, sizeof(locked), "%s/locked", self->dir);
	ASSERT_EQ(0, mkdir(locked, 0700));
	snprintf(path, sizeof(path), "%s/locked/file", self->dir);
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));

	ret = nobody(AT_FDCWD, path, 0, &stx);
	if (ret < 0)
		STATX_SKIP(return, "needs root to switch to uid 65534");
	EXPECT_EQ(EACCES, ret);
	EXPECT_EQ(EACCES, nobody(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &stx));
	snprintf(path, sizeof(path), "%s/locked/missing", self->dir);
	EXPECT_EQ(EACCES, nobody(AT_FDCWD, path, 0, &stx));

	/* The directory itself only needs search permission on its parent. */
	EXPECT_EQ(0, nobody(AT_FDCWD, locked, 0, &stx));
	EXPECT_EQ(S_IFDIR | 0700, stx.stx_mode);
	EXPECT_EQ(0, stx.stx_uid);

	/* A descriptor opened by root: the fd form needs no permission ... */
	snprintf(path, sizeof(path), "%s/locked/file", self->dir);
	fd = open(path, O_PATH);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, nobody(fd, "", AT_EMPTY_PATH, &stx));
	EXPECT_EQ(S_IFREG | 0644, stx.stx_mode);
	EXPECT_EQ(0, nobody(fd, NULL, AT_EMPTY_PATH, &stx));
	close(fd);
	/* ... but a walk from a directory fd needs search permission on it. */
	dfd = open(locked, O_PATH | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	EXPECT_EQ(EACCES, nobody(dfd, "file", 0, &stx));
	EXPECT_EQ(0, nobody(dfd, "", AT_EMPTY_PATH, &stx));
	close(dfd);

	/* Search without read permission is enough. */
	ASSERT_EQ(0, chmod(locked, 0711));
	snprintf(path, sizeof(path), "%s/locked/file", self->dir);
	EXPECT_EQ(0, nobody(AT_FDCWD, path, 0, &stx));
	EXPECT_EQ(S_IFREG | 0644, stx.stx_mode);
	/* Read without search permission is not. */
	ASSERT_EQ(0, chmod(locked, 0744));
	EXPECT_EQ(EACCES, nobody(AT_FDCWD, path, 0, &stx));
	/* A file nobody may read or write can still be stat'ed. */
	ASSERT_EQ(0, chmod(locked, 0711));
	ASSERT_EQ(0, chmod(path, 0));
	EXPECT_EQ(0, nobody(AT_FDCWD, path, 0, &stx));
	EXPECT_EQ(S_IFREG, stx.stx_mode);
}

/*
 * An error of the filesystem's ->getattr is the call's error, and nothing
 * is written.  procfs's ->getattr of /proc/PID/fd fails with ENOENT once
 * the process has been reaped; fstat() on the same descriptor, which
 * reads the attributes without statx()'s code, says so first.
 */
TEST_F(args, getattr_error)
{
	char path[64];
	struct stat st;
	int fd, status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		kill(pid, SIGKILL);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
			       &self->stx));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));

	ASSERT_EQ(-1, fstat(fd, &st));
	ASSERT_EQ(ENOENT, errno);
	EXPECT_STATX_ERR(ENOENT, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(ENOENT, fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS);
	EXPECT_STATX_ERR(ENOENT, fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
			 STATX_BASIC_STATS | STATX_BTIME);
	close(fd);
}

TEST_HARNESS_MAIN
