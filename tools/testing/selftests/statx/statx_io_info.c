// SPDX-License-Identifier: GPL-2.0
/*
 * statx(2) I/O parameters and information flags, against sources that do
 * not go through statx():
 *
 * - STATX_IO_PARAMS on a file of each filesystem and on the block device
 *   node, against the device's queue attributes in sysfs, the allocation
 *   unit and RAID geometry mkfs was given for the virtual machine's disks
 *   (a loop device has no I/O topology of its own to test against), the
 *   st_blocks a punched hole frees, a reflinked copy, and partitions that
 *   start on and off the device's physical block;
 * - STATX_ATTR_KERNEL_FILE on every filesystem type the kernel can mount
 *   without a device: advertised only with the right answer (a file whose
 *   read length is not its size is generated), and on regular files only;
 * - STATX_ATTR_SPARSE on ntfs3 (the NTFS attribute from its xattr) and its
 *   absence where it is advertised but impossible (FAT, exFAT);
 * - STATX_ATTR_STORED_COMPRESSED on squashfs, erofs and ntfs3 images that
 *   mkimages.sh made with and without compression, and
 *   STATX_ATTR_COMPRESSED as the unpatched kernel reports it (ext4 and
 *   btrfs after chattr +c).
 *
 * A kernel without these features skips, saying why.
 */
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/magic.h>

#include "statx_helpers.h"
#include "../kselftest_harness.h"

#ifndef STATX_IO_PARAMS
#define STATX_IO_PARAMS		0x00040000U
#endif
#ifndef STATX_ATTR_KERNEL_FILE
#define STATX_ATTR_KERNEL_FILE	0x10000000ULL
#endif
#ifndef STATX_ATTR_SPARSE
#define STATX_ATTR_SPARSE	0x20000000ULL
#endif
#ifndef STATX_ATTR_STORED_COMPRESSED
#define STATX_ATTR_STORED_COMPRESSED	0x40000000ULL
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

/* NTFS's FILE_ATTRIBUTE_*, as ntfs3's system.ntfs_attrib has them */
#define NTFS_ATTR_SPARSE	0x00000200
#define NTFS_ATTR_COMPRESSED	0x00000800

/* Does /proc/kallsyms list @name (a symbol of the running kernel)? */
static bool kernel_has_symbol(const char *name)
{
	char line[256], eol[128], mod[128];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	snprintf(eol, sizeof(eol), " %s\n", name);
	snprintf(mod, sizeof(mod), " %s\t", name);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, eol) || strstr(line, mod);
	fclose(f);
	return found;
}

/* Does the running kernel fill STATX_IO_PARAMS at all? */
static bool kernel_has_io_params(void)
{
	return kernel_has_symbol("generic_fill_statx_io_params");
}

/*
 * Does the running kernel know the information flags?  procfs, whose files
 * the kernel generates, advertises STATX_ATTR_KERNEL_FILE when it does.
 */
static bool kernel_has_info_flags(void)
{
	struct statx stx;

	if (sys_statx(AT_FDCWD, "/proc/self/status", 0, STATX_BASIC_STATS,
		      &stx))
		return false;
	return stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE;
}

/*
 * Does the running kernel know STATX_ATTR_STORED_COMPRESSED?  It came with
 * the squashfs ->getattr, which had none before.
 */
static bool kernel_has_stored_compressed(void)
{
	return kernel_has_symbol("squashfs_getattr");
}

/* A private mount namespace, so that the test's mounts stay its own. */
static bool private_mounts(void)
{
	return !unshare(CLONE_NEWNS) &&
	       !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
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

/* /sys/class/block/@dev/@attr as a number; -1 if it cannot be read */
static long long block_attr(const char *dev, const char *attr)
{
	char path[PATH_MAX];
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", dev, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

/* The queue limit @attr of the whole disk @dev; -1 for a partition */
static long long queue_attr(const char *dev, const char *attr)
{
	char name[64];

	snprintf(name, sizeof(name), "queue/%s", attr);
	return block_attr(dev, name);
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
	char mnt[96];
	char file[PATH_MAX];
	char dev[64];
};

FIXTURE_VARIANT(io) {
	const char *fstype;
	const char *disk;	/* the virtio disk's serial */
	unsigned int alloc;	/* allocation unit mkfs was told; 0: the */
				/* cluster size mkfs chose, as statfs says */
	/*
	 * What include/uapi/linux/stat.h says the file reports, worked out
	 * by hand from the disk's properties and the mkfs options, both
	 * given in the comment (the virtual machine's disks are made so):
	 * stx_io_min, the largest of the allocation unit, the
	 * physical block, the device's minimum I/O size and a RAID stripe
	 * unit; stx_io_opt, the stripe width or else the device's optimal
	 * I/O size, rounded up to stx_io_min; stx_erase_size, the smallest
	 * multiple of the allocation unit and the discard granularity, 0
	 * where extents may be shared.
	 */
	unsigned int min, opt, erase;
};

/* pbs 4096, min_io 8192, opt_io 65536, discard 16384; mkfs.ext4 -b 4096 */
FIXTURE_VARIANT_ADD(io, ext4_io) {
	.fstype = "ext4", .disk = "ext4-io", .alloc = 4096,
	.min = 8192, .opt = 65536, .erase = 16384,
};

/* pbs 4096, min_io 16384, opt_io 131072, discard 32768; -b size=4096 */
FIXTURE_VARIANT_ADD(io, xfs_io) {
	.fstype = "xfs", .disk = "xfs-io", .alloc = 4096,
	.min = 16384, .opt = 131072, .erase = 32768,
};

/* pbs 4096, min_io 8192, opt_io 262144, discard 65536; -s 4096; shared */
FIXTURE_VARIANT_ADD(io, btrfs_io) {
	.fstype = "btrfs", .disk = "btrfs-io", .alloc = 4096,
	.min = 8192, .opt = 262144, .erase = 0,
};

/* pbs 2048, min_io 4096, opt_io 32768, discard 8192; 512-byte sectors */
FIXTURE_VARIANT_ADD(io, vfat_io) {
	.fstype = "vfat", .disk = "vfat-io",
	.min = 4096, .opt = 32768, .erase = 8192,
};

/* pbs 4096, min_io 4096, no opt_io, discard 4096; 4 KiB clusters */
FIXTURE_VARIANT_ADD(io, exfat_io) {
	.fstype = "exfat", .disk = "exfat-io",
	.min = 4096, .opt = 0, .erase = 4096,
};

/* pbs 4096, min_io 8192, opt_io 131072, discard 16384; mkntfs -c 4096 */
FIXTURE_VARIANT_ADD(io, ntfs3_io) {
	.fstype = "ntfs3", .disk = "ntfs3-io", .alloc = 4096,
	.min = 8192, .opt = 131072, .erase = 16384,
};

/*
 * The disk of ext4_io; mkfs.ext4 -E stride=8,stripe_width=32: a stripe
 * unit of 32 KiB and a width of 128 KiB, larger than the device's.
 */
FIXTURE_VARIANT_ADD(io, ext4_geom) {
	.fstype = "ext4", .disk = "ext4-geom", .alloc = 4096,
	.min = 32768, .opt = 131072, .erase = 16384,
};

/* pbs 4096, min_io 8192, opt_io 65536, discard 16384; -d su=32k,sw=4 */
FIXTURE_VARIANT_ADD(io, xfs_geom) {
	.fstype = "xfs", .disk = "xfs-geom", .alloc = 4096,
	.min = 32768, .opt = 131072, .erase = 16384,
};

/*
 * pbs 4096, min_io 4096, no opt_io, discard 4096; mkfs.ext4 -O bigalloc
 * -C 65536: 64 KiB clusters of 4 KiB blocks
 */
FIXTURE_VARIANT_ADD(io, ext4_bigalloc) {
	.fstype = "ext4", .disk = "ext4-bigalloc",
	.alloc = 65536, .min = 65536, .opt = 0, .erase = 65536,
};

FIXTURE_SETUP(io)
{
	enum statx_verdict v;
	char why[160];

	v = statx_fs_given(variant->disk, variant->fstype, true, self->mnt,
			   sizeof(self->mnt), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	ASSERT_TRUE(mount_device(self->mnt, self->dev, sizeof(self->dev)));
	snprintf(self->file, sizeof(self->file), "%s/io_params.%d",
		 self->mnt, getpid());
	ASSERT_EQ(0, write_file(self->file, 8192));
}

FIXTURE_TEARDOWN(io)
{
	if (self->file[0])
		unlink(self->file);
}

/* The allocation unit: what mkfs was told, or the cluster it chose. */
static unsigned int io_alloc_unit(const char *mnt, unsigned int alloc)
{
	struct statfs sfs;

	if (alloc)
		return alloc;
	/* FAT, exFAT: f_bsize is the cluster size mkfs chose. */
	if (statfs(mnt, &sfs))
		return 0;
	return sfs.f_bsize;
}

/* A regular file reports exactly the device's and the geometry's sizes. */
TEST_F(io, file)
{
	unsigned int alloc = io_alloc_unit(self->mnt, variant->alloc);
	struct statx stx;

	ASSERT_NE(0, alloc);
	memset(&stx, 0xff, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0,
			       STATX_BASIC_STATS | STATX_IO_PARAMS, &stx));
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	TH_LOG("%s: io_min %u io_opt %u erase %u", self->dev,
	       stx.stx_io_min, stx.stx_io_opt, stx.stx_erase_size);
	EXPECT_EQ(variant->min, stx.stx_io_min);
	EXPECT_EQ(variant->opt, stx.stx_io_opt);
	EXPECT_EQ(variant->erase, stx.stx_erase_size);
	/* Never below the allocation unit (64 KiB with bigalloc). */
	EXPECT_LE(alloc, stx.stx_io_min);
	if (stx.stx_erase_size)
		EXPECT_EQ(0, stx.stx_erase_size % alloc);
	/* Each of these disks was given a topology of its own. */
	EXPECT_NE(512, queue_attr(self->dev, "minimum_io_size"));
	EXPECT_EQ(0, stx.__spare3[0]);
}

static long long file_blocks(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_blocks;
}

/*
 * stx_erase_size: punching one aligned unit out of a written file frees
 * that unit (st_blocks drops by it); punching half a unit does not free a
 * whole one.
 */
TEST_F(io, punch)
{
	char probe[PATH_MAX + 8];
	struct statx stx;
	long long before, after;
	unsigned int unit;
	int fd;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_IO_PARAMS, &stx));
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	if (!stx.stx_erase_size)
		STATX_SKIP(return, "%s reports no erase size (shared extents)",
			   variant->fstype);
	unit = stx.stx_erase_size;
	snprintf(probe, sizeof(probe), "%s.probe", self->file);
	fd = open(probe, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 2 * unit));
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      unit)) {
		int err = errno;

		close(fd);
		unlink(probe);
		if (err == EOPNOTSUPP)
			STATX_SKIP(return, "%s cannot punch holes",
				   variant->fstype);
		ASSERT_EQ(0, err);
	}
	close(fd);
	unlink(probe);

	ASSERT_EQ(0, write_file(self->file, 4 * (size_t)unit));
	fd = open(self->file, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fsync(fd));
	before = file_blocks(self->file);
	ASSERT_LE(4LL * unit / 512, before);
	ASSERT_EQ(0, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			       unit, unit));
	ASSERT_EQ(0, fsync(fd));
	after = file_blocks(self->file);
	TH_LOG("unit %u: st_blocks %lld -> %lld", unit, before, after);
	EXPECT_EQ(unit / 512, before - after);

	before = after;
	ASSERT_EQ(0, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			       2 * unit, unit / 2));
	ASSERT_EQ(0, fsync(fd));
	after = file_blocks(self->file);
	TH_LOG("half a unit: st_blocks %lld -> %lld", before, after);
	EXPECT_GT(unit / 512, before - after);
	close(fd);
}

/*
 * A reflinked copy shares its extents: a punched hole frees nothing while
 * the other file holds them, so no erase size is promised for either.
 */
TEST_F(io, reflink)
{
	char clone[PATH_MAX + 8];
	struct statx src, dst;
	int in, out, err = 0;

	snprintf(clone, sizeof(clone), "%s.clone", self->file);
	in = open(self->file, O_RDONLY);
	ASSERT_LE(0, in);
	out = open(clone, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, out);
	if (ioctl(out, FICLONE, in))
		err = errno;
	close(in);
	close(out);
	if (err) {
		unlink(clone);
		if (err == EOPNOTSUPP || err == EINVAL || err == EXDEV ||
		    err == ENOTTY)
			STATX_SKIP(return, "%s cannot reflink (%s)",
				   variant->fstype, strerror(err));
		ASSERT_EQ(0, err);
	}
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, 0, STATX_IO_PARAMS, &src));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, clone, 0, STATX_IO_PARAMS, &dst));
	unlink(clone);
	if (!(src.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	ASSERT_TRUE(dst.stx_mask & STATX_IO_PARAMS);
	EXPECT_EQ(0, src.stx_erase_size);
	EXPECT_EQ(0, dst.stx_erase_size);
	EXPECT_NE(0, dst.stx_io_min);
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
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
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

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->mnt, 0, STATX_IO_PARAMS,
			       &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_IO_PARAMS);
	EXPECT_EQ(0, stx.stx_io_min);
	EXPECT_EQ(0, stx.stx_io_opt);
	EXPECT_EQ(0, stx.stx_erase_size);
}

/* tmpfs: whole pages, and the folio size it allocates to stream in. */
TEST(tmpfs_io)
{
	long page = sysconf(_SC_PAGESIZE);
	char file[PATH_MAX], mnt[128], why[160];
	enum statx_verdict v;
	struct statx stx;

	if (!access("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", F_OK))
		STATX_SKIP(return, "huge pages may change tmpfs's folio size");
	v = statx_fs_mkdtemp(STATX_FS(TMPFS), "io", mnt, sizeof(mnt), why,
			     sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(file, sizeof(file), "%s/io_params.%d", mnt, getpid());
	ASSERT_EQ(0, write_file(file, 8192));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0, STATX_IO_PARAMS, &stx));
	unlink(file);
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		ASSERT_FALSE(kernel_has_io_params());
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	EXPECT_EQ(page, stx.stx_io_min);
	EXPECT_EQ(page, stx.stx_io_opt);
	EXPECT_EQ(page, stx.stx_erase_size);
}

/*
 * tmpfs without huge pages: punching a page out of a written file frees
 * it, and half a page frees nothing.
 */
TEST(tmpfs_punch)
{
	long page = sysconf(_SC_PAGESIZE);
	char file[PATH_MAX], mnt[128], why[160];
	long long before, after;
	enum statx_verdict v;
	struct statx stx;
	int fd;

	v = statx_fs_mkdtemp(STATX_FS(TMPFS), "punch", mnt, sizeof(mnt), why,
			     sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(file, sizeof(file), "%s/punch.%d", mnt, getpid());
	ASSERT_EQ(0, write_file(file, 4 * page));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0, STATX_IO_PARAMS, &stx));
	if (!(stx.stx_mask & STATX_IO_PARAMS) || !stx.stx_erase_size) {
		unlink(file);
		if (!(stx.stx_mask & STATX_IO_PARAMS))
			ASSERT_FALSE(kernel_has_io_params());
		STATX_SKIP(return, "no erase size reported (huge pages?)");
	}
	ASSERT_EQ(page, stx.stx_erase_size);
	fd = open(file, O_RDWR);
	ASSERT_LE(0, fd);
	before = file_blocks(file);
	ASSERT_EQ(0, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			       page, page));
	after = file_blocks(file);
	EXPECT_EQ(page / 512, before - after);
	before = after;
	ASSERT_EQ(0, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			       2 * page, page / 2));
	after = file_blocks(file);
	EXPECT_EQ(0, before - after);
	close(fd);
	unlink(file);
}

FIXTURE(part) {
	char dir[64];
	char part[80];
	bool mounted;
};

FIXTURE_VARIANT(part) {
	int num;		/* partition number */
	long long start;	/* first sector, as the host wrote it */
};

/* The host's disk "parts": 4 KiB physical blocks, ext4 on both partitions */
FIXTURE_VARIANT_ADD(part, aligned) {
	.num = 1, .start = 2048,
};

FIXTURE_VARIANT_ADD(part, misaligned) {
	.num = 2, .start = 18433,
};

FIXTURE_SETUP(part)
{
	char dev[64], node[128];

	if (!statx_disk_by_serial("parts", dev, sizeof(dev)))
		STATX_SKIP(return, "no disk with serial \"parts\"");
	snprintf(self->part, sizeof(self->part), "%s%d", dev, variant->num);
	ASSERT_EQ(variant->start, block_attr(self->part, "start"));
	ASSERT_TRUE(private_mounts());
	snprintf(self->dir, sizeof(self->dir), "/tmp/statx-part.XXXXXX");
	ASSERT_TRUE(!!mkdtemp(self->dir));
	snprintf(node, sizeof(node), "/dev/%s", self->part);
	ASSERT_EQ(0, mount(node, self->dir, "ext4", 0, NULL));
	self->mounted = true;
}

FIXTURE_TEARDOWN(part)
{
	if (self->mounted)
		umount(self->dir);
	if (self->dir[0])
		rmdir(self->dir);
}

/*
 * On a partition that starts off the device's physical block, no I/O size
 * of the file avoids read-modify-write, and nothing is reported; on one
 * that starts on it, the device's sizes are.
 */
TEST_F(part, io_params)
{
	char file[PATH_MAX];
	long long pbs = queue_attr(self->part, "physical_block_size");
	struct statx stx;
	bool aligned;

	/* The partition's own queue directory is its disk's. */
	if (pbs < 0) {
		char dev[64];

		ASSERT_TRUE(statx_disk_by_serial("parts", dev, sizeof(dev)));
		pbs = queue_attr(dev, "physical_block_size");
	}
	ASSERT_EQ(4096, pbs);
	aligned = (variant->start * 512) % pbs == 0;
	snprintf(file, sizeof(file), "%s/file", self->dir);
	ASSERT_EQ(0, write_file(file, 8192));
	memset(&stx, 0xff, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0,
			       STATX_BASIC_STATS | STATX_IO_PARAMS, &stx));
	TH_LOG("%s: start %lld, alignment_offset %lld, mask %x, io_min %u",
	       self->part, variant->start,
	       block_attr(self->part, "alignment_offset"), stx.stx_mask,
	       stx.stx_io_min);
	if (!kernel_has_io_params()) {
		ASSERT_EQ(0, stx.stx_mask & STATX_IO_PARAMS);
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	if (aligned) {
		ASSERT_TRUE(stx.stx_mask & STATX_IO_PARAMS);
		EXPECT_EQ(4096, stx.stx_io_min);
		EXPECT_EQ(65536, stx.stx_io_opt);
	} else {
		EXPECT_EQ(0, stx.stx_mask & STATX_IO_PARAMS);
		EXPECT_EQ(0, stx.stx_io_min);
		EXPECT_EQ(0, stx.stx_io_opt);
		EXPECT_EQ(0, stx.stx_erase_size);
	}
}

#ifndef BTRFS_IOC_SYNC
#define BTRFS_IOC_SYNC		_IO(0x94, 8)
#endif

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * btrfs: statx(STATX_IO_PARAMS) runs while another process commits
 * transactions (write, fsync, BTRFS_IOC_SYNC) on a disk whose writes QEMU
 * throttles to a few per second, so that each commit spends hundreds of
 * milliseconds writing its superblocks.  ->getattr must not wait for that:
 * the slowest statx() in which the caller slept stays below a tenth of the
 * slowest commit.  A call can also wait for the CPU while the committing
 * process runs in the kernel (one CPU, or a busy host); it does not sleep
 * for that, so only calls with a voluntary context switch are held to it.
 */
TEST(btrfs_statx_during_commits)
{
	long long worst_statx = 0, worst_sleep = 0, worst_commit = 0, end;
	char mnt[96], file[PATH_MAX], why[160];
	int pipefd[2], calls = 0, slept = 0, status;
	enum statx_verdict v;
	struct statx stx;
	pid_t pid;

	v = statx_fs_given("btrfs-slow", "btrfs", true, mnt, sizeof(mnt), why,
			   sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(file, sizeof(file), "%s/commits.%d", mnt, getpid());
	ASSERT_EQ(0, write_file(file, 4096));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0, STATX_IO_PARAMS, &stx));
	if (!(stx.stx_mask & STATX_IO_PARAMS)) {
		unlink(file);
		ASSERT_FALSE(kernel_has_io_params());
		STATX_SKIP(return, "the kernel does not report STATX_IO_PARAMS");
	}
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		long long t, worst = 0;
		int i, fd = open(file, O_WRONLY);

		close(pipefd[0]);
		for (i = 0; fd >= 0 && i < 6; i++) {
			t = now_ns();
			if (pwrite(fd, "commit", 6, i * 4096) != 6 || fsync(fd) ||
			    ioctl(fd, BTRFS_IOC_SYNC, 0))
				_exit(1);
			t = now_ns() - t;
			if (t > worst)
				worst = t;
		}
		if (write(pipefd[1], &worst, sizeof(worst)) != sizeof(worst))
			_exit(1);
		_exit(fd < 0);
	}
	close(pipefd[1]);
	end = now_ns() + 60 * 1000000000LL;
	for (;;) {
		struct rusage r0, r1;
		long long t = now_ns();

		if (waitpid(pid, &status, WNOHANG) == pid || t > end)
			break;
		ASSERT_EQ(0, getrusage(RUSAGE_SELF, &r0));
		t = now_ns();
		ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0, STATX_IO_PARAMS,
				       &stx));
		t = now_ns() - t;
		ASSERT_EQ(0, getrusage(RUSAGE_SELF, &r1));
		ASSERT_TRUE(stx.stx_mask & STATX_IO_PARAMS);
		if (t > worst_statx)
			worst_statx = t;
		if (r1.ru_nvcsw != r0.ru_nvcsw) {
			slept++;
			if (t > worst_sleep)
				worst_sleep = t;
		}
		calls++;
	}
	ASSERT_EQ(sizeof(worst_commit),
		  read(pipefd[0], &worst_commit, sizeof(worst_commit)));
	close(pipefd[0]);
	unlink(file);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	TH_LOG("%d statx() calls, slowest %lld us, %d slept (slowest %lld us); commit %lld us",
	       calls, worst_statx / 1000, slept, worst_sleep / 1000,
	       worst_commit / 1000);
	/*
	 * The throttled disk makes each commit take this long; a statx() that
	 * waits for the superblock writes of one takes a good part of it.
	 */
	ASSERT_LT(400000000LL, worst_commit);
	EXPECT_GT(worst_commit / 10, worst_sleep);
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
	char dir[128];
	char path[PATH_MAX];
};

FIXTURE_VARIANT(kfile) {
	const char *dir;	/* where to look for a file */
	const char *file;	/* or this one */
	const struct statx_fs *fs;	/* or one written on this */
	long magic;		/* statfs() f_type of the filesystem */
	bool kernel_file;	/* is the flag expected? */
	bool sized_unlike_read;	/* stx_size never equals the read length */
	bool dir_only;		/* @file is a directory of a generated fs */
};

FIXTURE_VARIANT_ADD(kfile, proc_status) {
	.file = "/proc/self/status", .magic = PROC_SUPER_MAGIC,
	.kernel_file = true, .sized_unlike_read = true,
};

/* Defined for regular files only: a directory never has it. */
FIXTURE_VARIANT_ADD(kfile, proc_dir) {
	.file = "/proc/sys", .magic = PROC_SUPER_MAGIC, .dir_only = true,
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
	.fs = STATX_FS(EXT4), .magic = EXT4_SUPER_MAGIC,
};

FIXTURE_VARIANT_ADD(kfile, tmpfs) {
	.fs = STATX_FS(TMPFS), .magic = TMPFS_MAGIC,
};

FIXTURE_SETUP(kfile)
{
	struct statfs sfs;

	if (variant->dir_only) {
		snprintf(self->path, sizeof(self->path), "%s", variant->file);
		if (statfs(self->path, &sfs) || sfs.f_type != variant->magic)
			STATX_SKIP(return, "%s is not on the expected filesystem",
				   variant->file);
		return;
	}
	if (variant->fs) {
		enum statx_verdict v;
		char why[160];

		v = statx_fs_mkdtemp(variant->fs, "kfile", self->dir,
				     sizeof(self->dir), why, sizeof(why));
		if (v == STATX_CANNOT)
			STATX_SKIP(return, "%s", why);
		ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
		ASSERT_EQ(0, statfs(self->dir, &sfs));
		ASSERT_EQ(variant->magic, sfs.f_type);
		snprintf(self->path, sizeof(self->path), "%s/kfile", self->dir);
		ASSERT_EQ(0, write_file(self->path, 100));
		return;
	}
	/*
	 * The answer belongs to the filesystem: where it holds no regular file
	 * (configfs without subsystems), its root directory must answer, "no"
	 * as for every directory.
	 */
	if (variant->file)
		snprintf(self->path, sizeof(self->path), "%s", variant->file);
	else if (!find_file(variant->dir, 3, variant->magic, self->path,
			    sizeof(self->path)))
		snprintf(self->path, sizeof(self->path), "%s", variant->dir);
	if (statfs(self->path, &sfs) || sfs.f_type != variant->magic)
		STATX_SKIP(return, "%.900s is not on the expected filesystem",
			   self->path);
}

FIXTURE_TEARDOWN(kfile)
{
	if (self->dir[0])
		statx_rmtree(self->dir);
}

TEST_F(kfile, flag)
{
	struct statx stx;

	if (!kernel_has_info_flags())
		STATX_SKIP(return, "the kernel does not report STATX_ATTR_KERNEL_FILE");
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->path, 0, STATX_BASIC_STATS,
			       &stx));
	TH_LOG("%s: size %llu", self->path,
	       (unsigned long long)stx.stx_size);
	/* Every filesystem type here has been audited: the mask is set. */
	ASSERT_TRUE(stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE);
	EXPECT_EQ(variant->kernel_file && S_ISREG(stx.stx_mode),
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
 * The filesystem types whose regular files the kernel generates, as this
 * test knows them (not from the kernel's own list): each must answer "yes"
 * if it answers at all.
 */
static const char *const generated_types[] = {
	"proc", "sysfs", "cgroup", "cgroup2", "cpuset", "debugfs", "tracefs",
	"configfs", "securityfs", "selinuxfs", "smackfs", "bpf", "nfsd",
	"mqueue", "binfmt_misc", "fusectl", "rpc_pipefs", "resctrl",
};

static bool is_generated_type(const char *type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(generated_types); i++)
		if (!strcmp(type, generated_types[i]))
			return true;
	return false;
}

/*
 * Read at most @max bytes of @path without blocking; the number read, or
 * -1 if it cannot be read.
 */
static long long read_length(const char *path, long long max)
{
	char buf[4096];
	long long total = 0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	while (total <= max && (n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0 && total == 0)
		total = -1;
	close(fd);
	return total;
}

struct kfile_walk {
	struct __test_metadata *md;
	const char *type;
	bool generated;
	int files, dirs, advertised;
};

/* Check the answer for one file of a filesystem of type @w->type. */
static void kfile_check(struct kfile_walk *w, const char *path)
{
	struct __test_metadata *_metadata = w->md;
	struct statx stx;

	if (sys_statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
		      &stx))
		return;
	if (!(stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE))
		return;
	w->advertised++;
	if (!S_ISREG(stx.stx_mode)) {
		w->dirs++;
		/* Defined for regular files only */
		EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_KERNEL_FILE)
			TH_LOG("%s (%s) is not a regular file", path, w->type);
		return;
	}
	w->files++;
	if (w->generated) {
		EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_KERNEL_FILE)
			TH_LOG("%s: %s generates its files", path, w->type);
	} else if (!(stx.stx_attributes & STATX_ATTR_KERNEL_FILE)) {
		/* "Stored": a read returns exactly stx_size bytes. */
		long long n = read_length(path, stx.stx_size);

		if (n >= 0)
			EXPECT_EQ((long long)stx.stx_size, n)
				TH_LOG("%s (%s) answers \"not generated\"",
				       path, w->type);
	}
}

static void kfile_walk(struct kfile_walk *w, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)) && w->files < 40) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;
		kfile_check(w, path);
		if (S_ISDIR(st.st_mode) && depth > 0)
			kfile_walk(w, path, depth - 1);
	}
	closedir(d);
}

static void on_alarm(int sig)
{
}

static bool dir_empty(const char *dir)
{
	struct dirent *de;
	bool empty = true;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (empty && (de = readdir(d)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(d);
	return empty;
}

/*
 * Every filesystem type the kernel mounts without a device, mounted here
 * in a private namespace: a type either leaves STATX_ATTR_KERNEL_FILE out
 * of stx_attributes_mask, or answers it right for its files.
 */
TEST(kernel_file_every_type)
{
	char line[256], dir[] = "/tmp/statx-kfile.XXXXXX";
	struct sigaction act = { .sa_handler = on_alarm };
	int mounted = 0, answering = 0;
	FILE *f;

	if (!kernel_has_info_flags())
		STATX_SKIP(return, "the kernel does not report STATX_ATTR_KERNEL_FILE");
	ASSERT_TRUE(private_mounts());
	ASSERT_TRUE(!!mkdtemp(dir));
	/* A pipe-like file must not hang the test: interrupt its read. */
	ASSERT_EQ(0, sigaction(SIGALRM, &act, NULL));
	f = fopen("/proc/filesystems", "r");
	ASSERT_TRUE(!!f);
	while (fgets(line, sizeof(line), f)) {
		struct kfile_walk w = { .md = _metadata };
		char type[64], probe[PATH_MAX];
		int fd;

		if (sscanf(line, "nodev %63s", type) != 1)
			continue;
		if (mount("none", dir, type, 0, NULL)) {
			TH_LOG("%s: not mountable here (%s)", type,
			       strerror(errno));
			continue;
		}
		mounted++;
		w.type = type;
		w.generated = is_generated_type(type);
		/*
		 * A new, empty instance that stores data gets a file of its
		 * own; one that shows existing contents (devtmpfs) does not.
		 */
		snprintf(probe, sizeof(probe), "%s/statx-probe", dir);
		fd = dir_empty(dir) ?
		     open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644) : -1;
		if (fd >= 0) {
			if (write(fd, "stored\n", 7) != 7)
				TH_LOG("%s: short write", type);
			close(fd);
		}
		kfile_check(&w, dir);
		alarm(20);
		kfile_walk(&w, dir, 3);
		alarm(0);
		TH_LOG("%s: %s, %d regular files and %d others answered",
		       type, w.advertised ? "audited" : "not audited",
		       w.files, w.dirs);
		if (w.advertised)
			answering++;
		if (fd >= 0)
			unlink(probe);
		umount2(dir, MNT_DETACH);
	}
	fclose(f);
	rmdir(dir);
	EXPECT_LT(0, mounted);
	EXPECT_LT(0, answering);
}

/*
 * Disk filesystems store their files' data: they answer "not generated",
 * and a read returns stx_size bytes.  Each filesystem of
 * statx_filesystems[] with a file written here, and squashfs and erofs
 * with a file mkimages.sh stored.
 */
TEST(kernel_file_disk_types)
{
	static const char *const images[] = { "squashfs", "erofs" };
	const unsigned int nfs = ARRAY_SIZE(statx_filesystems);
	unsigned int i, checked = 0;

	if (!kernel_has_info_flags())
		STATX_SKIP(return, "the kernel does not report STATX_ATTR_KERNEL_FILE");
	for (i = 0; i < nfs + ARRAY_SIZE(images); i++) {
		const struct statx_fs *fs;
		const char *name;
		char dir[128], file[PATH_MAX], why[160];
		enum statx_verdict v;
		struct statx stx;

		if (i < nfs) {
			fs = &statx_filesystems[i];
			name = fs->name;
			if (!strcmp(fs->fstype, "tmpfs"))
				continue;	/* not a disk filesystem */
			v = statx_fs_mkdtemp(fs, "kfile", dir, sizeof(dir),
					     why, sizeof(why));
			snprintf(file, sizeof(file), "%s/KFILE.TXT", dir);
			if (v == STATX_GO_ON)
				ASSERT_EQ(0, write_file(file, 123));
		} else {
			name = images[i - nfs];
			v = statx_fs_given(name, name, false, dir, sizeof(dir),
					   why, sizeof(why));
			snprintf(file, sizeof(file), "%s/text.txt", dir);
		}
		if (v == STATX_CANNOT) {
			TH_LOG("%s: %s", name, why);
			continue;
		}
		ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
		ASSERT_EQ(0, sys_statx(AT_FDCWD, file, 0, STATX_BASIC_STATS,
				       &stx));
		EXPECT_TRUE(stx.stx_attributes_mask & STATX_ATTR_KERNEL_FILE)
			TH_LOG("%s does not answer", name);
		EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_KERNEL_FILE);
		EXPECT_EQ((long long)stx.stx_size,
			  read_length(file, stx.stx_size));
		if (i < nfs)
			statx_rmtree(dir);
		checked++;
	}
	if (!checked)
		STATX_SKIP(return, "no disk filesystem could be made (see above)");
}

/*
 * Sparse: ntfs3 reports NTFS's persistent attribute; a file without it has
 * all its bytes allocated.
 */
FIXTURE(sparse) {
	char dir[128];
	char plain[PATH_MAX];
	char holey[PATH_MAX];
};

FIXTURE_VARIANT(sparse) {
	const struct statx_fs *fs;
	bool can_be_sparse;	/* does the filesystem keep holes? */
	bool advertised;	/* in stx_attributes_mask */
};

FIXTURE_VARIANT_ADD(sparse, ntfs3) {
	.fs = STATX_FS(NTFS3), .can_be_sparse = true, .advertised = true,
};

FIXTURE_VARIANT_ADD(sparse, vfat) {
	.fs = STATX_FS(VFAT), .advertised = true,
};

FIXTURE_VARIANT_ADD(sparse, exfat) {
	.fs = STATX_FS(EXFAT), .advertised = true,
};

/* These keep holes but cannot tell without walking the extents. */
FIXTURE_VARIANT_ADD(sparse, ext4) {
	.fs = STATX_FS(EXT4), .can_be_sparse = true,
};

FIXTURE_VARIANT_ADD(sparse, xfs) {
	.fs = STATX_FS(XFS), .can_be_sparse = true,
};

FIXTURE_VARIANT_ADD(sparse, btrfs) {
	.fs = STATX_FS(BTRFS), .can_be_sparse = true,
};

FIXTURE_VARIANT_ADD(sparse, tmpfs) {
	.fs = STATX_FS(TMPFS), .can_be_sparse = true,
};

#define HOLE_AT	(1024 * 1024)

FIXTURE_SETUP(sparse)
{
	enum statx_verdict v;
	char why[160];
	int fd;

	v = statx_fs_mkdtemp(variant->fs, "sparse", self->dir,
			     sizeof(self->dir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(self->plain, sizeof(self->plain), "%s/plain", self->dir);
	snprintf(self->holey, sizeof(self->holey), "%s/holey", self->dir);
	ASSERT_EQ(0, write_file(self->plain, 3 * 4096));

	fd = open(self->holey, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	if (!strcmp(variant->fs->fstype, "ntfs3")) {
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
	statx_rmtree(self->dir);
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
	off_t data;
	int fd;

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
		STATX_SKIP(return, "the kernel does not report STATX_ATTR_SPARSE");
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
		/*
		 * The hole, as the extent map has it: st_blocks of a sparse
		 * file counts its whole allocation size in 7.3.
		 */
		fd = open(self->holey, O_RDONLY);
		ASSERT_LE(0, fd);
		data = lseek(fd, 0, SEEK_DATA);
		close(fd);
		EXPECT_LE(4096, data);
		EXPECT_GE(HOLE_AT, data);
	} else {
		/* FAT, exFAT: the "hole" was allocated and zeroed. */
		EXPECT_EQ(0, holey.stx_attributes & STATX_ATTR_SPARSE);
		EXPECT_LE(st.st_size, st.st_blocks * 512);
	}
}

/*
 * Stored compressed: the images mkimages.sh made with compression report
 * it on a file whose data compressed, not on one of random data (which
 * mksquashfs and mkfs.erofs keep plain), and an image made without
 * compression on neither.  STATX_ATTR_COMPRESSED stays as the unpatched
 * kernel reports it: erofs from the layout, squashfs not at all.
 */
FIXTURE(compressed) {
	char mnt[96];
};

FIXTURE_VARIANT(compressed) {
	const char *fstype;
	const char *image;	/* made by mkimages.sh */
	bool compressed;	/* how the image was made */
};

FIXTURE_VARIANT_ADD(compressed, squashfs) {
	.fstype = "squashfs", .image = "squashfs",
	.compressed = true,
};

FIXTURE_VARIANT_ADD(compressed, squashfs_plain) {
	.fstype = "squashfs", .image = "squashfs-plain",
};

FIXTURE_VARIANT_ADD(compressed, erofs) {
	.fstype = "erofs", .image = "erofs", .compressed = true,
};

FIXTURE_VARIANT_ADD(compressed, erofs_plain) {
	.fstype = "erofs", .image = "erofs-plain",
};

FIXTURE_SETUP(compressed)
{
	enum statx_verdict v;
	char why[160];

	v = statx_fs_given(variant->image, variant->fstype, false, self->mnt,
			   sizeof(self->mnt), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
}

FIXTURE_TEARDOWN(compressed)
{
}

/* STATX_ATTR_COMPRESSED as before STORED_COMPRESSED: erofs's layout, squashfs none */
TEST_F(compressed, as_before)
{
	char path[PATH_MAX];
	struct statx stx;
	bool erofs = !strcmp(variant->fstype, "erofs");

	snprintf(path, sizeof(path), "%s/text.txt", self->mnt);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(erofs, !!(stx.stx_attributes_mask & STATX_ATTR_COMPRESSED));
	EXPECT_EQ(erofs && variant->compressed,
		  !!(stx.stx_attributes & STATX_ATTR_COMPRESSED));
}

TEST_F(compressed, image_file)
{
	char path[PATH_MAX];
	struct statx stx;
	bool erofs = !strcmp(variant->fstype, "erofs");

	snprintf(path, sizeof(path), "%s/text.txt", self->mnt);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	if (!(stx.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED)) {
		ASSERT_FALSE(kernel_has_stored_compressed());
		STATX_SKIP(return, "%s does not report STATX_ATTR_STORED_COMPRESSED",
			   variant->fstype);
	}
	EXPECT_EQ(variant->compressed,
		  !!(stx.stx_attributes & STATX_ATTR_STORED_COMPRESSED));
	/* erofs counts the compressed blocks: far fewer than the size. */
	if (erofs && variant->compressed)
		EXPECT_GT(stx.stx_size / 2, stx.stx_blocks * 512);
}

/* Random data does not shrink: both tools keep it plain. */
TEST_F(compressed, random_file)
{
	char path[PATH_MAX];
	struct statx stx;

	snprintf(path, sizeof(path), "%s/random.bin", self->mnt);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	if (!(stx.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED)) {
		ASSERT_FALSE(kernel_has_stored_compressed());
		STATX_SKIP(return, "%s does not report STATX_ATTR_STORED_COMPRESSED",
			   variant->fstype);
	}
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_STORED_COMPRESSED);
}

/* How many 512-byte sectors the block device @dev has read (its stat file). */
static bool sectors_read(dev_t dev, unsigned long long *sectors)
{
	char path[PATH_MAX];
	unsigned long long ios, merges;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(dev),
		 minor(dev));
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu %llu", &ios, &merges, sectors) == 3;
	fclose(f);
	return ok;
}

/*
 * The first statx() of a squashfs file reads a bounded part of its block
 * list: big, in squashfs-big (mkimages.sh), has 262144 blocks, whose
 * list of 1 MiB is stored uncompressed, all sparse.  The device's read
 * counter says how much of it the first statx() read; the first page of
 * the list (4 KiB) leaves too many blocks unread to tell, so the
 * attribute is not advertised for the file.
 */
TEST(squashfs_first_statx_bounded)
{
	unsigned long long before, after;
	struct timespec t0, t1;
	char mnt[96], path[PATH_MAX], why[160];
	enum statx_verdict v;
	struct statx stx;
	struct stat st;
	int fd;

	v = statx_fs_given("squashfs-big", "squashfs", false, mnt, sizeof(mnt),
			   why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(path, sizeof(path), "%s/big", mnt);
	/* The lookup reads the directory and the inode. */
	fd = open(path, O_PATH);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, stat(mnt, &st));
	ASSERT_TRUE(sectors_read(st.st_dev, &before));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_TRUE(sectors_read(st.st_dev, &after));
	close(fd);
	TH_LOG("first statx() of a 1 GiB file: %lld us, %llu KiB read",
	       ((t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec -
		t0.tv_nsec) / 1000, (after - before) / 2);
	EXPECT_EQ(1ULL << 30, stx.stx_size);
	EXPECT_GE(64ULL * 2, after - before);
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_STORED_COMPRESSED);
	EXPECT_EQ(0, stx.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED);
}

/* Directories and symlinks are not described. */
TEST_F(compressed, directory)
{
	struct statx stx;

	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->mnt, 0, STATX_BASIC_STATS,
			       &stx));
	EXPECT_EQ(0, stx.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED);
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_STORED_COMPRESSED);
}

/* Is @path's NTFS compressed attribute set, as system.ntfs_attrib says? */
static int ntfs_compressed(const char *path)
{
	__u32 fa;

	if (getxattr(path, "system.ntfs_attrib", &fa, sizeof(fa)) != sizeof(fa))
		return -1;
	return !!(fa & NTFS_ATTR_COMPRESSED);
}

/*
 * ntfs3: text.txt was copied by ntfscp onto a volume made with mkntfs -C
 * (mkimages.sh), which stores it compressed; a file written here on a
 * plain volume is not.  small.txt, on the same volume, has the compressed
 * flag but its data is resident in the MFT record, stored as it is.
 */
TEST(ntfs3_stored_compressed)
{
	char cmnt[96], pdir[128], cfile[PATH_MAX], pfile[PATH_MAX];
	char rfile[PATH_MAX], why[160];
	enum statx_verdict v;
	struct statx c, p, r;

	v = statx_fs_given("ntfs3-c", "ntfs3", false, cmnt, sizeof(cmnt), why,
			   sizeof(why));
	if (v == STATX_GO_ON)
		v = statx_fs_mkdtemp(STATX_FS(NTFS3), "plain", pdir,
				     sizeof(pdir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(cfile, sizeof(cfile), "%s/text.txt", cmnt);
	snprintf(pfile, sizeof(pfile), "%s/plain", pdir);
	snprintf(rfile, sizeof(rfile), "%s/small.txt", cmnt);
	ASSERT_EQ(0, write_file(pfile, 65536));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, cfile, 0, STATX_BASIC_STATS, &c));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, rfile, 0, STATX_BASIC_STATS, &r));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, pfile, 0, STATX_BASIC_STATS, &p));
	unlink(pfile);
	rmdir(pdir);
	/* The image as ntfscp wrote it, as ntfs3's own xattr reads it */
	ASSERT_EQ(1, ntfs_compressed(cfile));
	if (!(c.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED)) {
		ASSERT_FALSE(kernel_has_stored_compressed());
		/* STATX_ATTR_COMPRESSED as before STORED_COMPRESSED */
		ASSERT_TRUE(c.stx_attributes & STATX_ATTR_COMPRESSED);
		ASSERT_EQ(0, p.stx_attributes & STATX_ATTR_COMPRESSED);
		STATX_SKIP(return, "ntfs3 does not report STATX_ATTR_STORED_COMPRESSED");
	}
	/* STATX_ATTR_COMPRESSED as before STORED_COMPRESSED */
	EXPECT_TRUE(c.stx_attributes & STATX_ATTR_COMPRESSED);
	EXPECT_EQ(0, p.stx_attributes & STATX_ATTR_COMPRESSED);
	EXPECT_TRUE(c.stx_attributes & STATX_ATTR_STORED_COMPRESSED);
	ASSERT_TRUE(p.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED);
	EXPECT_EQ(0, p.stx_attributes & STATX_ATTR_STORED_COMPRESSED);
	/* ntfscp stored it in fewer clusters than its size needs. */
	EXPECT_GT(c.stx_size, c.stx_blocks * 512);
	/* Resident data: the flag is set, nothing is stored compressed. */
	ASSERT_EQ(1, ntfs_compressed(rfile));
	EXPECT_EQ(6, r.stx_size);
	EXPECT_TRUE(r.stx_attributes & STATX_ATTR_COMPRESSED);
	ASSERT_TRUE(r.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED);
	EXPECT_EQ(0, r.stx_attributes & STATX_ATTR_STORED_COMPRESSED)
		TH_LOG("resident small.txt reported as stored compressed");
}

/*
 * FS_COMPR_FL (chattr +c) on ext4 and btrfs: STATX_ATTR_COMPRESSED is set
 * and advertised, as it has been since statx() came: a kernel without
 * STATX_ATTR_STORED_COMPRESSED gives the same answer.  Neither filesystem can tell
 * whether data is stored compressed, so neither advertises
 * STATX_ATTR_STORED_COMPRESSED.
 */
FIXTURE(compr_flag) {
	char dir[128];
	char file[PATH_MAX];
};

FIXTURE_VARIANT(compr_flag) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(compr_flag, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(compr_flag, btrfs) { .fs = STATX_FS(BTRFS) };

FIXTURE_SETUP(compr_flag)
{
	enum statx_verdict v;
	char why[160];

	v = statx_fs_mkdtemp(variant->fs, "compr", self->dir,
			     sizeof(self->dir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	snprintf(self->file, sizeof(self->file), "%s/compr", self->dir);
	ASSERT_EQ(0, write_file(self->file, 0));
}

FIXTURE_TEARDOWN(compr_flag)
{
	statx_rmtree(self->dir);
}

TEST_F(compr_flag, as_before)
{
	struct statx stx;
	int fd, flags;

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
	EXPECT_TRUE(stx.stx_attributes_mask & STATX_ATTR_COMPRESSED);
	EXPECT_TRUE(stx.stx_attributes & STATX_ATTR_COMPRESSED);
	EXPECT_EQ(0, stx.stx_attributes_mask & STATX_ATTR_STORED_COMPRESSED);
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_STORED_COMPRESSED);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
