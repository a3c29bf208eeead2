// SPDX-License-Identifier: GPL-2.0
/*
 * What statx(2) says about mounts, which the VFS fills in whatever the
 * filesystem: stx_mnt_id is the ID in /proc/self/mountinfo, stx_dev the
 * device there; STATX_ATTR_MOUNT_ROOT is set on exactly the mount roots,
 * bind mounts of directories and files included; AT_NO_AUTOMOUNT stops at
 * an automount point, which STATX_ATTR_AUTOMOUNT marks, and without it
 * statx() mounts what is there.  Every mount looked at is one the case
 * makes in a mount namespace of its own.
 */
#include "statx_helpers.h"

#include <sys/statfs.h>
#include <linux/magic.h>

#include "../kselftest_harness.h"

/*
 * statx() of @path, or of @fd with AT_EMPTY_PATH if it is open, with
 * @flags; the attributes it returns are among those its mask knows.
 */
static void get_stx(struct __test_metadata *_metadata, int fd,
		    const char *path, unsigned int flags, struct statx *stx)
{
	int ret;

	memset(stx, STATX_POISON, sizeof(*stx));
	if (fd >= 0)
		ret = sys_statx(fd, "", flags | AT_EMPTY_PATH,
				STATX_BASIC_STATS, stx);
	else
		ret = sys_statx(AT_FDCWD, path, flags, STATX_BASIC_STATS, stx);
	ASSERT_EQ(0, ret)
		TH_LOG("statx %s%s: %s", path, fd >= 0 ? " (by fd)" : "",
		       strerror(errno));
	EXPECT_EQ(0, stx->stx_attributes & ~stx->stx_attributes_mask)
		TH_LOG("%s: attributes %#llx outside the mask %#llx", path,
		       (unsigned long long)stx->stx_attributes,
		       (unsigned long long)stx->stx_attributes_mask);
}

/*
 * @attr is set in stx_attributes of @path (and of @fd if it is open)
 * exactly when @set is, and stx_attributes_mask has it.
 */
static void expect_attr(struct __test_metadata *_metadata, int fd,
			const char *path, unsigned int flags, __u64 attr,
			bool set)
{
	struct statx stx;
	int i;

	for (i = 0; i < 2; i++) {
		if (i == 1 && fd < 0)
			break;
		get_stx(_metadata, i ? fd : -1, path, flags, &stx);
		EXPECT_EQ(attr, stx.stx_attributes_mask & attr)
			TH_LOG("%s%s: %#llx not in stx_attributes_mask %#llx",
			       path, i ? " (by fd)" : "",
			       (unsigned long long)attr,
			       (unsigned long long)stx.stx_attributes_mask);
		EXPECT_EQ(set ? attr : 0, stx.stx_attributes & attr)
			TH_LOG("%s%s: %#llx %s in stx_attributes %#llx", path,
			       i ? " (by fd)" : "", (unsigned long long)attr,
			       set ? "missing" : "wrongly set",
			       (unsigned long long)stx.stx_attributes);
	}
}

/* MOUNT_ROOT is set on @path exactly where mountinfo has a mount point. */
static void expect_mount_root(struct __test_metadata *_metadata,
			      const char *path, bool root)
{
	struct statx_mount m;
	int fd;

	EXPECT_EQ(root, statx_mountinfo(path, &m))
		TH_LOG("%s: mountinfo lists %s mount there", path,
		       root ? "no" : "a");
	fd = open(path, O_PATH | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	expect_attr(_metadata, fd, path, AT_SYMLINK_NOFOLLOW,
		    STATX_ATTR_MOUNT_ROOT, root);
	close(fd);
}

/*
 * Each mount the case makes, of several types, a bind mount among them:
 * STATX_MNT_ID (and not STATX_MNT_ID_UNIQUE) with the mountinfo ID, the
 * mount root flag, and the mountinfo device.
 */
TEST(mnt_id_matches_mountinfo)
{
	static const char *const dirs[] = {
		"/tmp", "/tmp/t", "/tmp/r", "/tmp/p", "/tmp/s", "/tmp/b",
	};
	struct statx_mount m;
	struct statx stx;
	unsigned int i;

	if (!statx_private_tmp(_metadata))
		return;
	ASSERT_EQ(0, statx_mount_at("tmpfs", "/tmp/t", 0, NULL));
	ASSERT_EQ(0, statx_mount_at("ramfs", "/tmp/r", 0, NULL));
	ASSERT_EQ(0, statx_mount_at("proc", "/tmp/p", 0, NULL));
	ASSERT_EQ(0, statx_mount_at("sysfs", "/tmp/s", 0, NULL));
	ASSERT_EQ(0, mkdir("/tmp/t/sub", 0755));
	ASSERT_EQ(0, mkdir("/tmp/b", 0755));
	ASSERT_EQ(0, mount("/tmp/t/sub", "/tmp/b", NULL, MS_BIND, NULL));
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		ASSERT_TRUE(statx_mountinfo(dirs[i], &m)) TH_LOG("%s", dirs[i]);
		memset(&stx, STATX_POISON, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, dirs[i], AT_NO_AUTOMOUNT,
				       STATX_MNT_ID, &stx))
			TH_LOG("%s: %s", dirs[i], strerror(errno));
		EXPECT_EQ(STATX_MNT_ID, stx.stx_mask & STATX_MNT_ID);
		EXPECT_EQ(0, stx.stx_mask & STATX_MNT_ID_UNIQUE);
		EXPECT_EQ(m.id, stx.stx_mnt_id) TH_LOG("%s", dirs[i]);
		EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
			  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)
			TH_LOG("%s", dirs[i]);
		EXPECT_EQ(m.dev_major, stx.stx_dev_major) TH_LOG("%s", dirs[i]);
		EXPECT_EQ(m.dev_minor, stx.stx_dev_minor) TH_LOG("%s", dirs[i]);
	}
}

/*
 * Inside a mount: its ID and device, the mount root flag known and clear,
 * for a file and a directory.
 */
TEST(inside)
{
	const char *const paths[] = { "/tmp/t/file", "/tmp/t/dir" };
	struct statx_mount m;
	struct statx stx;
	unsigned int i;

	if (!statx_private_tmp(_metadata))
		return;
	ASSERT_EQ(0, statx_mount_at("tmpfs", "/tmp/t", 0, NULL));
	ASSERT_TRUE(statx_mountinfo("/tmp/t", &m));
	ASSERT_EQ(0, statx_put_file(paths[0], "data\n", 5));
	ASSERT_EQ(0, mkdir(paths[1], 0755));
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		memset(&stx, STATX_POISON, sizeof(stx));
		ASSERT_EQ(0, sys_statx(AT_FDCWD, paths[i], 0,
				       STATX_BASIC_STATS, &stx));
		EXPECT_EQ(STATX_MNT_ID, stx.stx_mask & STATX_MNT_ID);
		EXPECT_EQ(m.id, stx.stx_mnt_id);
		EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
		EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
			  stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT);
		EXPECT_EQ(m.dev_major, stx.stx_dev_major);
		EXPECT_EQ(m.dev_minor, stx.stx_dev_minor);
	}
}

/*
 * A tmpfs and the private /tmp it is mounted on are mount roots, the
 * directories and files in them are not; bind mounts of a directory and
 * of a file are (also through an O_PATH descriptor), with the same inode
 * and device as their source and a mount ID of their own, while the
 * source stays no root; after the unmount neither is.
 */
TEST(roots_and_binds)
{
	const char *mnt = "/tmp/mnt", *sub = "/tmp/mnt/sub";
	const char *deeper = "/tmp/mnt/sub/deeper", *file = "/tmp/mnt/sub/file";
	const char *bind = "/tmp/bind", *fbind = "/tmp/fbind";
	struct statx a, b;

	if (!statx_private_tmp(_metadata))
		return;
	ASSERT_EQ(0, statx_mount_at("tmpfs", mnt, 0, NULL));
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_EQ(0, mkdir(deeper, 0755));
	ASSERT_EQ(0, statx_put_file(file, "data\n", 5));

	expect_mount_root(_metadata, mnt, true);
	expect_mount_root(_metadata, "/tmp", true);
	expect_mount_root(_metadata, sub, false);
	expect_mount_root(_metadata, deeper, false);
	expect_mount_root(_metadata, file, false);

	ASSERT_EQ(0, mkdir(bind, 0755));
	ASSERT_EQ(0, statx_put_file(fbind, NULL, 0));
	ASSERT_EQ(0, mount(sub, bind, NULL, MS_BIND, NULL))
		TH_LOG("bind %s: %s", sub, strerror(errno));
	ASSERT_EQ(0, mount(file, fbind, NULL, MS_BIND, NULL))
		TH_LOG("bind %s: %s", file, strerror(errno));
	expect_mount_root(_metadata, bind, true);
	expect_mount_root(_metadata, fbind, true);
	get_stx(_metadata, -1, sub, 0, &a);
	get_stx(_metadata, -1, bind, 0, &b);
	EXPECT_EQ(a.stx_ino, b.stx_ino);
	EXPECT_EQ(a.stx_dev_major, b.stx_dev_major);
	EXPECT_EQ(a.stx_dev_minor, b.stx_dev_minor);
	EXPECT_NE(a.stx_mnt_id, b.stx_mnt_id);
	expect_mount_root(_metadata, sub, false);
	expect_mount_root(_metadata, file, false);
	expect_mount_root(_metadata, "/tmp/bind/deeper", false);

	ASSERT_EQ(0, umount2(bind, 0));
	ASSERT_EQ(0, umount2(fbind, 0));
	expect_mount_root(_metadata, bind, false);
	expect_mount_root(_metadata, fbind, false);
}

/*
 * debugfs's "tracing" directory is an automount point that mounts tracefs
 * (kernel/trace/trace.c: debugfs_create_automount()), on a debugfs the
 * case mounts in its own namespace.
 */
TEST(automount)
{
	const char *dir = "/tmp/debug", *trace = "/tmp/debug/tracing";
	struct statx_mount m;
	struct statx stx;
	struct statfs sfs;
	__u64 dbg_mnt;
	int ret;

	if (!statx_private_tmp(_metadata))
		return;
	if (!statx_fs_known("debugfs"))
		STATX_SKIP(return, "no debugfs (CONFIG_DEBUG_FS)");
	if (!statx_fs_known("tracefs"))
		STATX_SKIP(return, "no tracefs (CONFIG_TRACING)");
	ret = statx_mount_at("debugfs", dir, 0, NULL);
	if (ret == -EPERM)
		STATX_SKIP(return, "debugfs may not be mounted (debugfs=no-mount)");
	ASSERT_EQ(0, ret) TH_LOG("mount debugfs: %s", strerror(-ret));
	ASSERT_EQ(0, statfs(dir, &sfs));
	ASSERT_EQ(DEBUGFS_MAGIC, sfs.f_type);
	expect_mount_root(_metadata, dir, true);
	get_stx(_metadata, -1, dir, 0, &stx);
	dbg_mnt = stx.stx_mnt_id;

	/* The automount point itself: nothing is mounted on it yet. */
	ASSERT_FALSE(statx_mountinfo(trace, &m));
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_AUTOMOUNT, true);
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT |
		    AT_SYMLINK_NOFOLLOW, STATX_ATTR_AUTOMOUNT, true);
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_MOUNT_ROOT, false);
	get_stx(_metadata, -1, trace, AT_NO_AUTOMOUNT, &stx);
	EXPECT_TRUE(S_ISDIR(stx.stx_mode));
	EXPECT_EQ(dbg_mnt, stx.stx_mnt_id);
	/* Asking did not mount anything. */
	EXPECT_FALSE(statx_mountinfo(trace, &m));

	/* Without AT_NO_AUTOMOUNT: tracefs, mounted there now. */
	expect_attr(_metadata, -1, trace, 0, STATX_ATTR_AUTOMOUNT, false);
	ASSERT_TRUE(statx_mountinfo(trace, &m))
		TH_LOG("%s: nothing mounted after statx()", trace);
	EXPECT_STREQ("tracefs", m.fstype);
	ASSERT_EQ(0, statfs(trace, &sfs));
	EXPECT_EQ(TRACEFS_MAGIC, sfs.f_type);
	expect_mount_root(_metadata, trace, true);
	get_stx(_metadata, -1, trace, 0, &stx);
	EXPECT_EQ(m.id, stx.stx_mnt_id);
	EXPECT_NE(dbg_mnt, stx.stx_mnt_id);
	/* Mounted, the automount point is crossed even with the flag. */
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_AUTOMOUNT, false);
	expect_attr(_metadata, -1, trace, AT_NO_AUTOMOUNT,
		    STATX_ATTR_MOUNT_ROOT, true);
}

TEST_HARNESS_MAIN
