/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filesystems a selftest makes for itself.  The test enters a mount
 * namespace of its own, with propagation off and a tmpfs of its own on
 * /tmp, makes a filesystem with the filesystem's own mkfs in an image file
 * there, attaches it to a loop device and mounts it there.  Nothing outside
 * that namespace is mounted, unmounted, remounted or written: when the
 * test's process exits, its mounts go with the namespace, the loop device
 * clears itself (LO_FLAGS_AUTOCLEAR), and the tmpfs with the image (unlinked
 * as soon as it is attached) is freed, whether the test passed, failed or
 * stopped half way.
 */
#ifndef STATX_SCRATCH_H
#define STATX_SCRATCH_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/loop.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

extern char **environ;

struct statx_scratch {
	char dir[64];		/* the temporary directory */
	char mnt[80];		/* dir/mnt, the mount point */
	char dev[32];		/* the loop device, or the fstype */
	int loop;		/* held open until statx_scratch_umount() */
	char why[160];		/* why statx_scratch_mount() did not mount */
};

/* What statx_scratch_mount() found. */
enum statx_scratch_rc {
	SCRATCH_MOUNTED,
	SCRATCH_LACKS,		/* the machine lacks a tool or the kernel a type */
	SCRATCH_BROKEN,		/* a fresh filesystem did not mount: a failure */
};

/*
 * The directory "images" next to the test program, where mkimages.sh put
 * the images it made when the selftests were built: an O_PATH fd, opened
 * the first time, before statx_private_ns() can hide it under a tmpfs (a
 * program installed in /tmp), or -errno.
 */
static inline int statx_images_dir(void)
{
	static int fd = -ESRCH;
	char exe[PATH_MAX - 16], *slash;
	ssize_t n;

	if (fd != -ESRCH)
		return fd;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return fd = -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	strcat(exe, "/images");
	fd = open(exe, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? (fd = -errno) : fd;
}

/* The loop devices that exist, as a bitmap of their numbers below 1024. */
struct statx_loops {
	unsigned char present[1024 / 8];
};

static inline void statx_loops_now(struct statx_loops *l)
{
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	unsigned int n;

	memset(l, 0, sizeof(*l));
	while (d && (de = readdir(d)))
		if (sscanf(de->d_name, "loop%u", &n) == 1 && n < 1024)
			l->present[n / 8] |= 1 << (n % 8);
	if (d)
		closedir(d);
}

/*
 * Remove the loop devices that exist now but not in @before: those that
 * LOOP_CTL_GET_FREE made because every device was busy.  Each has
 * detached itself (LO_FLAGS_AUTOCLEAR) once its filesystem was unmounted,
 * or is about to: LOOP_CTL_REMOVE is retried while it is busy, for up to
 * two seconds.  Returns how many could not be removed.
 */
static inline int statx_loops_remove_new(const struct statx_loops *before)
{
	struct statx_loops now;
	unsigned int n;
	int ctl, left = 0;

	statx_loops_now(&now);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	for (n = 0; n < 1024; n++) {
		int tries = 40;

		if (!(now.present[n / 8] & ~before->present[n / 8] & 1 << (n % 8)))
			continue;
		while (ctl >= 0 && ioctl(ctl, LOOP_CTL_REMOVE, n) < 0 &&
		       errno == EBUSY && --tries)
			usleep(50000);
		if (ctl < 0 || !tries)
			left++;
	}
	if (ctl >= 0)
		close(ctl);
	return left;
}

/* Enter a private mount namespace with a tmpfs on /tmp; 0 or -errno. */
static inline int statx_private_ns(void)
{
	statx_images_dir();	/* while the program's directory is in view */
	if (unshare(CLONE_NEWNS))
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	if (mount("statx-scratch", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=1777"))
		return -errno;
	return 0;
}

/*
 * Run @argv with its output thrown away: its exit status, or -ENOENT if
 * the program is not installed.
 */
static inline int statx_run(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	int status, ret;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -ret;
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * Attach @img to a free loop device that clears itself once nothing holds
 * it, with logical blocks of @block_size bytes (0: the default, 512), and
 * read-only if @ro: its fd (open read-only), or -errno.
 */
static inline int statx_loop_attach_ro(const char *img, unsigned int block_size,
				       bool ro, char *dev, size_t len)
{
	struct loop_config cfg;
	int ctl, nr, fd, ifd, ret;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	ret = -errno;
	close(ctl);
	if (nr < 0)
		return ret;
	snprintf(dev, len, "/dev/loop%d", nr);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ifd = open(img, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (ifd < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = ifd;
	cfg.block_size = block_size;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (ro ? LO_FLAGS_READ_ONLY : 0);
	ret = ioctl(fd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
	close(ifd);
	if (ret) {
		close(fd);
		return ret;
	}
	/*
	 * Held read-only from here: a writer could keep the device from
	 * being mounted (CONFIG_BLK_DEV_WRITE_MOUNTED=n).
	 */
	ifd = open(dev, O_RDONLY | O_CLOEXEC);
	ret = -errno;
	close(fd);
	return ifd < 0 ? ret : ifd;
}

static inline int statx_loop_attach(const char *img, unsigned int block_size,
				    char *dev, size_t len)
{
	return statx_loop_attach_ro(img, block_size, false, dev, len);
}

/*
 * How to make a filesystem: its type, the mkfs command line (a
 * NULL-terminated argv, to which the image's name is appended; none for a
 * filesystem on no device), the image's size and the logical block size of
 * the loop device it is on (0: the default).
 */
struct statx_scratch_recipe {
	const char *name;
	const char *fstype;
	const char *const *mkfs;
	off_t size;
	unsigned int block_size;
};

/*
 * The recipe named @name: the filesystems on no device the statx selftests
 * use (tmpfs, ramfs, proc, sysfs), each disk filesystem with its own mkfs
 * at the smallest size the selftests use, and "ext4-lbs4k", an ext4 with
 * 128-byte inodes (no room for a birth time, whole-second timestamps) on a
 * device with 4096-byte logical blocks.  NULL if there is none.
 */
static inline const struct statx_scratch_recipe *
statx_scratch_recipe(const char *name)
{
	static const char *const ext4[] = { "mkfs.ext4", "-q", "-F", NULL };
	static const char *const ext4_128[] = {
		"mkfs.ext4", "-q", "-F", "-b", "4096", "-I", "128", NULL
	};
	static const char *const xfs[] = { "mkfs.xfs", "-q", "-f", NULL };
	static const char *const btrfs[] = { "mkfs.btrfs", "-q", "-f", NULL };
	static const char *const vfat[] = { "mkfs.vfat", NULL };
	static const char *const exfat[] = { "mkfs.exfat", NULL };
	static const char *const ntfs[] = { "mkntfs", "-q", "-F", "-Q", NULL };
	static const struct statx_scratch_recipe recipes[] = {
		{ "tmpfs", "tmpfs" },
		{ "ramfs", "ramfs" },
		{ "proc", "proc" },
		{ "sysfs", "sysfs" },
		{ "ext4", "ext4", ext4, 64 << 20 },
		{ "ext4-lbs4k", "ext4", ext4_128, 64 << 20, 4096 },
		{ "xfs", "xfs", xfs, 320 << 20 },	/* mkfs.xfs's smallest */
		{ "btrfs", "btrfs", btrfs, 256 << 20 },
		{ "vfat", "vfat", vfat, 64 << 20 },
		{ "msdos", "msdos", vfat, 64 << 20 },
		{ "exfat", "exfat", exfat, 64 << 20 },
		{ "ntfs3", "ntfs3", ntfs, 64 << 20 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(recipes); i++)
		if (!strcmp(recipes[i].name, name))
			return &recipes[i];
	return NULL;
}

/*
 * Make the filesystem of @r in the existing directory @s->dir and mount it
 * at @s->dir/mnt with @flags and @data.  The caller is in a private
 * namespace (statx_private_ns()).  The loop device stays held until
 * statx_scratch_umount(), so that the filesystem can be unmounted and
 * mounted again from it.
 */
static inline enum statx_scratch_rc
statx_scratch_mount_in(struct statx_scratch *s,
		       const struct statx_scratch_recipe *r,
		       unsigned long flags, const char *data)
{
	char img[96], *argv[16];
	int fd = -1, n, ret;

	s->loop = -1;
	snprintf(s->mnt, sizeof(s->mnt), "%s/mnt", s->dir);
	/* mkdtemp() makes 0700; other users of the test must get in. */
	if (chmod(s->dir, 0755) || mkdir(s->mnt, 0755)) {
		snprintf(s->why, sizeof(s->why), "%s: %s", s->mnt,
			 strerror(errno));
		return SCRATCH_BROKEN;
	}
	snprintf(s->dev, sizeof(s->dev), "%s", r->fstype);
	if (r->mkfs) {
		snprintf(img, sizeof(img), "%s/img", s->dir);
		fd = open(img, O_CREAT | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, r->size)) {
			snprintf(s->why, sizeof(s->why), "image %s: %s", img,
				 strerror(errno));
			return SCRATCH_BROKEN;
		}
		close(fd);
		for (n = 0; r->mkfs[n] && n < 14; n++)
			argv[n] = (char *)r->mkfs[n];
		argv[n++] = img;
		argv[n] = NULL;
		ret = statx_run(argv);
		if (ret) {
			unlink(img);
			snprintf(s->why, sizeof(s->why), "%s: %s", r->mkfs[0],
				 ret == -ENOENT ? "not installed" :
				 "failed (too old for this use?)");
			return SCRATCH_LACKS;
		}
		fd = statx_loop_attach(img, r->block_size, s->dev,
				       sizeof(s->dev));
		unlink(img);
		if (fd < 0) {
			snprintf(s->why, sizeof(s->why), "no loop device: %s",
				 strerror(-fd));
			return SCRATCH_LACKS;
		}
	}
	s->loop = fd;	/* so that an unmount does not free the device */
	ret = mount(s->dev, s->mnt, r->fstype, flags, data) ? errno : 0;
	if (ret) {
		snprintf(s->why, sizeof(s->why), "mount -t %s: %s", r->fstype,
			 strerror(ret));
		return ret == ENODEV ? SCRATCH_LACKS : SCRATCH_BROKEN;
	}
	return SCRATCH_MOUNTED;
}

/*
 * The path of the image @name that mkimages.sh made (statx_images_dir()):
 * true, or false with @why saying why there is none.
 */
static inline bool statx_image_path(const char *name, char *path, size_t len,
				    char *why, size_t whylen)
{
	int dfd = statx_images_dir();
	char missing[64];
	FILE *f;

	if (dfd < 0) {
		snprintf(why, whylen, "no images directory next to the test program: %s",
			 strerror(-dfd));
		return false;
	}
	snprintf(path, len, "/proc/self/fd/%d/%.40s.img", dfd, name);
	if (!access(path, R_OK))
		return true;
	snprintf(missing, sizeof(missing), "%.40s.img.missing", name);
	f = fdopen(openat(dfd, missing, O_RDONLY | O_CLOEXEC), "r");
	if (f && fgets(why, whylen, f))
		why[strcspn(why, "\n")] = '\0';
	else
		snprintf(why, whylen, "%.40s.img: %s", name, strerror(ENOENT));
	if (f)
		fclose(f);
	return false;
}

/*
 * Attach the image @name that mkimages.sh made (statx_image_path()) to a
 * loop device, read-only, and mount its @fstype read-only at @s->dir/mnt,
 * as statx_scratch_mount_in() does.  SCRATCH_LACKS if the image was not
 * made.
 */
static inline enum statx_scratch_rc
statx_scratch_mount_image_in(struct statx_scratch *s, const char *name,
			     const char *fstype)
{
	char img[PATH_MAX], why[128];
	int fd;

	s->loop = -1;
	snprintf(s->mnt, sizeof(s->mnt), "%s/mnt", s->dir);
	if (!statx_image_path(name, img, sizeof(img), why, sizeof(why))) {
		snprintf(s->why, sizeof(s->why), "image %s: %s", name, why);
		return SCRATCH_LACKS;
	}
	if (chmod(s->dir, 0755) || mkdir(s->mnt, 0755)) {
		snprintf(s->why, sizeof(s->why), "%s: %s", s->mnt,
			 strerror(errno));
		return SCRATCH_BROKEN;
	}
	fd = statx_loop_attach_ro(img, 0, true, s->dev, sizeof(s->dev));
	if (fd < 0) {
		snprintf(s->why, sizeof(s->why), "no loop device: %s",
			 strerror(-fd));
		return SCRATCH_LACKS;
	}
	s->loop = fd;
	if (mount(s->dev, s->mnt, fstype, MS_RDONLY, NULL)) {
		int err = errno;

		snprintf(s->why, sizeof(s->why), "mount -t %s %s: %s", fstype,
			 name, strerror(err));
		return err == ENODEV ? SCRATCH_LACKS : SCRATCH_BROKEN;
	}
	return SCRATCH_MOUNTED;
}

/*
 * The virtio disk whose serial number is @serial, as "vdX" in @dev; false
 * if there is none.  A disk with an I/O topology of its own (physical
 * block, minimum and optimal I/O size, discard granularity) cannot be
 * made by a test: a loop device takes these from no one.  A virtual
 * machine is given it, QEMU for one by virtio-blk's serial and topology
 * properties.
 */
static inline bool statx_disk_by_serial(const char *serial, char *dev,
					size_t len)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/sys/block");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[PATH_MAX], buf[64] = "";
		FILE *f;

		if (strncmp(de->d_name, "vd", 2))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/serial",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		if (!strcmp(buf, serial)) {
			snprintf(dev, len, "%.24s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * Mount the @fstype on the virtio disk with serial number @serial at
 * @s->dir/mnt, as statx_scratch_mount_in() does: SCRATCH_LACKS if the
 * machine has no such disk.
 */
static inline enum statx_scratch_rc
statx_scratch_mount_disk_in(struct statx_scratch *s, const char *serial,
			    const char *fstype)
{
	char vd[32];

	s->loop = -1;
	snprintf(s->mnt, sizeof(s->mnt), "%s/mnt", s->dir);
	if (!statx_disk_by_serial(serial, vd, sizeof(vd))) {
		snprintf(s->why, sizeof(s->why),
			 "no disk with serial %s (a virtual machine's disk with its own I/O topology)",
			 serial);
		return SCRATCH_LACKS;
	}
	if (chmod(s->dir, 0755) || mkdir(s->mnt, 0755)) {
		snprintf(s->why, sizeof(s->why), "%s: %s", s->mnt,
			 strerror(errno));
		return SCRATCH_BROKEN;
	}
	snprintf(s->dev, sizeof(s->dev), "/dev/%.24s", vd);
	/* Held, as a loop device is, for statx_scratch_cycle(). */
	s->loop = open(s->dev, O_RDONLY | O_CLOEXEC);
	if (mount(s->dev, s->mnt, fstype, 0, NULL)) {
		int err = errno;

		snprintf(s->why, sizeof(s->why), "mount -t %s %s: %s", fstype,
			 s->dev, strerror(err));
		/* ENODEV: the kernel has no such filesystem type */
		return err == ENODEV ? SCRATCH_LACKS : SCRATCH_BROKEN;
	}
	return SCRATCH_MOUNTED;
}

/* statx_scratch_mount_in() a new temporary directory in /tmp. */
static inline enum statx_scratch_rc
statx_scratch_mount_recipe(struct statx_scratch *s,
			   const struct statx_scratch_recipe *r,
			   unsigned long flags, const char *data)
{
	memset(s, 0, sizeof(*s));
	s->loop = -1;
	snprintf(s->dir, sizeof(s->dir), "/tmp/statx-%s.XXXXXX", r->name);
	if (!mkdtemp(s->dir)) {
		snprintf(s->why, sizeof(s->why), "mkdtemp %s: %s", s->dir,
			 strerror(errno));
		s->dir[0] = '\0';
		return SCRATCH_BROKEN;
	}
	return statx_scratch_mount_in(s, r, flags, data);
}

/*
 * Mount a new @fstype at @s->mnt with @flags and @data: on the image that
 * @mkfs (a NULL-terminated argv, to which the image's name is appended)
 * makes in a file of @size bytes, or, with no @mkfs, on no device (tmpfs,
 * ramfs), as statx_scratch_mount_in() does.
 */
static inline enum statx_scratch_rc
statx_scratch_mount(struct statx_scratch *s, const char *fstype,
		    const char *const *mkfs, off_t size, unsigned long flags,
		    const char *data)
{
	const struct statx_scratch_recipe r = {
		.name = fstype, .fstype = fstype, .mkfs = mkfs, .size = size,
	};

	return statx_scratch_mount_recipe(s, &r, flags, data);
}

/*
 * Unmount what statx_scratch_mount() mounted, before the namespace goes
 * (which would do it too).
 */
static inline void statx_scratch_umount(struct statx_scratch *s)
{
	if (!s->dir[0])
		return;
	umount2(s->mnt, MNT_DETACH);
	if (s->loop >= 0)
		close(s->loop);
	s->loop = -1;
	rmdir(s->mnt);
	rmdir(s->dir);
	s->dir[0] = '\0';
}

/*
 * Unmount the filesystem and mount it again from its device with @flags
 * and @data, so that what the test reads next comes from the disk: 0, or
 * -errno with the filesystem left unmounted (the namespace's end cleans
 * up).
 */
static inline int statx_scratch_cycle(struct statx_scratch *s,
				      const char *fstype, unsigned long flags,
				      const char *data)
{
	int i;

	if (s->loop < 0)
		return -ENODEV;
	for (i = 0; umount(s->mnt); i++) {
		if (errno != EBUSY || i == 20)
			return -errno;
		usleep(100000);
	}
	return mount(s->dev, s->mnt, fstype, flags, data) ? -errno : 0;
}

/*
 * As root, enter a private mount namespace (statx_private_ns()): true, or
 * false with @s->why saying why not and *@rc what that is: SCRATCH_LACKS
 * when not root.
 */
static inline bool statx_scratch_enter(struct statx_scratch *s,
				       enum statx_scratch_rc *rc)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->loop = -1;
	if (geteuid() != 0) {
		snprintf(s->why, sizeof(s->why), "making filesystems needs root");
		*rc = SCRATCH_LACKS;
		return false;
	}
	ret = statx_private_ns();
	if (ret) {
		snprintf(s->why, sizeof(s->why), "private mount namespace: %s",
			 strerror(-ret));
		*rc = SCRATCH_BROKEN;
		return false;
	}
	return true;
}

/*
 * As root, enter a private mount namespace (statx_private_ns()) and mount a
 * new @fstype there (statx_scratch_mount()).  @s->why says why not:
 * SCRATCH_LACKS for what the machine lacks, which the caller skips for
 * before it checks anything.
 */
static inline enum statx_scratch_rc
statx_scratch_make(struct statx_scratch *s, const char *fstype,
		   const char *const *mkfs, off_t size, unsigned long flags,
		   const char *data)
{
	enum statx_scratch_rc rc;

	if (!statx_scratch_enter(s, &rc))
		return rc;
	return statx_scratch_mount(s, fstype, mkfs, size, flags, data);
}

/*
 * statx_scratch_make() with the recipe named @name (statx_scratch_recipe()):
 * the options and the smallest size the statx selftests use for each
 * filesystem type.
 */
static inline enum statx_scratch_rc
statx_scratch_new(struct statx_scratch *s, const char *name,
		  unsigned long flags, const char *data)
{
	const struct statx_scratch_recipe *r = statx_scratch_recipe(name);
	enum statx_scratch_rc rc;

	if (!r) {
		memset(s, 0, sizeof(*s));
		s->loop = -1;
		snprintf(s->why, sizeof(s->why), "no recipe for %s", name);
		return SCRATCH_BROKEN;
	}
	if (!statx_scratch_enter(s, &rc))
		return rc;
	return statx_scratch_mount_recipe(s, r, flags, data);
}

#endif /* STATX_SCRATCH_H */
