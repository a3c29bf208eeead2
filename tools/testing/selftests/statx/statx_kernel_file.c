// SPDX-License-Identifier: GPL-2.0
/*
 * STATX_ATTR_KERNEL_FILE on the filesystems whose files the kernel makes
 * up as they are read, which need no device and no tool, and which
 * fstests cannot mount: each type is mounted by the case in a mount
 * namespace of its own.  A regular file of such a filesystem has the
 * flag, and stx_attributes_mask advertises it; a directory never has it.
 * Every no-device type the kernel has either leaves the flag out of the
 * mask or answers it right.  And ramfs, procfs and sysfs report exactly
 * their row of the capability table: no field of the statx extensions,
 * and of their flags only KERNEL_FILE in the mask.
 */
#include "statx_helpers.h"

#include <dirent.h>
#include <signal.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "../kselftest_harness.h"

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
	const char *type;	/* the filesystem, mounted at /tmp/TYPE */
	const char *config;	/* what builds it in */
	const char *file;	/* the file under its mount, or */
	bool find;		/* the first regular file there, else the root */
	long magic;		/* statfs() f_type of the filesystem */
	bool kernel_file;	/* is the flag expected? */
	bool sized_unlike_read;	/* stx_size never equals the read length */
};

FIXTURE_VARIANT_ADD(kfile, proc_status) {
	.type = "proc", .config = "CONFIG_PROC_FS", .file = "self/status",
	.magic = PROC_SUPER_MAGIC, .kernel_file = true,
	.sized_unlike_read = true,
};

/* Defined for regular files only: a directory never has it. */
FIXTURE_VARIANT_ADD(kfile, proc_dir) {
	.type = "proc", .config = "CONFIG_PROC_FS", .file = "sys",
	.magic = PROC_SUPER_MAGIC,
};

FIXTURE_VARIANT_ADD(kfile, sysfs_attr) {
	.type = "sysfs", .config = "CONFIG_SYSFS",
	.file = "kernel/uevent_seqnum", .magic = SYSFS_MAGIC,
	.kernel_file = true, .sized_unlike_read = true,
};

FIXTURE_VARIANT_ADD(kfile, debugfs) {
	.type = "debugfs", .config = "CONFIG_DEBUG_FS", .find = true,
	.magic = DEBUGFS_MAGIC, .kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, tracefs) {
	.type = "tracefs", .config = "CONFIG_TRACING", .find = true,
	.magic = TRACEFS_MAGIC, .kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, cgroup2) {
	.type = "cgroup2", .config = "CONFIG_CGROUPS",
	.file = "cgroup.controllers", .magic = CGROUP2_SUPER_MAGIC,
	.kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, configfs) {
	.type = "configfs", .config = "CONFIG_CONFIGFS_FS", .find = true,
	.magic = CONFIGFS_MAGIC, .kernel_file = true,
};

FIXTURE_VARIANT_ADD(kfile, securityfs) {
	/* securityfs_init() is called from lsm_init.c, built with SECURITY */
	.type = "securityfs", .config = "CONFIG_SECURITYFS, CONFIG_SECURITY",
	.find = true,
	.magic = SECURITYFS_MAGIC, .kernel_file = true,
};

FIXTURE_SETUP(kfile)
{
	char mnt[64];
	struct statfs sfs;

	if (!statx_private_tmp(_metadata))
		return;
	if (!statx_fs_known(variant->type))
		STATX_SKIP(return, "no %s (%s)", variant->type,
			   variant->config);
	snprintf(mnt, sizeof(mnt), "/tmp/%s", variant->type);
	ASSERT_EQ(0, statx_mount_at(variant->type, mnt, 0, NULL))
		TH_LOG("mount %s: %s", variant->type, strerror(errno));
	/*
	 * The answer belongs to the filesystem: where it holds no regular file
	 * (configfs without subsystems), its root directory must answer, "no"
	 * as for every directory.
	 */
	if (variant->file)
		snprintf(self->path, sizeof(self->path), "%s/%s", mnt,
			 variant->file);
	else if (!find_file(mnt, 3, variant->magic, self->path,
			    sizeof(self->path)))
		snprintf(self->path, sizeof(self->path), "%s", mnt);
	ASSERT_EQ(0, statfs(self->path, &sfs));
	ASSERT_EQ(variant->magic, sfs.f_type);
}

FIXTURE_TEARDOWN(kfile)
{
}

TEST_F(kfile, flag)
{
	struct statx stx;

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

	if (!statx_private_tmp(_metadata))
		return;
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
 * The capability table's rows for the filesystems fstests cannot mount:
 * none of the fields the statx extensions add, and of their flags only
 * KERNEL_FILE advertised.
 */
#define CAPS_MASK	(STATX_BTIME | STATX_DIOALIGN | STATX_IO_PARAMS | \
			 STATX_GEN | STATX_CHANGE_COOKIE)
#define CAPS_ATTRS	(STATX_ATTR_DOS_READONLY | STATX_ATTR_HIDDEN | \
			 STATX_ATTR_SYSTEM | STATX_ATTR_ARCHIVE | \
			 STATX_ATTR_COMPRESSED | STATX_ATTR_IMMUTABLE | \
			 STATX_ATTR_APPEND | STATX_ATTR_NODUMP | \
			 STATX_ATTR_ENCRYPTED | STATX_ATTR_VERITY | \
			 STATX_ATTR_FOREIGN_OWNER | STATX_ATTR_KERNEL_FILE | \
			 STATX_ATTR_SPARSE | STATX_ATTR_STORED_COMPRESSED | \
			 STATX_ATTR_CHANGE_MONOTONIC)
/* What the VFS advertises for every file of every filesystem */
#define CAPS_VFS	(STATX_ATTR_MOUNT_ROOT | STATX_ATTR_AUTOMOUNT | \
			 STATX_ATTR_DAX)

FIXTURE(caps) {
	char file[96];
};

FIXTURE_VARIANT(caps) {
	const char *type;
	const char *file;	/* a regular file there, or one to write */
};

FIXTURE_VARIANT_ADD(caps, ramfs) {
	.type = "ramfs",
};

FIXTURE_VARIANT_ADD(caps, proc) {
	.type = "proc", .file = "self/status",
};

FIXTURE_VARIANT_ADD(caps, sysfs) {
	.type = "sysfs", .file = "kernel/uevent_seqnum",
};

FIXTURE_SETUP(caps)
{
	if (!statx_private_tmp(_metadata))
		return;
	ASSERT_EQ(0, statx_mount_at(variant->type, "/tmp/mnt", 0, NULL))
		TH_LOG("mount %s: %s", variant->type, strerror(errno));
	snprintf(self->file, sizeof(self->file), "/tmp/mnt/%s",
		 variant->file ?: "file");
	if (!variant->file)
		ASSERT_EQ(0, statx_put_file(self->file, "hello\n", 6));
}

FIXTURE_TEARDOWN(caps)
{
}

TEST_F(caps, regular_file)
{
	struct statx stx;

	memset(&stx, STATX_POISON, sizeof(stx));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, self->file, AT_SYMLINK_NOFOLLOW,
			       STATX_BASIC_STATS | CAPS_MASK, &stx))
		TH_LOG("statx %s: %s", self->file, strerror(errno));
	ASSERT_TRUE(S_ISREG(stx.stx_mode));
	EXPECT_EQ(0, stx.stx_mask & CAPS_MASK)
		TH_LOG("%s: stx_mask %#x", variant->type, stx.stx_mask);
	EXPECT_EQ(STATX_ATTR_KERNEL_FILE, stx.stx_attributes_mask & CAPS_ATTRS)
		TH_LOG("%s: stx_attributes_mask %#llx", variant->type,
		       (unsigned long long)stx.stx_attributes_mask);
	EXPECT_EQ(CAPS_VFS, stx.stx_attributes_mask & CAPS_VFS);
	/* A flag is set only where its bit in the mask is. */
	EXPECT_EQ(0, stx.stx_attributes & ~stx.stx_attributes_mask);
}

TEST_HARNESS_MAIN
