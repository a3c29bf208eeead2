// SPDX-License-Identifier: GPL-2.0
/*
 * What statx(2) says about mounts and devices, against the kernel's other
 * interfaces: stx_mnt_id is the ID in /proc/self/mountinfo and
 * STATX_MNT_ID_UNIQUE the one statmount(2) takes; STATX_ATTR_MOUNT_ROOT
 * is set on exactly the mount roots, bind mounts included; stx_dev is the
 * device in mountinfo and statmount, and for a filesystem on a disk the
 * disk's own number in sysfs; STATX_SUBVOL is btrfs's subvolume ID.
 */
#include "statx_helpers.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/mount.h>

#include "../kselftest_harness.h"

#ifndef __NR_statmount
#define __NR_statmount 457
#endif

#ifndef MNT_DETACH
#define MNT_DETACH 2
#endif

/* Every mount point in mountinfo, the top mount for each. */
struct mounts {
	unsigned int n;
	struct {
		char dir[256];
		struct statx_mount m;
	} e[128];
};

static void read_mounts(struct mounts *ms)
{
	char line[4096], dir[PATH_MAX];
	unsigned int i;
	FILE *f;

	ms->n = 0;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %*u:%*u %*s %4095s", dir) != 1 ||
		    strchr(dir, '\\') || strlen(dir) >= sizeof(ms->e[0].dir))
			continue;
		for (i = 0; i < ms->n; i++)
			if (!strcmp(ms->e[i].dir, dir))
				break;
		if (i == ms->n) {
			if (ms->n == ARRAY_SIZE(ms->e))
				continue;
			ms->n++;
			snprintf(ms->e[i].dir, sizeof(ms->e[i].dir), "%s", dir);
		}
		statx_mountinfo(dir, &ms->e[i].m);
	}
	fclose(f);
}

/* Does st_dev name the superblock's device on this filesystem type? */
static bool dev_is_sb_dev(const char *fstype)
{
	/* btrfs: one anonymous device per subvolume; overlay: the layer's */
	return strcmp(fstype, "btrfs") && strcmp(fstype, "overlay");
}

TEST(mnt_id_matches_mountinfo)
{
	struct mounts ms;
	struct statx stx;
	unsigned int i;

	read_mounts(&ms);
	ASSERT_LT(0, ms.n);
	for (i = 0; i < ms.n; i++) {
		const struct statx_mount *m = &ms.e[i].m;

		memset(&stx, STATX_POISON, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, ms.e[i].dir, AT_NO_AUTOMOUNT,
				       STATX_MNT_ID, &stx)) {
			TH_LOG("%s: %s", ms.e[i].dir, strerror(errno));
		}
		EXPECT_EQ(STATX_MNT_ID, stx.stx_mask & STATX_MNT_ID);
		EXPECT_EQ(0, stx.stx_mask & STATX_MNT_ID_UNIQUE);
		EXPECT_EQ(m->id, stx.stx_mnt_id) {
			TH_LOG("%s", ms.e[i].dir);
		}
		EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
			  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) {
			TH_LOG("%s", ms.e[i].dir);
		}
		if (!dev_is_sb_dev(m->fstype))
			continue;
		EXPECT_EQ(m->dev_major, stx.stx_dev_major) {
			TH_LOG("%s", ms.e[i].dir);
		}
		EXPECT_EQ(m->dev_minor, stx.stx_dev_minor) {
			TH_LOG("%s", ms.e[i].dir);
		}
	}
}

TEST(mnt_id_unique_matches_statmount)
{
	struct mnt_id_req req = { .size = MNT_ID_REQ_SIZE_VER0 };
	struct statmount sm;
	struct mounts ms;
	struct statx stx;
	unsigned int i;

	read_mounts(&ms);
	ASSERT_LT(0, ms.n);
	/* statmount() came in 6.8: without it, nothing to compare with */
	ASSERT_EQ(0, sys_statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, &stx));
	req.mnt_id = stx.stx_mnt_id;
	req.param = STATMOUNT_MNT_BASIC;
	if (syscall(__NR_statmount, &req, &sm, sizeof(sm), 0))
		STATX_SKIP(return, "statmount() of /: %s", strerror(errno));
	for (i = 0; i < ms.n; i++) {
		const struct statx_mount *m = &ms.e[i].m;

		memset(&stx, STATX_POISON, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, ms.e[i].dir, AT_NO_AUTOMOUNT,
				       STATX_MNT_ID_UNIQUE, &stx));
		/* One or the other ID, never both */
		EXPECT_EQ(STATX_MNT_ID_UNIQUE,
			  stx.stx_mask & (STATX_MNT_ID | STATX_MNT_ID_UNIQUE));

		memset(&sm, 0, sizeof(sm));
		req.mnt_id = stx.stx_mnt_id;
		req.param = STATMOUNT_MNT_BASIC | STATMOUNT_SB_BASIC;
		ASSERT_EQ(0, syscall(__NR_statmount, &req, &sm, sizeof(sm), 0)) {
			TH_LOG("statmount(%llu) for %s: %s",
			       (unsigned long long)req.mnt_id, ms.e[i].dir,
			       strerror(errno));
		}
		EXPECT_EQ(stx.stx_mnt_id, sm.mnt_id);
		EXPECT_EQ(m->id, sm.mnt_id_old) {
			TH_LOG("%s", ms.e[i].dir);
		}
		if (!dev_is_sb_dev(m->fstype))
			continue;
		EXPECT_EQ(sm.sb_dev_major, stx.stx_dev_major);
		EXPECT_EQ(sm.sb_dev_minor, stx.stx_dev_minor);
	}
}

/*
 * STATX_ATTR_MOUNT_ROOT is set exactly where mountinfo has a mount point,
 * and the attribute mask always has it.
 */
TEST(mount_root_exact)
{
	static const char *const paths[] = {
		"/", "/proc", "/proc/1", "/proc/sys", "/sys", "/sys/kernel",
		"/sys/kernel/debug", "/sys/fs/cgroup", "/dev", "/dev/null",
		"/tmp", "/mnt", "/etc", "/bin", STATX_FS_ROOT,
	};
	struct statx_mount m;
	struct statx stx;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		if (sys_statx(AT_FDCWD, paths[i], 0, 0, &stx))
			continue;
		n++;
		EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
			  stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT);
		EXPECT_EQ(statx_mountinfo(paths[i], &m) ?
			  STATX_ATTR_MOUNT_ROOT : 0,
			  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) {
			TH_LOG("%s", paths[i]);
		}
	}
	EXPECT_LT(2, n);
}

FIXTURE(mnt) {
	char root[64];
	char dir[128];
	struct statx_mount m;
};

FIXTURE_VARIANT(mnt) {
	const struct statx_fs *fs;
};

FIXTURE_VARIANT_ADD(mnt, tmpfs) { .fs = STATX_FS(TMPFS) };
FIXTURE_VARIANT_ADD(mnt, ext4) { .fs = STATX_FS(EXT4) };
FIXTURE_VARIANT_ADD(mnt, ext4_lbs4k) { .fs = STATX_FS(EXT4_LBS4K) };
FIXTURE_VARIANT_ADD(mnt, xfs) { .fs = STATX_FS(XFS) };
FIXTURE_VARIANT_ADD(mnt, btrfs) { .fs = STATX_FS(BTRFS) };
FIXTURE_VARIANT_ADD(mnt, vfat) { .fs = STATX_FS(VFAT) };
FIXTURE_VARIANT_ADD(mnt, msdos) { .fs = STATX_FS(MSDOS) };
FIXTURE_VARIANT_ADD(mnt, exfat) { .fs = STATX_FS(EXFAT) };
FIXTURE_VARIANT_ADD(mnt, ntfs3) { .fs = STATX_FS(NTFS3) };

FIXTURE_SETUP(mnt)
{
	enum statx_verdict v;
	char why[160];

	statx_fs_root(variant->fs, self->root, sizeof(self->root));
	v = statx_fs_mkdtemp(variant->fs, "mount", self->dir,
			     sizeof(self->dir), why, sizeof(why));
	if (v == STATX_CANNOT)
		STATX_SKIP(return, "%s", why);
	ASSERT_EQ(STATX_GO_ON, v) TH_LOG("%s", why);
	ASSERT_TRUE(statx_mountinfo(self->root, &self->m));
}

FIXTURE_TEARDOWN(mnt)
{
	char path[256];

	if (!self->dir[0])
		return;
	/* bind_mount_root's mounts, if it stopped half-way */
	snprintf(path, sizeof(path), "%s/fdst", self->dir);
	syscall(__NR_umount2, path, MNT_DETACH);
	snprintf(path, sizeof(path), "%s/dst", self->dir);
	syscall(__NR_umount2, path, MNT_DETACH);
	statx_rmtree(self->dir);
}

/* Inside the mount: its ID, its device, and not a mount root. */
TEST_F(mnt, inside)
{
	char path[256];
	struct statx stx;
	int fd;

	snprintf(path, sizeof(path), "%s/file", self->dir);
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(STATX_MNT_ID, stx.stx_mask & STATX_MNT_ID);
	EXPECT_EQ(self->m.id, stx.stx_mnt_id);
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT);
	if (dev_is_sb_dev(self->m.fstype)) {
		EXPECT_EQ(self->m.dev_major, stx.stx_dev_major);
		EXPECT_EQ(self->m.dev_minor, stx.stx_dev_minor);
	}
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->dir, 0, 0, &stx));
	EXPECT_EQ(self->m.id, stx.stx_mnt_id);
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

/*
 * A filesystem on a disk was mounted from a device node, the source
 * mountinfo gives: stx_dev is that node's device number.
 */
TEST_F(mnt, dev_is_the_disk)
{
	struct statx root, stx;
	struct stat st;

	if (variant->fs->bdev) {
		ASSERT_EQ(0, stat(self->m.source, &st)) {
			TH_LOG("the mount's source %s: %m", self->m.source);
		}
		ASSERT_TRUE(S_ISBLK(st.st_mode));
	}
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->root, 0, 0, &root));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->dir, 0, 0, &stx));
	EXPECT_EQ(root.stx_dev_major, stx.stx_dev_major);
	EXPECT_EQ(root.stx_dev_minor, stx.stx_dev_minor);
	if (!variant->fs->bdev) {
		/* tmpfs, btrfs: an anonymous device */
		EXPECT_EQ(0, stx.stx_dev_major);
		return;
	}
	EXPECT_EQ(major(st.st_rdev), stx.stx_dev_major);
	EXPECT_EQ(minor(st.st_rdev), stx.stx_dev_minor);
	EXPECT_EQ(self->m.dev_major, stx.stx_dev_major);
	EXPECT_EQ(self->m.dev_minor, stx.stx_dev_minor);
}

/* btrfs's subvolume ID as its own ioctl reports it. */
static __u64 btrfs_tree_id(struct __test_metadata *_metadata,
			   const char *path)
{
	struct btrfs_ioctl_ino_lookup_args args = {
		.objectid = BTRFS_FIRST_FREE_OBJECTID,
	};
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	EXPECT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, BTRFS_IOC_INO_LOOKUP, &args));
	close(fd);
	return args.treeid;
}

TEST_F(mnt, subvol)
{
	struct btrfs_ioctl_vol_args args = { 0 };
	char sub[160], path[256];
	struct statx top, stx;
	int fd;

	snprintf(path, sizeof(path), "%s/file", self->dir);
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	memset(&top, STATX_POISON, sizeof(top));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_SUBVOL, &top));
	if (strcmp(variant->fs->fstype, "btrfs")) {
		EXPECT_EQ(0, top.stx_mask & STATX_SUBVOL);
		EXPECT_EQ(0, top.stx_subvol);
		return;
	}
	ASSERT_EQ(STATX_SUBVOL, top.stx_mask & STATX_SUBVOL);
	EXPECT_EQ(btrfs_tree_id(_metadata, self->dir), top.stx_subvol);
	EXPECT_EQ(BTRFS_FS_TREE_OBJECTID, top.stx_subvol);

	/* A new subvolume: a new ID and a new anonymous device */
	fd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	snprintf(args.name, sizeof(args.name), "sub");
	ASSERT_EQ(0, ioctl(fd, BTRFS_IOC_SUBVOL_CREATE, &args)) {
		TH_LOG("BTRFS_IOC_SUBVOL_CREATE: %s", strerror(errno));
	}
	close(fd);
	snprintf(sub, sizeof(sub), "%s/sub", self->dir);
	snprintf(path, sizeof(path), "%s/file", sub);
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, path, 0, STATX_SUBVOL, &stx));
	ASSERT_EQ(STATX_SUBVOL, stx.stx_mask & STATX_SUBVOL);
	EXPECT_EQ(btrfs_tree_id(_metadata, sub), stx.stx_subvol);
	EXPECT_NE(top.stx_subvol, stx.stx_subvol);
	EXPECT_FALSE(top.stx_dev_major == stx.stx_dev_major &&
		     top.stx_dev_minor == stx.stx_dev_minor);
	/* The mount ID is still the one of the btrfs mount. */
	EXPECT_EQ(self->m.id, stx.stx_mnt_id);
	ASSERT_EQ(0, unlink(path));
	EXPECT_EQ(0, rmdir(sub));
}

/*
 * Bind mounts of a directory and of a file are mount roots while they
 * are mounted, and have the new mount's ID; their source is not a root.
 * They are made in a mount namespace of the test's own, where the mount
 * under test has another ID, so that no other process sees them.
 */
TEST_F(mnt, bind_mount_root)
{
	char src[256], dst[256], fsrc[256], fdst[256];
	struct statx_mount bm;
	struct statx stx;
	int fd;

	if (geteuid())
		STATX_SKIP(return, "bind mounts need CAP_SYS_ADMIN");
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, syscall(__NR_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE,
			     NULL));
	ASSERT_TRUE(statx_mountinfo(self->root, &self->m));
	snprintf(src, sizeof(src), "%s/src", self->dir);
	snprintf(dst, sizeof(dst), "%s/dst", self->dir);
	snprintf(fsrc, sizeof(fsrc), "%s/fsrc", self->dir);
	snprintf(fdst, sizeof(fdst), "%s/fdst", self->dir);
	ASSERT_EQ(0, mkdir(src, 0755));
	ASSERT_EQ(0, mkdir(dst, 0755));
	fd = open(fsrc, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	fd = open(fdst, O_CREAT | O_WRONLY | O_EXCL, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));

	ASSERT_EQ(0, syscall(__NR_mount, src, dst, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, syscall(__NR_mount, fsrc, fdst, NULL, MS_BIND, NULL));

	ASSERT_TRUE(statx_mountinfo(dst, &bm));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, dst, 0, 0, &stx));
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(bm.id, stx.stx_mnt_id);
	EXPECT_NE(self->m.id, stx.stx_mnt_id);
	/* Not a new filesystem: same device, same inode as the source */
	EXPECT_EQ(self->m.dev_major, bm.dev_major);
	EXPECT_EQ(self->m.dev_minor, bm.dev_minor);

	ASSERT_EQ(0, sys_statx(AT_FDCWD, src, 0, 0, &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(self->m.id, stx.stx_mnt_id);

	ASSERT_TRUE(statx_mountinfo(fdst, &bm));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, fdst, 0, 0, &stx));
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(bm.id, stx.stx_mnt_id);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, fsrc, 0, 0, &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);

	/* Through an O_PATH descriptor of the bind mount too */
	fd = open(dst, O_PATH);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, 0, &stx));
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	close(fd);

	ASSERT_EQ(0, syscall(__NR_umount2, fdst, 0));
	ASSERT_EQ(0, syscall(__NR_umount2, dst, 0));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, dst, 0, 0, &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(self->m.id, stx.stx_mnt_id);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, fdst, 0, 0, &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

int main(int argc, char **argv)
{
	statx_fs_namespace();
	return test_harness_run(argc, argv);
}
