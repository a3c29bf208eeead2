/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the statx selftests: the raw system call, the
 * filesystems the tests visit, the table of struct statx fields that the
 * leak, 32-bit and io_uring tests walk, and the requests those tests send.
 */
#ifndef __STATX_HELPERS_H
#define __STATX_HELPERS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/stat.h>

#include "statx_scratch.h"

#ifndef __NR_statx
#if defined(__x86_64__)
#define __NR_statx 332
#elif defined(__i386__)
#define __NR_statx 383
#endif
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The harness's SKIP() sets the result of a case to KSFT_SKIP whatever it
 * was, so a skip after a failed EXPECT_*() reports the failure as a skip.
 * The tests skip with STATX_SKIP() instead: SKIP() in a case that has not
 * failed; in one that has, it keeps the failure and says what it would
 * have skipped for.  Either way it then runs @statement.  These two are
 * for test functions and the helpers they pass _metadata to: they use
 * kselftest_harness.h, which each test includes after this file.
 */
#define STATX_CASE_FAILED()	(_metadata->exit_code == KSFT_FAIL)

#define STATX_SKIP(statement, fmt, ...) do {				\
	char _statx_why[sizeof(_metadata->results->reason)];		\
									\
	snprintf(_statx_why, sizeof(_statx_why), fmt, ##__VA_ARGS__);	\
	if (STATX_CASE_FAILED())					\
		TH_LOG("refusing to skip (%s) after a failed expectation", \
		       _statx_why);					\
	else								\
		SKIP(, "%s", _statx_why);				\
	statement;							\
} while (0)

/*
 * What a helper that makes or checks something for a test case found: go
 * on; the thing cannot be done here (the caller skips, for a reason the
 * helper gives), which a helper only says while nothing it checked has
 * failed; or the case has failed (the helper logged how) and must not be
 * skipped.
 */
enum statx_verdict {
	STATX_GO_ON,
	STATX_CANNOT,
	STATX_FAILED,
};

/* The raw system call: glibc's wrapper may fall back to fstatat(). */
static inline int sys_statx(int dfd, const char *path, unsigned int flags,
			    unsigned int mask, struct statx *stx)
{
	return syscall(__NR_statx, dfd, path, flags, mask, stx);
}

/*
 * Where a program makes the filesystems of statx_filesystems[] that its
 * tests visit, in a mount namespace of its own (statx_fs_namespace()).
 */
#define STATX_FS_ROOT "/tmp/statx-fs"

/* One line of /proc/self/mountinfo. */
struct statx_mount {
	unsigned int id;
	unsigned int dev_major;
	unsigned int dev_minor;
	char fstype[64];
	char source[256];	/* a device path, or a name */
};

/*
 * Find the mount on top of @dir in /proc/self/mountinfo.  Mount points
 * with escaped characters are not matched.
 */
static inline bool statx_mountinfo(const char *dir, struct statx_mount *m)
{
	char line[4096], mnt[PATH_MAX], type[64], src[256];
	unsigned int id, ma, mi;
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%u %*u %u:%u %*s %4095s",
				   &id, &ma, &mi, mnt) != 4 ||
		    sscanf(sep, " - %63s %255s", type, src) != 2)
			continue;
		if (strcmp(mnt, dir))
			continue;
		/* The last one wins: it is the one on top. */
		m->id = id;
		m->dev_major = ma;
		m->dev_minor = mi;
		snprintf(m->fstype, sizeof(m->fstype), "%s", type);
		snprintf(m->source, sizeof(m->source), "%s", src);
		found = true;
	}
	fclose(f);
	return found;
}

/* Is @dir the root of a mount of filesystem type @fstype? */
static inline bool statx_fs_mounted(const char *dir, const char *fstype)
{
	struct statx_mount m;

	return statx_mountinfo(dir, &m) && !strcmp(m.fstype, fstype);
}

/*
 * The filesystems the tests visit, with what each can store.  A fixture
 * takes one of them per variant, as STATX_FS(EXT4) for instance.
 */
struct statx_fs {
	const char *name;	/* its statx_scratch_recipe() */
	const char *fstype;
	unsigned int lacks;	/* STATX_BASIC_STATS bits it does not return */
	bool btime;		/* stores a birth time (ext4: see statx_ext4_sb) */
	int special_errno;	/* what mknod() of fifos, sockets, devices gives */
	int symlink_errno;	/* what symlink() gives */
	int link_errno;		/* what link() gives */
	long mtime_gran;	/* ns granularity of mtime and ctime */
	long btime_gran;	/* ns granularity of btime */
	bool bdev;		/* st_dev is the block device it was mounted from */
	bool symlink_no_btime;	/* symlinks do not report the birth time */
};

enum {
	STATX_FS_TMPFS,
	STATX_FS_EXT4,
	STATX_FS_EXT4_LBS4K,
	STATX_FS_XFS,
	STATX_FS_BTRFS,
	STATX_FS_VFAT,
	STATX_FS_MSDOS,
	STATX_FS_EXFAT,
	STATX_FS_NTFS3,
};

static const struct statx_fs statx_filesystems[] = {
	[STATX_FS_TMPFS] = {
		.name = "tmpfs", .fstype = "tmpfs", .btime = true,
		.mtime_gran = 1, .btime_gran = 1,
	},
	/* ext4's btime and granularity depend on its inode size. */
	[STATX_FS_EXT4] = {
		.name = "ext4", .fstype = "ext4", .bdev = true,
	},
	/* ext4 with 128-byte inodes on a device with 4096-byte sectors */
	[STATX_FS_EXT4_LBS4K] = {
		.name = "ext4-lbs4k", .fstype = "ext4", .bdev = true,
	},
	[STATX_FS_XFS] = {
		.name = "xfs", .fstype = "xfs", .btime = true, .bdev = true,
		.mtime_gran = 1, .btime_gran = 1,
	},
	/* btrfs reports an anonymous device per subvolume */
	[STATX_FS_BTRFS] = {
		.name = "btrfs", .fstype = "btrfs", .btime = true,
		.mtime_gran = 1, .btime_gran = 1,
	},
	/* FAT: 2 s for the modification time, 10 ms for the creation time */
	[STATX_FS_VFAT] = {
		.name = "vfat", .fstype = "vfat", .btime = true, .bdev = true,
		.special_errno = EPERM, .symlink_errno = EPERM,
		.link_errno = EPERM,
		.mtime_gran = 2000000000, .btime_gran = 10000000,
	},
	/* msdos keeps neither an access time nor a creation time */
	[STATX_FS_MSDOS] = {
		.name = "msdos", .fstype = "msdos", .lacks = STATX_ATIME,
		.bdev = true, .special_errno = EPERM, .symlink_errno = EPERM,
		.link_errno = EPERM, .mtime_gran = 2000000000,
	},
	[STATX_FS_EXFAT] = {
		.name = "exfat", .fstype = "exfat", .btime = true, .bdev = true,
		.special_errno = EPERM, .symlink_errno = EPERM,
		.link_errno = EPERM,
		.mtime_gran = 10000000, .btime_gran = 10000000,
	},
	/*
	 * ntfs3 stores a creation time for every file, but (as of 7.3) its
	 * symlink inode_operations have no ->getattr to report it.
	 */
	[STATX_FS_NTFS3] = {
		.name = "ntfs3", .fstype = "ntfs3", .btime = true, .bdev = true,
		.mtime_gran = 100, .btime_gran = 100, .symlink_no_btime = true,
	},
};

/* The entry of statx_filesystems[] for STATX_FS_@name */
#define STATX_FS(name) (&statx_filesystems[STATX_FS_##name])

/* What statx_fs_namespace() found: 0, or -errno. */
static inline int *statx_fs_ns(void)
{
	static int err = -ESRCH;	/* statx_fs_namespace() did not run */

	return &err;
}

/* What statx_fs_namespace() found before it made anything. */
static struct statx_loops statx_fs_loops_before;
static pid_t statx_fs_main_pid;

/*
 * At the program's exit: unmount what its tests made, so that the loop
 * devices under them detach now rather than when the namespace goes, and
 * remove the loop devices that making them added to the machine (more
 * filesystems were mounted at once than it had free devices).
 */
static inline void statx_fs_cleanup(void)
{
	char line[4096], dir[PATH_MAX], *mnts[64];
	int n = 0;
	FILE *f;

	if (getpid() != statx_fs_main_pid)
		return;		/* a child the tests forked */
	f = fopen("/proc/self/mountinfo", "r");
	while (f && fgets(line, sizeof(line), f) && n < 64)
		if (sscanf(line, "%*u %*u %*u:%*u %*s %4095s", dir) == 1 &&
		    !strncmp(dir, STATX_FS_ROOT "/", strlen(STATX_FS_ROOT) + 1))
			mnts[n++] = strdup(dir);
	if (f)
		fclose(f);
	while (n--) {		/* the latest first */
		if (mnts[n])
			umount2(mnts[n], MNT_DETACH);
		free(mnts[n]);
	}
	if (statx_loops_remove_new(&statx_fs_loops_before))
		fprintf(stderr, "# could not remove the loop devices the tests added\n");
}

/*
 * Called by main() of a program whose tests visit statx_filesystems[],
 * before the tests run: as root, move the program into a mount namespace
 * of its own with a tmpfs of its own on /tmp (statx_private_ns()).  Each
 * test runs in a child process of the program, in that namespace; the
 * first to visit a filesystem makes it there (statx_fs_mkdtemp()), and the
 * tests after it visit the same one.  Nothing outside the namespace is
 * mounted or written, everything in it goes when the program exits, and
 * so do the loop devices it added (statx_fs_cleanup()).
 */
static inline void statx_fs_namespace(void)
{
	int *err = statx_fs_ns();

	*err = geteuid() ? -EPERM : statx_private_ns();
	if (!*err && mkdir(STATX_FS_ROOT, 0755))
		*err = -errno;
	if (!*err) {
		statx_loops_now(&statx_fs_loops_before);
		statx_fs_main_pid = getpid();
		atexit(statx_fs_cleanup);
	}
}

/* Where @fs is mounted once statx_fs_mkdtemp() has made it. */
static inline void statx_fs_root(const struct statx_fs *fs, char *buf,
				 size_t len)
{
	snprintf(buf, len, "%s/%s/mnt", STATX_FS_ROOT, fs->name);
}

/* What statx_fs_mount_once() mounts, when no test of the program has. */
enum statx_fs_source {
	STATX_FS_MKFS,		/* the recipe of that name, on a loop device */
	STATX_FS_IMAGE,		/* the image mkimages.sh made, read-only */
	STATX_FS_DISK,		/* the virtio disk with that serial number */
};

/*
 * Where the filesystem @name is mounted in the program's namespace
 * (statx_fs_namespace()), at STATX_FS_ROOT/@name/mnt: mounted from @src
 * first if no test of the program has (statx_scratch_mount_in(),
 * statx_scratch_mount_image_in(), statx_scratch_mount_disk_in()).
 * Returns STATX_GO_ON with the mount point in @mnt; otherwise @mnt is
 * empty and @why says why: STATX_CANNOT for what the machine or the
 * kernel lacks (root, a mkfs program, an image, a disk, the filesystem
 * type), STATX_FAILED for a failure.
 */
static inline enum statx_verdict
statx_fs_mount_once(const char *name, const char *fstype,
		    enum statx_fs_source src, char *mnt, size_t len,
		    char *why, size_t whylen)
{
	const struct statx_scratch_recipe *r = NULL;
	int err = *statx_fs_ns();
	enum statx_scratch_rc rc;
	struct statx_scratch s;

	mnt[0] = '\0';
	if (err == -EPERM) {
		if (src == STATX_FS_MKFS)
			snprintf(why, whylen, "making a %s needs root", name);
		else
			snprintf(why, whylen, "mounting needs root");
		return STATX_CANNOT;
	}
	if (err == -ESRCH) {
		snprintf(why, whylen, "main() did not call statx_fs_namespace()");
		return STATX_FAILED;
	}
	if (src == STATX_FS_MKFS)
		r = statx_scratch_recipe(name);
	if (err || (src == STATX_FS_MKFS && !r)) {
		snprintf(why, whylen, "%s: %s", err ? "own mount namespace" :
			 "no recipe", err ? strerror(-err) : name);
		return STATX_FAILED;
	}
	memset(&s, 0, sizeof(s));
	snprintf(s.dir, sizeof(s.dir), "%s/%s", STATX_FS_ROOT, name);
	snprintf(s.mnt, sizeof(s.mnt), "%s/mnt", s.dir);
	if (!statx_fs_mounted(s.mnt, fstype)) {
		if (mkdir(s.dir, 0755) && errno != EEXIST) {
			snprintf(why, whylen, "mkdir %s: %s", s.dir,
				 strerror(errno));
			return STATX_FAILED;
		}
		rc = src == STATX_FS_MKFS ? statx_scratch_mount_in(&s, r, 0, NULL) :
		     src == STATX_FS_DISK ?
				statx_scratch_mount_disk_in(&s, name, fstype) :
				statx_scratch_mount_image_in(&s, name, fstype);
		if (rc != SCRATCH_MOUNTED) {
			snprintf(why, whylen, "%s", s.why);
			/* so that the next test tries again */
			statx_scratch_umount(&s);
			return rc == SCRATCH_LACKS ? STATX_CANNOT :
						     STATX_FAILED;
		}
		/* The mount holds the device until the namespace goes. */
		if (s.loop >= 0)
			close(s.loop);
	}
	snprintf(mnt, len, "%s", s.mnt);
	return STATX_GO_ON;
}

/*
 * Make a fresh directory "@what.XXXXXX", mode 0755, on @fs, making @fs
 * first if no test of the program has (statx_fs_mount_once()).  Returns
 * STATX_GO_ON with the directory in @dir; otherwise @dir is empty and
 * @why says why, as statx_fs_mount_once() does.
 */
static inline enum statx_verdict
statx_fs_mkdtemp(const struct statx_fs *fs, const char *what, char *dir,
		 size_t len, char *why, size_t whylen)
{
	enum statx_verdict v;
	char mnt[80];

	dir[0] = '\0';
	v = statx_fs_mount_once(fs->name, fs->fstype, STATX_FS_MKFS, mnt,
				sizeof(mnt), why, whylen);
	if (v != STATX_GO_ON)
		return v;
	snprintf(dir, len, "%s/%s.XXXXXX", mnt, what);
	if (!mkdtemp(dir) || chmod(dir, 0755)) {
		snprintf(why, whylen, "mkdtemp on %s: %s", fs->name,
			 strerror(errno));
		dir[0] = '\0';
		return STATX_FAILED;
	}
	return STATX_GO_ON;
}

/*
 * statx_fs_mount_once() of the image @name that mkimages.sh made, or, if
 * @disk, of the virtio disk with serial number @name: images read-only,
 * disks read-write.
 */
static inline enum statx_verdict
statx_fs_given(const char *name, const char *fstype, bool disk, char *mnt,
	       size_t len, char *why, size_t whylen)
{
	return statx_fs_mount_once(name, fstype,
				   disk ? STATX_FS_DISK : STATX_FS_IMAGE,
				   mnt, len, why, whylen);
}

static inline int statx_rm_one(const char *path, const struct stat *st,
			       int type, struct FTW *ftw)
{
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf @dir, not crossing mounts. */
static inline void statx_rmtree(const char *dir)
{
	if (dir[0])
		nftw(dir, statx_rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/*
 * Read the sysfs attribute @attr of the block device @ma:@mi
 * (/sys/dev/block/MA:MI/ATTR) as a number.
 */
static inline bool statx_sysfs_block(unsigned int ma, unsigned int mi,
				     const char *attr, unsigned long *val)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", ma, mi, attr);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%lu", val) == 1;
	fclose(f);
	return ok;
}

/* The /dev node of the block device @ma:@mi, from its uevent in sysfs. */
static inline bool statx_block_node(unsigned int ma, unsigned int mi,
				    char *node, size_t len)
{
	char path[PATH_MAX], line[256];
	bool ok = false;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", ma, mi);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(node, len, "/dev/%s", line + 8);
		ok = true;
	}
	fclose(f);
	return ok;
}

/*
 * What the ext4 superblock on @ma:@mi says about timestamps: the inode
 * size decides whether there is room for the creation time and for the
 * nanosecond fields (fs/ext4/super.c: 160 bytes cover i_atime_extra).
 */
static inline bool statx_ext4_sb(unsigned int ma, unsigned int mi,
				 bool *btime, long *gran)
{
	unsigned char sb[1024];
	unsigned int isize;
	char node[PATH_MAX];
	int fd;
	ssize_t n;

	if (!statx_block_node(ma, mi, node, sizeof(node)))
		return false;
	fd = open(node, O_RDONLY);
	if (fd < 0)
		return false;
	n = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	if (n != sizeof(sb) || sb[0x38] != 0x53 || sb[0x39] != 0xef)
		return false;
	/* s_rev_level 0 has fixed 128-byte inodes */
	isize = sb[0x4c] ? (sb[0x58] | sb[0x59] << 8) : 128;
	*btime = isize > 128;
	*gran = isize >= 160 ? 1 : 1000000000;
	return true;
}

/*
 * The table of struct statx fields: which STATX_* bit makes each one
 * valid (0: always written), where it is and how big (statx_layout checks
 * each entry against the documented offset and size).  The leak test, the
 * 32-bit comparison and the io_uring comparison walk it, so a field added
 * to struct statx is covered by all three once it is listed here.  List a
 * new field under #ifdef of its mask bit, so that the suite still builds
 * against headers that lack it:
 *
 *	#ifdef STATX_FOO
 *		STATX_FIELD(STATX_FOO, stx_foo, 8),
 *	#endif
 *
 * A field that two bits can fill (stx_mnt_id) is listed once per bit.
 */
struct statx_field {
	const char *name;
	unsigned int mask;
	unsigned int offset;
	unsigned int size;
};

#define STATX_FIELD(_mask, _field, _size) {				\
	.name = #_field,						\
	.mask = (_mask),						\
	.offset = offsetof(struct statx, _field),			\
	.size = (_size),						\
}

static const struct statx_field statx_fields[] = {
	STATX_FIELD(0, stx_mask, 4),
	STATX_FIELD(0, stx_blksize, 4),
	STATX_FIELD(0, stx_attributes, 8),
	STATX_FIELD(STATX_NLINK, stx_nlink, 4),
	STATX_FIELD(STATX_UID, stx_uid, 4),
	STATX_FIELD(STATX_GID, stx_gid, 4),
	STATX_FIELD(STATX_TYPE | STATX_MODE, stx_mode, 2),
	STATX_FIELD(STATX_INO, stx_ino, 8),
	STATX_FIELD(STATX_SIZE, stx_size, 8),
	STATX_FIELD(STATX_BLOCKS, stx_blocks, 8),
	STATX_FIELD(0, stx_attributes_mask, 8),
	STATX_FIELD(STATX_ATIME, stx_atime.tv_sec, 8),
	STATX_FIELD(STATX_ATIME, stx_atime.tv_nsec, 4),
	STATX_FIELD(STATX_BTIME, stx_btime.tv_sec, 8),
	STATX_FIELD(STATX_BTIME, stx_btime.tv_nsec, 4),
	STATX_FIELD(STATX_CTIME, stx_ctime.tv_sec, 8),
	STATX_FIELD(STATX_CTIME, stx_ctime.tv_nsec, 4),
	STATX_FIELD(STATX_MTIME, stx_mtime.tv_sec, 8),
	STATX_FIELD(STATX_MTIME, stx_mtime.tv_nsec, 4),
	STATX_FIELD(0, stx_rdev_major, 4),
	STATX_FIELD(0, stx_rdev_minor, 4),
	STATX_FIELD(0, stx_dev_major, 4),
	STATX_FIELD(0, stx_dev_minor, 4),
	STATX_FIELD(STATX_MNT_ID, stx_mnt_id, 8),
	STATX_FIELD(STATX_MNT_ID_UNIQUE, stx_mnt_id, 8),
	STATX_FIELD(STATX_DIOALIGN, stx_dio_mem_align, 4),
	STATX_FIELD(STATX_DIOALIGN, stx_dio_offset_align, 4),
	STATX_FIELD(STATX_SUBVOL, stx_subvol, 8),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_unit_min, 4),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_unit_max, 4),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_segments_max, 4),
#ifdef STATX_DIO_READ_ALIGN
	STATX_FIELD(STATX_DIO_READ_ALIGN, stx_dio_read_offset_align, 4),
	STATX_FIELD(STATX_WRITE_ATOMIC, stx_atomic_write_unit_max_opt, 4),
#endif
#ifdef STATX_CHANGE_COOKIE
	STATX_FIELD(STATX_CHANGE_COOKIE, stx_change_cookie, 8),
#endif
#ifdef STATX_GEN
	STATX_FIELD(STATX_GEN, stx_gen, 4),
#endif
#ifdef STATX_IO_PARAMS
	STATX_FIELD(STATX_IO_PARAMS, stx_io_min, 4),
	STATX_FIELD(STATX_IO_PARAMS, stx_io_opt, 4),
	STATX_FIELD(STATX_IO_PARAMS, stx_erase_size, 4),
#endif
};

/* The STATX_ATTR_* flags the headers define; list new ones the same way. */
struct statx_attr {
	const char *name;
	__u64 attr;
};

#define STATX_ATTR(_attr) { .name = #_attr, .attr = (_attr) }

static const struct statx_attr statx_attrs[] = {
	STATX_ATTR(STATX_ATTR_COMPRESSED),
	STATX_ATTR(STATX_ATTR_IMMUTABLE),
	STATX_ATTR(STATX_ATTR_APPEND),
	STATX_ATTR(STATX_ATTR_NODUMP),
	STATX_ATTR(STATX_ATTR_ENCRYPTED),
	STATX_ATTR(STATX_ATTR_AUTOMOUNT),
	STATX_ATTR(STATX_ATTR_MOUNT_ROOT),
	STATX_ATTR(STATX_ATTR_VERITY),
	STATX_ATTR(STATX_ATTR_DAX),
	STATX_ATTR(STATX_ATTR_WRITE_ATOMIC),
#ifdef STATX_ATTR_HIDDEN
	STATX_ATTR(STATX_ATTR_HIDDEN),
#endif
#ifdef STATX_ATTR_SYSTEM
	STATX_ATTR(STATX_ATTR_SYSTEM),
#endif
#ifdef STATX_ATTR_ARCHIVE
	STATX_ATTR(STATX_ATTR_ARCHIVE),
#endif
#ifdef STATX_ATTR_DOS_READONLY
	STATX_ATTR(STATX_ATTR_DOS_READONLY),
#endif
#ifdef STATX_ATTR_FOREIGN_OWNER
	STATX_ATTR(STATX_ATTR_FOREIGN_OWNER),
#endif
#ifdef STATX_ATTR_KERNEL_FILE
	STATX_ATTR(STATX_ATTR_KERNEL_FILE),
#endif
#ifdef STATX_ATTR_STORED_COMPRESSED
	STATX_ATTR(STATX_ATTR_STORED_COMPRESSED),
#endif
#ifdef STATX_ATTR_SPARSE
	STATX_ATTR(STATX_ATTR_SPARSE),
#endif
#ifdef STATX_ATTR_CHANGE_MONOTONIC
	STATX_ATTR(STATX_ATTR_CHANGE_MONOTONIC),
#endif
};

/* Every mask bit the table knows. */
static inline unsigned int statx_known_mask(void)
{
	unsigned int i, mask = 0;

	for (i = 0; i < ARRAY_SIZE(statx_fields); i++)
		mask |= statx_fields[i].mask;
	return mask;
}

/* Every attribute flag the headers define. */
static inline __u64 statx_known_attrs(void)
{
	__u64 attrs = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(statx_attrs); i++)
		attrs |= statx_attrs[i].attr;
	return attrs;
}

/* Did a result with stx_mask @got fill @f? */
static inline bool statx_field_valid(const struct statx_field *f,
				     unsigned int got)
{
	return !f->mask || (got & f->mask);
}

/* The name of the table field at byte @off, or NULL if none covers it. */
static inline const char *statx_field_at(unsigned int off)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(statx_fields); i++)
		if (off >= statx_fields[i].offset &&
		    off < statx_fields[i].offset + statx_fields[i].size)
			return statx_fields[i].name;
	return NULL;
}

/*
 * The request masks worth trying: nothing, each distinct mask of the
 * table, everything the table knows, and every bit but STATX__RESERVED
 * (bits the kernel does not know must be ignored).  Returns the count.
 */
#define STATX_MAX_MASKS (ARRAY_SIZE(statx_fields) + 3)

static inline unsigned int statx_masks(unsigned int *masks)
{
	unsigned int i, j, n = 0;

	masks[n++] = 0;
	for (i = 0; i < ARRAY_SIZE(statx_fields); i++) {
		if (!statx_fields[i].mask)
			continue;
		for (j = 0; j < n; j++)
			if (masks[j] == statx_fields[i].mask)
				break;
		if (j == n)
			masks[n++] = statx_fields[i].mask;
	}
	masks[n++] = statx_known_mask();
	masks[n++] = ~STATX__RESERVED;
	return n;
}

/* Byte the buffers are filled with before each call. */
#define STATX_POISON 0xa5

/*
 * A statx() request as the 32-bit and io_uring comparisons replay it.  The
 * layout is the same for -m32 and -m64 builds: it goes through a pipe.
 */
enum {
	STATX_REQ_PATH,		/* path as given */
	STATX_REQ_NULL_PATH,	/* a NULL path */
	STATX_REQ_BAD_PATH,	/* a path pointer into no mapping */
	STATX_REQ_BAD_BUF,	/* a buffer pointer into no mapping */
};

struct statx_req {
	__s32 dfd;
	__u32 flags;
	__u32 mask;
	__u32 kind;
	char path[512];
};

struct statx_res {
	__s32 ret;		/* 0 or -errno */
	__u32 pad;
	struct statx stx;	/* poisoned first */
};

/* The pointers to pass for @r; the result goes to @stx. */
static inline const char *statx_req_path(const struct statx_req *r)
{
	switch (r->kind) {
	case STATX_REQ_NULL_PATH:
		return NULL;
	case STATX_REQ_BAD_PATH:
		return (const char *)8;	/* page 0 is never mapped */
	}
	return r->path;
}

static inline struct statx *statx_req_buf(const struct statx_req *r,
					  struct statx *stx)
{
	return r->kind == STATX_REQ_BAD_BUF ? (struct statx *)8 : stx;
}

/* Run @r through the system call. */
static inline void statx_req_run(const struct statx_req *r,
				 struct statx_res *res)
{
	memset(res, 0, sizeof(*res));
	memset(&res->stx, STATX_POISON, sizeof(res->stx));
	if (sys_statx(r->dfd, statx_req_path(r), r->flags, r->mask,
		      statx_req_buf(r, &res->stx)))
		res->ret = -errno;
}

static inline void statx_req_add(struct statx_req *reqs, unsigned int *n,
				 unsigned int max, int dfd, const char *path,
				 unsigned int flags, unsigned int mask,
				 unsigned int kind)
{
	struct statx_req *r;

	if (*n >= max)
		return;
	r = &reqs[(*n)++];
	memset(r, 0, sizeof(*r));
	r->dfd = dfd;
	r->flags = flags;
	r->mask = mask;
	r->kind = kind;
	snprintf(r->path, sizeof(r->path), "%s", path);
}

/*
 * The requests to compare for the objects @paths (absolute) and the open
 * file @fd: every mask of statx_masks() on each, the sync and symlink
 * flags, AT_EMPTY_PATH on @fd, and the argument errors.  @null_path adds
 * the NULL-path form of AT_EMPTY_PATH.  Returns the count.
 */
#define STATX_MAX_REQS 512

static inline unsigned int statx_reqs(struct statx_req *reqs,
				      const char *const *paths,
				      unsigned int npaths, int fd,
				      bool null_path)
{
	static const unsigned int flags[] = {
		AT_SYMLINK_NOFOLLOW, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC,
		AT_NO_AUTOMOUNT,
	};
	unsigned int masks[STATX_MAX_MASKS], nm, i, j, n = 0;
	const unsigned int all = statx_known_mask(), max = STATX_MAX_REQS;

	nm = statx_masks(masks);
	for (i = 0; i < npaths; i++) {
		for (j = 0; j < nm; j++)
			statx_req_add(reqs, &n, max, AT_FDCWD, paths[i], 0,
				      masks[j], STATX_REQ_PATH);
		for (j = 0; j < ARRAY_SIZE(flags); j++)
			statx_req_add(reqs, &n, max, AT_FDCWD, paths[i],
				      flags[j], all, STATX_REQ_PATH);
	}
	if (fd >= 0) {
		for (j = 0; j < nm; j++)
			statx_req_add(reqs, &n, max, fd, "", AT_EMPTY_PATH,
				      masks[j], STATX_REQ_PATH);
		if (null_path)
			statx_req_add(reqs, &n, max, fd, "", AT_EMPTY_PATH,
				      all, STATX_REQ_NULL_PATH);
		/* EBADF, ENOTDIR */
		statx_req_add(reqs, &n, max, -1, "x", 0, all, STATX_REQ_PATH);
		statx_req_add(reqs, &n, max, fd, "x", 0, all, STATX_REQ_PATH);
	}
	if (!npaths)
		return n;
	/* EINVAL, EINVAL, EINVAL, EFAULT, EFAULT, ENOENT */
	statx_req_add(reqs, &n, max, AT_FDCWD, paths[0], 0, STATX__RESERVED,
		      STATX_REQ_PATH);
	statx_req_add(reqs, &n, max, AT_FDCWD, paths[0], 0x1, all,
		      STATX_REQ_PATH);
	statx_req_add(reqs, &n, max, AT_FDCWD, paths[0],
		      AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC, all,
		      STATX_REQ_PATH);
	statx_req_add(reqs, &n, max, AT_FDCWD, paths[0], 0, all,
		      STATX_REQ_BAD_PATH);
	statx_req_add(reqs, &n, max, AT_FDCWD, paths[0], 0, all,
		      STATX_REQ_BAD_BUF);
	statx_req_add(reqs, &n, max, AT_FDCWD, "/nonexistent/statx", 0, all,
		      STATX_REQ_PATH);
	return n;
}

/*
 * The objects the comparisons visit on a filesystem mounted at @root: the
 * root, the scratch directory @dir, a regular file in it (also open, as
 * *@fd), and a symlink and a fifo where the filesystem can hold them.
 * Returns how many paths it wrote to @paths, or 0 on error.
 */
#define STATX_MAX_OBJECTS 5

static inline unsigned int statx_make_objects(const char *root,
					      const char *dir,
					      char (*paths)[256], int *fd)
{
	unsigned int n = 0;

	snprintf(paths[n++], 256, "%s", root);
	snprintf(paths[n++], 256, "%s", dir);
	snprintf(paths[n], 256, "%s/file", dir);
	*fd = open(paths[n++], O_CREAT | O_RDWR | O_EXCL, 0644);
	if (*fd < 0 || write(*fd, "data\n", 5) != 5)
		return 0;
	snprintf(paths[n], 256, "%s/link", dir);
	if (!symlink("file", paths[n]))
		n++;
	snprintf(paths[n], 256, "%s/fifo", dir);
	if (!mknod(paths[n], S_IFIFO | 0644, 0))
		n++;
	return n;
}

/*
 * The scratch objects of statx_make_objects() on one filesystem and the
 * requests of statx_reqs() for them: what the 32-bit and the io_uring
 * comparisons replay.
 */
struct statx_objects {
	char root[64];
	char dir[128];
	char why[160];		/* why statx_objects_make() did not */
	char paths[STATX_MAX_OBJECTS][256];
	unsigned int npaths;
	int fd;
	struct statx_req *reqs;
	unsigned int nreqs;
};

/*
 * Fill @o for @fs, in a directory named after @what.  Returns 0; 1 when
 * @fs cannot be made here, -1 on an error, with @o->why saying why.
 * statx_objects_free() undoes it in every case.
 */
static inline int statx_objects_make(struct statx_objects *o,
				     const struct statx_fs *fs,
				     const char *what, bool null_path)
{
	const char *paths[STATX_MAX_OBJECTS];
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	statx_fs_root(fs, o->root, sizeof(o->root));
	o->reqs = calloc(STATX_MAX_REQS, sizeof(*o->reqs));
	if (!o->reqs) {
		snprintf(o->why, sizeof(o->why), "%s", strerror(errno));
		return -1;
	}
	switch (statx_fs_mkdtemp(fs, what, o->dir, sizeof(o->dir), o->why,
				 sizeof(o->why))) {
	case STATX_GO_ON:
		break;
	case STATX_CANNOT:
		return 1;
	default:
		return -1;
	}
	o->npaths = statx_make_objects(o->root, o->dir, o->paths, &o->fd);
	if (!o->npaths) {
		snprintf(o->why, sizeof(o->why), "making the objects: %s",
			 strerror(errno));
		return -1;
	}
	for (i = 0; i < o->npaths; i++)
		paths[i] = o->paths[i];
	o->nreqs = statx_reqs(o->reqs, paths, o->npaths, o->fd, null_path);
	return 0;
}

static inline void statx_objects_free(struct statx_objects *o)
{
	if (o->fd >= 0)
		close(o->fd);
	free(o->reqs);
	statx_rmtree(o->dir);
}

/*
 * The requests of statx_reqs() for files of filesystems without a disk
 * and for device nodes, as far as they exist here, with @status (a
 * /proc/PID/status file) among them and open as *@fd.  Not /proc itself:
 * its link count follows the number of tasks.  Returns the count.
 */
static inline unsigned int statx_pseudo_reqs(struct statx_req *reqs,
					     const char *status, int *fd,
					     bool null_path)
{
	const char *const candidates[] = {
		"/", "/proc/1", status, "/sys", "/sys/kernel", "/dev",
		"/dev/null", "/dev/vda", "/tmp", "/sys/kernel/debug",
	};
	const char *paths[ARRAY_SIZE(candidates)];
	unsigned int i, n = 0;
	struct statx stx;

	for (i = 0; i < ARRAY_SIZE(candidates); i++)
		if (!sys_statx(AT_FDCWD, candidates[i], 0, 0, &stx))
			paths[n++] = candidates[i];
	*fd = open(status, O_RDONLY);
	return statx_reqs(reqs, paths, n, *fd, null_path);
}

/* A printable description of @r for failure messages. */
static inline const char *statx_req_str(const struct statx_req *r)
{
	static char buf[700];
	static const char *const kinds[] = {
		"", " (NULL path)", " (bad path pointer)", " (bad buffer)",
	};

	snprintf(buf, sizeof(buf), "dfd %d path \"%s\" flags %#x mask %#x%s",
		 r->dfd, r->path, r->flags, r->mask,
		 r->kind < ARRAY_SIZE(kinds) ? kinds[r->kind] : "");
	return buf;
}

/*
 * Compare two struct statx byte for byte.  Returns NULL when they are the
 * same, else a description of the first difference.
 */
static inline const char *statx_stx_diff(const struct statx *a,
					 const struct statx *b)
{
	const unsigned char *pa = (const void *)a, *pb = (const void *)b;
	static char buf[200];
	const char *name;
	unsigned int i;

	for (i = 0; i < sizeof(*a); i++) {
		if (pa[i] == pb[i])
			continue;
		name = statx_field_at(i);
		snprintf(buf, sizeof(buf), "byte %#x (%s): %#x vs %#x", i,
			 name ?: "not a field", pa[i], pb[i]);
		return buf;
	}
	return NULL;
}

/* Compare two results: the return value, then statx_stx_diff(). */
static inline const char *statx_res_diff(const struct statx_res *a,
					 const struct statx_res *b)
{
	static char buf[200];

	if (a->ret != b->ret) {
		snprintf(buf, sizeof(buf), "returned %d vs %d", a->ret, b->ret);
		return buf;
	}
	return statx_stx_diff(&a->stx, &b->stx);
}

/*
 * Run statx() in a child that has dropped to uid and gid 65534 with no
 * supplementary groups.  Returns 0 or the errno, with the result in @stx;
 * -1 if the child could not switch (not root).
 */
static inline int statx_as_nobody(int dfd, const char *path,
				  unsigned int flags, unsigned int mask,
				  struct statx *stx)
{
	struct {
		int err;
		struct statx stx;
	} *shared;
	int status, ret = -1;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(1);
		shared->err = sys_statx(dfd, path, flags, mask, &shared->stx) ?
			      errno : 0;
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = shared->err;
		*stx = shared->stx;
	}
	munmap(shared, sizeof(*shared));
	return ret;
}

/* Compare two statx timestamps like strcmp(). */
static inline int statx_ts_cmp(const struct statx_timestamp *a,
			       const struct statx_timestamp *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

/* Round @ts down to a multiple of @gran nanoseconds. */
static inline struct statx_timestamp statx_ts_floor(struct statx_timestamp ts,
						    long gran)
{
	long long ns;

	if (gran <= 1)
		return ts;
	if (gran >= 1000000000) {
		ts.tv_sec -= ts.tv_sec % (gran / 1000000000);
		ts.tv_nsec = 0;
		return ts;
	}
	ns = ts.tv_nsec;
	ts.tv_nsec = ns - ns % gran;
	return ts;
}

/* The time of @clock as a statx timestamp. */
static inline struct statx_timestamp statx_now(clockid_t clock)
{
	struct statx_timestamp ts = { 0 };
	struct timespec t;

	clock_gettime(clock, &t);
	ts.tv_sec = t.tv_sec;
	ts.tv_nsec = t.tv_nsec;
	return ts;
}

#endif /* __STATX_HELPERS_H */
