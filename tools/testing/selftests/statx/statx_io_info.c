// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) I/O parameters and information flags, against sources that do
 * not go through statx():
 *
 * - STATX_IO_PARAMS on a file of each filesystem and on the block device
 *   node, against the device's queue attributes in sysfs and the RAID
 *   geometry the harness gave mkfs (harness/images.d/issue6.sh);
 * - STATX_ATTR_KERNEL_FILE on procfs, sysfs, debugfs, tracefs, cgroup2,
 *   configfs and securityfs files (the filesystem magic from statfs(), and
 *   a read that returns another length than stx_size), and not on ext4 or
 *   tmpfs;
 * - STATX_ATTR_SPARSE on ntfs3 (the NTFS attribute from its xattr) and its
 *   absence where it is advertised but impossible (FAT, exFAT);
 * - STATX_ATTR_COMPRESSED on squashfs and erofs images made with and
 *   without compression, and not from a flag that only asks for it.
 *
 * A kernel without these features skips, saying why.
 */
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <linux/fs.h>
#include <linux/magic.h>

#include "statx_helpers.h"
#include "../kselftest_harness.h"

#ifndef STATX_IO_PARAMS
#define STATX_IO_PARAMS		0x00100000U
#endif
#ifndef STATX_ATTR_KERNEL_FILE
#define STATX_ATTR_KERNEL_FILE	0x0000002000000000ULL
#endif
#ifndef STATX_ATTR_SPARSE
#define STATX_ATTR_SPARSE	0x0000004000000000ULL
#endif
#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC		0x74726163
#endif
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC		0x62656570
#endif
#ifndef SECURITYFS_MAGIC
#define SECURITYFS_MAGIC	0x73636673
#endif

/* NTFS's FILE_ATTRIBUTE_SPARSE_FILE, as ntfs3's system.ntfs_attrib has it */
#define NTFS_ATTR_SPARSE	0x00000200

/* Does the running kernel fill STATX_IO_PARAMS at all? */
static bool kernel_has_io_params(void)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " generic_fill_statx_io_params\n") ||
			strstr(line, " generic_fill_statx_io_params\t");
	fclose(f);
	return found;
}

/*
 * Does the running kernel know the information flags?  The VFS advertises
 * STATX_ATTR_KERNEL_FILE for every file when it does.
 */
static bool kernel_has_info_flags(void)
{
	struct statx stx;

	if (sys_statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx))
		return false;
	return stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE;
}

/* The device (vda, ...) mounted at @dir, from /proc/self/mountinfo */
static bool mount_device(const char *dir, char *dev, size_t len)
{
	struct statx_mount m;

	if (!statx_mountinfo(dir, &m) || strncmp(m.source, "/dev/", 5))
		return false;
	snprintf(dev, len, "%.63s", m.source + 5);
	return true;
}

/* /sys/block/@dev/queue/@attr as a number; -1 if it cannot be read */
static long long queue_attr(const char *dev, const char *attr)
{
	char path[PATH_MAX];
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", dev, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

struct io_expect {
	unsigned int min, opt, erase;
};

/*
 * What include/uapi/linux/stat.h defines, computed from the device's sysfs
 * queue attributes, the filesystem block size and the RAID geometry mkfs
 * recorded (0 for none).
 */
static bool io_expected(const char *dev, unsigned int fsblock,
			unsigned int sunit, unsigned int swidth,
			struct io_expect *e)
{
	long long pbs = queue_attr(dev, "physical_block_size");
	long long min = queue_attr(dev, "minimum_io_size");
	long long opt = queue_attr(dev, "optimal_io_size");
	long long gran = queue_attr(dev, "discard_granularity");

	if (pbs < 0 || min < 0 || opt < 0 || gran < 0)
		return false;
	e->min = fsblock;
	if (pbs > e->min)
		e->min = pbs;
	if (min > e->min)
		e->min = min;
	if (sunit > e->min)
		e->min = sunit;
	e->opt = swidth ? swidth : opt;
	if (e->opt && e->opt < e->min)
		e->opt = e->min;
	e->erase = gran;
	if (e->erase && e->erase < fsblock)
		e->erase = fsblock;
	return true;
}

static int write_file(const char *path, size_t len)
{
	char buf[4096];
	int fd, ret = 0;

	memset(buf, 'x', sizeof(buf));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		if (write(fd, buf, n) != (ssize_t)n) {
			ret = -1;
			break;
		}
		len -= n;
	}
	if (close(fd))
		ret = -1;
	return ret;
}

FIXTURE(io) {
	char file[PATH_MAX];
	char dev[64];
};

FIXTURE_VARIANT(io) {
	const char *fstype;
	const char *mnt;
	unsigned int fsblock;	/* what mkfs was told (issue6.sh) */
	unsigned int sunit;	/* RAID geometry mkfs recorded, bytes */
	unsigned int swidth;
};

FIXTURE_VARIANT_ADD(io, ext4_io) {
	.fstype = "ext4", .mnt = STATX_TEST_ROOT "/ext4-io", .fsblock = 4096,
};

FIXTURE_VARIANT_ADD(io, xfs_io) {
	.fstype = "xfs", .mnt = STATX_TEST_ROOT "/xfs-io", .fsblock = 4096,
};

FIXTURE_VARIANT_ADD(io, btrfs_io) {
	.fstype = "btrfs", .mnt = STATX_TEST_ROOT "/btrfs-io", .fsblock = 4096,
};

FIXTURE_VARIANT_ADD(io, vfat_io) {
	.fstype = "vfat", .mnt = STATX_TEST_ROOT "/vfat-io", .fsblock = 512,
};

FIXTURE_VARIANT_ADD(io, exfat_io) {
	.fstype = "exfat", .mnt = STATX_TEST_ROOT "/exfat-io", .fsblock = 512,
};

FIXTURE_VARIANT_ADD(io, ntfs3_io) {
	.fstype = "ntfs3", .mnt = STATX_TEST_ROOT "/ntfs3-io", .fsblock = 4096,
};

FIXTURE_VARIANT_ADD(io, ext4_geom) {
	.fstype = "ext4", .mnt = STATX_TEST_ROOT "/ext4-geom", .fsblock = 4096,
	.sunit = 8 * 4096, .swidth = 32 * 4096,
};

FIXTURE_VARIANT_ADD(io, xfs_geom) {
	.fstype = "xfs", .mnt = STATX_TEST_ROOT "/xfs-geom", .fsblock = 4096,
	.sunit = 32768, .swidth = 4 * 32768,
};

FIXTURE_SETUP(io)
{
	if (!statx_fs_mounted(variant->mnt, variant->fstype))
		SKIP(return, "%s is not mounted at %s", variant->fstype,
		     variant->mnt);
	ASSERT_TRUE(mount_device(variant->mnt, self->dev, sizeof(self->dev)));
	snprintf(self->file, sizeof(self->file), "%s/io_params.%d",
		 variant->mnt, getpid());
	ASSERT_EQ(0, write_file(self->file, 8192));
}

FIXTURE_TEARDOWN(io)
{
	if (self->file[0])
		unlink(self->file);
}

/* A regular file reports exactly the device's and the geometry's sizes. */
TEST_F(io, file)
{
	struct io_expect e;
	struct statx stx;

	ASSERT_TRUE(io_expected(self->dev, variant->fsblock, variant->sunit,
				variant->swidth, &e));
	memset(&stx, 0xff, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0,
			       STATX_BASIC_STATS | STATX_IO_PARAMS, &stx));
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	TH_LOG("%s: io_min %u io_opt %u erase %u", self->dev,
	       stx.stx_io_min, stx.stx_io_opt, stx.stx_erase_size);
	EXPECT_EQ(e.min, stx.stx_io_min);
	EXPECT_EQ(e.opt, stx.stx_io_opt);
	EXPECT_EQ(e.erase, stx.stx_erase_size);
	/* The harness gave each of these disks a topology of its own. */
	EXPECT_NE(512, queue_attr(self->dev, "minimum_io_size"));
	EXPECT_EQ(0, stx.__spare4[0]);
}

/* The block device node reports the device's own limits. */
TEST_F(io, device_node)
{
	char node[PATH_MAX];
	struct statx stx;

	snprintf(node, sizeof(node), "/dev/%s", self->dev);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, node, 0, STATX_IO_PARAMS, &stx));
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	EXPECT_EQ(queue_attr(self->dev, "minimum_io_size"), stx.stx_io_min);
	EXPECT_EQ(queue_attr(self->dev, "optimal_io_size"), stx.stx_io_opt);
	EXPECT_EQ(queue_attr(self->dev, "discard_granularity"),
		  stx.stx_erase_size);
}

/* Not asked, not given: the mask bit and the fields stay clear. */
TEST_F(io, not_requested)
{
	struct statx stx;

	memset(&stx, 0xff, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_IO_PARAMS);
	EXPECT_EQ(0, stx.stx_io_min);
	EXPECT_EQ(0, stx.stx_io_opt);
	EXPECT_EQ(0, stx.stx_erase_size);
}

/* A directory has no data to do I/O on: nothing is reported. */
TEST_F(io, directory)
{
	struct statx stx;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, variant->mnt, 0, STATX_IO_PARAMS,
			       &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_IO_PARAMS);
	EXPECT_EQ(0, stx.stx_io_min);
	EXPECT_EQ(0, stx.stx_io_opt);
	EXPECT_EQ(0, stx.stx_erase_size);
}

/* tmpfs: whole pages, and the folio size it allocates to stream in. */
TEST(tmpfs_io)
{
	const char *mnt = STATX_TEST_ROOT "/tmpfs";
	long page = sysconf(_SC_PAGESIZE);
	char file[PATH_MAX];
	struct statx stx;

	if (!statx_fs_mounted(mnt, "tmpfs"))
		SKIP(return, "tmpfs is not mounted at %s", mnt);
	if (!access("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", F_OK))
		SKIP(return, "huge pages may change tmpfs's folio size");
	snprintf(file, sizeof(file), "%s/io_params.%d", mnt, getpid());
	ASSERT_EQ(0, write_file(file, 8192));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0, STATX_IO_PARAMS, &stx));
	unlink(file);
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	EXPECT_EQ(page, stx.stx_io_min);
	EXPECT_EQ(page, stx.stx_io_opt);
	EXPECT_EQ(page, stx.stx_erase_size);
}

/*
 * The first readable regular file under @dir (at most three levels down)
 * on the filesystem with statfs() magic @magic: debugfs holds the tracefs
 * automount, for one.
 */
static bool find_file(const char *dir, int depth, long magic, char *out,
		      size_t len)
{
	struct dirent *de;
	bool found = false;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[PATH_MAX];
		struct statfs sfs;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) || statfs(path, &sfs) ||
		    sfs.f_type != magic)
			continue;
		if (S_ISREG(st.st_mode) && (st.st_mode & 0444)) {
			snprintf(out, len, "%s", path);
			found = true;
		} else if (S_ISDIR(st.st_mode) && depth > 0) {
			found = find_file(path, depth - 1, magic, out, len);
		}
	}
	closedir(d);
	return found;
}

FIXTURE(kfile) {
	char path[PATH_MAX];
};

FIXTURE_VARIANT(kfile) {
	const char *dir;	/* where to look for a file */
	const char *file;	/* or this one */
	long magic;		/* statfs() f_type of the filesystem */
	bool kernel_file;	/* is the flag expected? */
	bool sized_unlike_read;	/* stx_size never equals the read length */
};

FIXTURE_VARIANT_ADD(kfile, proc_status) {
	.file = "/proc/self/status", .magic = PROC_SUPER_MAGIC,
	.kernel_file = true, .sized_unlike_read = true,
};

FIXTURE_VARIANT_ADD(kfile, proc_dir) {
	.file = "/proc/self", .magic = PROC_SUPER_MAGIC, .kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, sysfs_attr) {
	.file = "/sys/block/vda/size", .magic = SYSFS_MAGIC,
	.kernel_file = true, .sized_unlike_read = true,
};

FIXTURE_VARIANT_ADD(kfile, debugfs) {
	.dir = "/sys/kernel/debug", .magic = DEBUGFS_MAGIC,
	.kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, tracefs) {
	.dir = "/sys/kernel/tracing", .magic = TRACEFS_MAGIC,
	.kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, cgroup2) {
	.file = "/sys/fs/cgroup/cgroup.controllers",
	.magic = CGROUP2_SUPER_MAGIC, .kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, configfs) {
	.dir = "/sys/kernel/config", .magic = CONFIGFS_MAGIC,
	.kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, securityfs) {
	.dir = "/sys/kernel/security", .magic = SECURITYFS_MAGIC,
	.kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, ext4) {
	.file = STATX_TEST_ROOT "/ext4/kfile", .magic = EXT4_SUPER_MAGIC,
};

FIXTURE_VARIANT_ADD(kfile, tmpfs) {
	.file = STATX_TEST_ROOT "/tmpfs/kfile", .magic = TMPFS_MAGIC,
};

FIXTURE_SETUP(kfile)
{
	struct statfs sfs;

	if (!variant->kernel_file) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", variant->file);
		*strrchr(dir, '/') = '\0';
		if (statfs(dir, &sfs) || sfs.f_type != variant->magic)
			SKIP(return, "%.900s is not on the expected filesystem",
			     dir);
		snprintf(self->path, sizeof(self->path), "%s", variant->file);
		ASSERT_EQ(0, write_file(self->path, 100));
		return;
	}
	/*
	 * The flag belongs to the filesystem: where it holds no file (configfs
	 * without subsystems), its root directory must carry it.
	 */
	if (variant->file)
		snprintf(self->path, sizeof(self->path), "%s", variant->file);
	else if (!find_file(variant->dir, 3, variant->magic, self->path,
			    sizeof(self->path)))
		snprintf(self->path, sizeof(self->path), "%s", variant->dir);
	if (statfs(self->path, &sfs) || sfs.f_type != variant->magic)
		SKIP(return, "%.900s is not on the expected filesystem",
		     self->path);
}

FIXTURE_TEARDOWN(kfile)
{
	if (!variant->kernel_file && self->path[0])
		unlink(self->path);
}

TEST_F(kfile, flag)
{
	struct statx stx;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->path, 0, STATX_BASIC_STATS,
			       &stx));
	if (!(stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE))
		SKIP(return, "the kernel does not report STATX_ATTR_KERNEL_FILE");
	TH_LOG("%s: size %llu", self->path,
	       (unsigned long long)stx.stx_size);
	EXPECT_EQ(variant->kernel_file,
		  !!(stx.stx_attributes & STATX_ATTR_KERNEL_FILE));

	if (variant->sized_unlike_read) {
		char buf[65536];
		ssize_t n, total = 0;
		int fd = open(self->path, O_RDONLY);

		ASSERT_LE(0, fd);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		close(fd);
		ASSERT_LT(0, total);
		EXPECT_NE(stx.stx_size, total);
	}
}

/*
 * Sparse: ntfs3 reports NTFS's persistent attribute; a file without it has
 * all its bytes allocated.
 */
FIXTURE(sparse) {
	char plain[PATH_MAX];
	char holey[PATH_MAX];
};

FIXTURE_VARIANT(sparse) {
	const char *fstype;
	const char *mnt;
	bool can_be_sparse;	/* does the filesystem keep holes? */
	bool advertised;	/* in stx_attributes_mask */
};

FIXTURE_VARIANT_ADD(sparse, ntfs3) {
	.fstype = "ntfs3", .mnt = STATX_TEST_ROOT "/ntfs3",
	.can_be_sparse = true, .advertised = true,
};

FIXTURE_VARIANT_ADD(sparse, vfat) {
	.fstype = "vfat", .mnt = STATX_TEST_ROOT "/vfat", .advertised = true,
};

FIXTURE_VARIANT_ADD(sparse, exfat) {
	.fstype = "exfat", .mnt = STATX_TEST_ROOT "/exfat", .advertised = true,
};

/* These keep holes but cannot tell without walking the extents. */
FIXTURE_VARIANT_ADD(sparse, ext4) {
	.fstype = "ext4", .mnt = STATX_TEST_ROOT "/ext4", .can_be_sparse = true,
};

FIXTURE_VARIANT_ADD(sparse, xfs) {
	.fstype = "xfs", .mnt = STATX_TEST_ROOT "/xfs", .can_be_sparse = true,
};

FIXTURE_VARIANT_ADD(sparse, btrfs) {
	.fstype = "btrfs", .mnt = STATX_TEST_ROOT "/btrfs",
	.can_be_sparse = true,
};

FIXTURE_VARIANT_ADD(sparse, tmpfs) {
	.fstype = "tmpfs", .mnt = STATX_TEST_ROOT "/tmpfs",
	.can_be_sparse = true,
};

#define HOLE_AT	(1024 * 1024)

FIXTURE_SETUP(sparse)
{
	int fd;

	if (!statx_fs_mounted(variant->mnt, variant->fstype))
		SKIP(return, "%s is not mounted at %s", variant->fstype,
		     variant->mnt);
	snprintf(self->plain, sizeof(self->plain), "%s/plain.%d",
		 variant->mnt, getpid());
	snprintf(self->holey, sizeof(self->holey), "%s/holey.%d",
		 variant->mnt, getpid());
	ASSERT_EQ(0, write_file(self->plain, 3 * 4096));

	fd = open(self->holey, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	if (!strcmp(variant->fstype, "ntfs3")) {
		__u32 fa;

		/* An NTFS file gets holes once it is marked sparse. */
		ASSERT_EQ(sizeof(fa), fgetxattr(fd, "system.ntfs_attrib", &fa,
						sizeof(fa)));
		fa |= NTFS_ATTR_SPARSE;
		ASSERT_EQ(0, fsetxattr(fd, "system.ntfs_attrib", &fa,
				       sizeof(fa), 0));
	}
	ASSERT_EQ(4, pwrite(fd, "tail", 4, HOLE_AT));
	ASSERT_EQ(0, fsync(fd));
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(sparse)
{
	unlink(self->plain);
	unlink(self->holey);
}

/* Is @path's NTFS sparse attribute set, as system.ntfs_attrib says? */
static int ntfs_sparse(const char *path)
{
	__u32 fa;

	if (getxattr(path, "system.ntfs_attrib", &fa, sizeof(fa)) != sizeof(fa))
		return -1;
	return !!(fa & NTFS_ATTR_SPARSE);
}

TEST_F(sparse, flag)
{
	struct statx plain, holey;
	struct stat st;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->plain, 0, STATX_BASIC_STATS,
			       &plain));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->holey, 0, STATX_BASIC_STATS,
			       &holey));
	if (!variant->advertised) {
		/* Only an exact answer may be advertised. */
		EXPECT_EQ(0, plain.stx_attributes_mask & STATX_ATTR_SPARSE);
		EXPECT_EQ(0, holey.stx_attributes_mask & STATX_ATTR_SPARSE);
		EXPECT_EQ(0, holey.stx_attributes & STATX_ATTR_SPARSE);
		return;
	}
	if (!(plain.stx_attributes_mask & STATX_ATTR_SPARSE)) {
		ASSERT_FALSE(kernel_has_info_flags());
		SKIP(return, "the kernel does not report STATX_ATTR_SPARSE");
	}
	ASSERT_TRUE(holey.stx_attributes_mask & STATX_ATTR_SPARSE);

	/* Without the flag, every byte up to the size is allocated. */
	EXPECT_EQ(0, plain.stx_attributes & STATX_ATTR_SPARSE);
	ASSERT_EQ(0, stat(self->plain, &st));
	EXPECT_LE(st.st_size, st.st_blocks * 512);

	ASSERT_EQ(0, stat(self->holey, &st));
	ASSERT_EQ(HOLE_AT + 4, st.st_size);
	if (variant->can_be_sparse) {
		/* ntfs3: the attribute itself, and the hole it allows */
		EXPECT_EQ(1, ntfs_sparse(self->holey));
		EXPECT_EQ(0, ntfs_sparse(self->plain));
		EXPECT_TRUE(holey.stx_attributes & STATX_ATTR_SPARSE);
		EXPECT_GT(HOLE_AT, st.st_blocks * 512);
	} else {
		/* FAT, exFAT: the "hole" was allocated and zeroed. */
		EXPECT_EQ(0, holey.stx_attributes & STATX_ATTR_SPARSE);
		EXPECT_LE(st.st_size, st.st_blocks * 512);
	}
}

/*
 * Compressed: the images the harness made with compression report it on a
 * file; the same file in an image made without does not.
 */
FIXTURE(compressed) {
};

FIXTURE_VARIANT(compressed) {
	const char *fstype;
	const char *mnt;
	bool compressed;	/* how the image was made */
};

FIXTURE_VARIANT_ADD(compressed, squashfs) {
	.fstype = "squashfs", .mnt = STATX_TEST_ROOT "/squashfs",
	.compressed = true,
};

FIXTURE_VARIANT_ADD(compressed, squashfs_plain) {
	.fstype = "squashfs", .mnt = STATX_TEST_ROOT "/squashfs-plain",
};

FIXTURE_VARIANT_ADD(compressed, erofs) {
	.fstype = "erofs", .mnt = STATX_TEST_ROOT "/erofs", .compressed = true,
};

FIXTURE_VARIANT_ADD(compressed, erofs_plain) {
	.fstype = "erofs", .mnt = STATX_TEST_ROOT "/erofs-plain",
};

FIXTURE_SETUP(compressed)
{
	if (!statx_fs_mounted(variant->mnt, variant->fstype))
		SKIP(return, "%s is not mounted at %s", variant->fstype,
		     variant->mnt);
}

FIXTURE_TEARDOWN(compressed)
{
}

TEST_F(compressed, image_file)
{
	char path[PATH_MAX];
	struct statx stx;

	snprintf(path, sizeof(path), "%s/text.txt", variant->mnt);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	if (!(stx.stx_attributes_mask & STATX_ATTR_COMPRESSED)) {
		ASSERT_FALSE(kernel_has_info_flags());
		SKIP(return, "%s does not report STATX_ATTR_COMPRESSED",
		     variant->fstype);
	}
	EXPECT_EQ(variant->compressed,
		  !!(stx.stx_attributes & STATX_ATTR_COMPRESSED));
	/* erofs counts the compressed blocks: far fewer than the size. */
	if (!strcmp(variant->fstype, "erofs") && variant->compressed)
		EXPECT_GT(stx.stx_size / 2, stx.stx_blocks * 512);
}

/*
 * FS_COMPR_FL only asks for compression: ext4 stores it but never
 * compresses, btrfs compresses future writes that shrink.  Neither makes
 * the data stored compressed, so neither sets STATX_ATTR_COMPRESSED, and
 * btrfs, which cannot tell without walking the extents, does not advertise
 * it.
 */
FIXTURE(compr_flag) {
	char file[PATH_MAX];
};

FIXTURE_VARIANT(compr_flag) {
	const char *fstype;
	const char *mnt;
	bool advertised;
};

FIXTURE_VARIANT_ADD(compr_flag, ext4) {
	.fstype = "ext4", .mnt = STATX_TEST_ROOT "/ext4", .advertised = true,
};

FIXTURE_VARIANT_ADD(compr_flag, btrfs) {
	.fstype = "btrfs", .mnt = STATX_TEST_ROOT "/btrfs",
};

FIXTURE_SETUP(compr_flag)
{
	if (!statx_fs_mounted(variant->mnt, variant->fstype))
		SKIP(return, "%s is not mounted at %s", variant->fstype,
		     variant->mnt);
	snprintf(self->file, sizeof(self->file), "%s/compr.%d", variant->mnt,
		 getpid());
	ASSERT_EQ(0, write_file(self->file, 0));
}

FIXTURE_TEARDOWN(compr_flag)
{
	unlink(self->file);
}

TEST_F(compr_flag, policy_only)
{
	struct statx stx;
	int fd, flags;

	if (!kernel_has_info_flags())
		SKIP(return, "the kernel predates the one meaning of COMPRESSED");
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &flags));
	flags |= FS_COMPR_FL;
	ASSERT_EQ(0, ioctl(fd, FS_IOC_SETFLAGS, &flags));
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &flags));
	close(fd);
	ASSERT_TRUE(flags & FS_COMPR_FL);
	ASSERT_EQ(0, write_file(self->file, 65536));

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_COMPRESSED);
	EXPECT_EQ(variant->advertised,
		  !!(stx.stx_attributes_mask & STATX_ATTR_COMPRESSED));
}

TEST_HARNESS_MAIN
