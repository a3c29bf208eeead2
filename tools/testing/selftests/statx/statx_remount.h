/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the statx selftests that remount a filesystem.  Kept out of
 * statx_helpers.h: <sys/mount.h> cannot be included together with the
 * <linux/mount.h> that statx_mount.c needs.
 */
#ifndef __STATX_REMOUNT_H
#define __STATX_REMOUNT_H

#include <sys/mount.h>
#include <sys/statvfs.h>

#include "statx_helpers.h"

/* The MS_* flags that mount @mnt again as it is now, from statvfs(). */
static inline unsigned long statx_mount_flags(const char *mnt)
{
	static const struct { unsigned long st, ms; } map[] = {
		{ ST_RDONLY, MS_RDONLY }, { ST_NOSUID, MS_NOSUID },
		{ ST_NODEV, MS_NODEV }, { ST_NOEXEC, MS_NOEXEC },
		{ ST_SYNCHRONOUS, MS_SYNCHRONOUS }, { ST_NOATIME, MS_NOATIME },
		{ ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
	};
	struct statvfs sv;
	unsigned long ms = 0;
	unsigned int i;

	if (statvfs(mnt, &sv))
		return 0;
	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (sv.f_flag & map[i].st)
			ms |= map[i].ms;
	return ms;
}

#endif /* __STATX_REMOUNT_H */
