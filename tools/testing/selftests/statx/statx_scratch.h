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

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/loop.h>

extern char **environ;

struct statx_scratch {
	char dir[64];		/* the temporary directory */
	char mnt[80];		/* dir/mnt, the mount point */
	char why[160];		/* why statx_scratch_mount() did not mount */
};

/* What statx_scratch_mount() found. */
enum statx_scratch_rc {
	SCRATCH_MOUNTED,
	SCRATCH_LACKS,		/* the machine lacks a tool or the kernel a type */
	SCRATCH_BROKEN,		/* a fresh filesystem did not mount: a failure */
};

/* Enter a private mount namespace with a tmpfs on /tmp; 0 or -errno. */
static inline int statx_private_ns(void)
{
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

/* Attach @img to a free loop device that clears itself; its fd or -errno. */
static inline int statx_loop_attach(const char *img, char *dev, size_t len)
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
	ifd = open(img, O_RDWR | O_CLOEXEC);
	if (ifd < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = ifd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	ret = ioctl(fd, LOOP_CONFIGURE, &cfg) ? -errno : 0;
	close(ifd);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/*
 * Mount a new @fstype at @s->mnt with @flags and @data: on the image that
 * @mkfs (a NULL-terminated argv, to which the image's name is appended)
 * makes in a file of @size bytes, or, with no @mkfs, on no device (tmpfs,
 * ramfs).  The caller is in a private namespace (statx_private_ns()).
 */
static inline enum statx_scratch_rc
statx_scratch_mount(struct statx_scratch *s, const char *fstype,
		    const char *const *mkfs, off_t size, unsigned long flags,
		    const char *data)
{
	char img[96], dev[32], *argv[16];
	int fd = -1, n, ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/statx-%s.XXXXXX", fstype);
	if (!mkdtemp(s->dir)) {
		snprintf(s->why, sizeof(s->why), "mkdtemp %s: %s", s->dir,
			 strerror(errno));
		s->dir[0] = '\0';
		return SCRATCH_BROKEN;
	}
	snprintf(s->mnt, sizeof(s->mnt), "%s/mnt", s->dir);
	if (mkdir(s->mnt, 0755)) {
		snprintf(s->why, sizeof(s->why), "mkdir %s: %s", s->mnt,
			 strerror(errno));
		return SCRATCH_BROKEN;
	}
	snprintf(dev, sizeof(dev), "%s", fstype);
	if (mkfs) {
		snprintf(img, sizeof(img), "%s/img", s->dir);
		fd = open(img, O_CREAT | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, size)) {
			snprintf(s->why, sizeof(s->why), "image %s: %s", img,
				 strerror(errno));
			return SCRATCH_BROKEN;
		}
		close(fd);
		for (n = 0; mkfs[n] && n < 14; n++)
			argv[n] = (char *)mkfs[n];
		argv[n++] = img;
		argv[n] = NULL;
		ret = statx_run(argv);
		if (ret) {
			unlink(img);
			snprintf(s->why, sizeof(s->why), "%s: %s", mkfs[0],
				 ret == -ENOENT ? "not installed" :
				 "failed (too old for this use?)");
			return SCRATCH_LACKS;
		}
		fd = statx_loop_attach(img, dev, sizeof(dev));
		unlink(img);
		if (fd < 0) {
			snprintf(s->why, sizeof(s->why), "no loop device: %s",
				 strerror(-fd));
			return SCRATCH_LACKS;
		}
	}
	ret = mount(dev, s->mnt, fstype, flags, data) ? errno : 0;
	if (fd >= 0)
		close(fd);	/* the mount holds the loop device now */
	if (ret) {
		snprintf(s->why, sizeof(s->why), "mount -t %s: %s", fstype,
			 strerror(ret));
		return ret == ENODEV ? SCRATCH_LACKS : SCRATCH_BROKEN;
	}
	return SCRATCH_MOUNTED;
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
	rmdir(s->mnt);
	rmdir(s->dir);
	s->dir[0] = '\0';
}

#endif /* STATX_SCRATCH_H */
