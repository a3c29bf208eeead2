// SPDX-License-Identifier: GPL-2.0
/*
 * The layout of struct statx is ABI: 256 bytes, every field at the offset
 * the uapi header documents, the same for 32-bit and 64-bit userspace.
 * Checked three ways: at compile time against the header, at run time
 * against the field table the other tests use, and against the kernel by
 * reading what it wrote at the documented byte offsets, without going
 * through the structure definition.
 */
#include "statx_helpers.h"

#include <assert.h>
#include "../kselftest_harness.h"

/* Offsets and sizes as documented in include/uapi/linux/stat.h */
struct documented {
	const char *name;
	unsigned int offset;
	unsigned int size;
};

static const struct documented documented[] = {
	{ "stx_mask",				0x00, 4 },
	{ "stx_blksize",			0x04, 4 },
	{ "stx_attributes",			0x08, 8 },
	{ "stx_nlink",				0x10, 4 },
	{ "stx_uid",				0x14, 4 },
	{ "stx_gid",				0x18, 4 },
	{ "stx_mode",				0x1c, 2 },
	{ "stx_ino",				0x20, 8 },
	{ "stx_size",				0x28, 8 },
	{ "stx_blocks",				0x30, 8 },
	{ "stx_attributes_mask",		0x38, 8 },
	{ "stx_atime.tv_sec",			0x40, 8 },
	{ "stx_atime.tv_nsec",			0x48, 4 },
	{ "stx_btime.tv_sec",			0x50, 8 },
	{ "stx_btime.tv_nsec",			0x58, 4 },
	{ "stx_ctime.tv_sec",			0x60, 8 },
	{ "stx_ctime.tv_nsec",			0x68, 4 },
	{ "stx_mtime.tv_sec",			0x70, 8 },
	{ "stx_mtime.tv_nsec",			0x78, 4 },
	{ "stx_rdev_major",			0x80, 4 },
	{ "stx_rdev_minor",			0x84, 4 },
	{ "stx_dev_major",			0x88, 4 },
	{ "stx_dev_minor",			0x8c, 4 },
	{ "stx_mnt_id",				0x90, 8 },
	{ "stx_dio_mem_align",			0x98, 4 },
	{ "stx_dio_offset_align",		0x9c, 4 },
	{ "stx_subvol",				0xa0, 8 },
	{ "stx_atomic_write_unit_min",		0xa8, 4 },
	{ "stx_atomic_write_unit_max",		0xac, 4 },
	{ "stx_atomic_write_segments_max",	0xb0, 4 },
	{ "stx_dio_read_offset_align",		0xb4, 4 },
	{ "stx_atomic_write_unit_max_opt",	0xb8, 4 },
	{ "stx_io_min",				0xbc, 4 },
	{ "stx_io_opt",				0xc0, 4 },
	{ "stx_erase_size",			0xc4, 4 },
	{ "stx_change_cookie",			0xc8, 8 },
	{ "stx_gen",				0xd0, 4 },
};

#define CHECK_FIELD(field, off)						\
	static_assert(offsetof(struct statx, field) == (off),		\
		      #field " is not at " #off)

static_assert(sizeof(struct statx) == 0x100, "struct statx is not 256 bytes");
static_assert(sizeof(struct statx_timestamp) == 16,
	      "struct statx_timestamp is not 16 bytes");
static_assert(offsetof(struct statx_timestamp, tv_sec) == 0, "tv_sec");
static_assert(offsetof(struct statx_timestamp, tv_nsec) == 8, "tv_nsec");
static_assert(offsetof(struct statx_timestamp, __reserved) == 12,
	      "__reserved");
CHECK_FIELD(stx_mask, 0x00);
CHECK_FIELD(stx_blksize, 0x04);
CHECK_FIELD(stx_attributes, 0x08);
CHECK_FIELD(stx_nlink, 0x10);
CHECK_FIELD(stx_uid, 0x14);
CHECK_FIELD(stx_gid, 0x18);
CHECK_FIELD(stx_mode, 0x1c);
CHECK_FIELD(stx_ino, 0x20);
CHECK_FIELD(stx_size, 0x28);
CHECK_FIELD(stx_blocks, 0x30);
CHECK_FIELD(stx_attributes_mask, 0x38);
CHECK_FIELD(stx_atime, 0x40);
CHECK_FIELD(stx_btime, 0x50);
CHECK_FIELD(stx_ctime, 0x60);
CHECK_FIELD(stx_mtime, 0x70);
CHECK_FIELD(stx_rdev_major, 0x80);
CHECK_FIELD(stx_rdev_minor, 0x84);
CHECK_FIELD(stx_dev_major, 0x88);
CHECK_FIELD(stx_dev_minor, 0x8c);
CHECK_FIELD(stx_mnt_id, 0x90);
CHECK_FIELD(stx_dio_mem_align, 0x98);
CHECK_FIELD(stx_dio_offset_align, 0x9c);
CHECK_FIELD(stx_subvol, 0xa0);
CHECK_FIELD(stx_atomic_write_unit_min, 0xa8);
CHECK_FIELD(stx_atomic_write_unit_max, 0xac);
CHECK_FIELD(stx_atomic_write_segments_max, 0xb0);
CHECK_FIELD(stx_dio_read_offset_align, 0xb4);
CHECK_FIELD(stx_atomic_write_unit_max_opt, 0xb8);
CHECK_FIELD(stx_io_min, 0xbc);
CHECK_FIELD(stx_io_opt, 0xc0);
CHECK_FIELD(stx_erase_size, 0xc4);
CHECK_FIELD(stx_change_cookie, 0xc8);
CHECK_FIELD(stx_gen, 0xd0);

TEST(size)
{
	EXPECT_EQ(256, sizeof(struct statx));
	EXPECT_EQ(16, sizeof(struct statx_timestamp));
}

/* Every documented field is in the table, where the header puts it. */
TEST(table_matches_documentation)
{
	unsigned int i, j, found;

	for (i = 0; i < ARRAY_SIZE(documented); i++) {
		found = 0;
		for (j = 0; j < ARRAY_SIZE(statx_fields); j++) {
			if (strcmp(statx_fields[j].name, documented[i].name))
				continue;
			found++;
			EXPECT_EQ(documented[i].offset,
				  statx_fields[j].offset) {
				TH_LOG("%s", documented[i].name);
			}
			EXPECT_EQ(documented[i].size, statx_fields[j].size) {
				TH_LOG("%s", documented[i].name);
			}
		}
		EXPECT_LT(0, found) {
			TH_LOG("%s is not in statx_fields[]",
			       documented[i].name);
		}
	}
}

/* ... and every field of the table is documented. */
TEST(table_fields_documented)
{
	unsigned int i, j, found;

	for (i = 0; i < ARRAY_SIZE(statx_fields); i++) {
		found = 0;
		for (j = 0; j < ARRAY_SIZE(documented); j++)
			if (!strcmp(statx_fields[i].name, documented[j].name))
				found++;
		EXPECT_EQ(1, found) {
			TH_LOG("%s is not documented here", statx_fields[i].name);
		}
	}
}

/* No two fields of the table overlap unless they are the same field. */
TEST(table_fields_disjoint)
{
	const struct statx_field *a, *b;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(statx_fields); i++) {
		a = &statx_fields[i];
		EXPECT_GE(sizeof(struct statx), a->offset + a->size);
		for (j = i + 1; j < ARRAY_SIZE(statx_fields); j++) {
			b = &statx_fields[j];
			if (a->offset == b->offset && a->size == b->size)
				continue;
			EXPECT_TRUE(a->offset + a->size <= b->offset ||
				    b->offset + b->size <= a->offset) {
				TH_LOG("%s overlaps %s", a->name, b->name);
			}
		}
	}
}

static __u64 raw(const void *buf, unsigned int off, unsigned int size)
{
	__u64 v64 = 0;
	__u32 v32;
	__u16 v16;

	switch (size) {
	case 2:
		memcpy(&v16, (const char *)buf + off, 2);
		return v16;
	case 4:
		memcpy(&v32, (const char *)buf + off, 4);
		return v32;
	}
	memcpy(&v64, (const char *)buf + off, 8);
	return v64;
}

/*
 * What the kernel writes lands at the documented offsets: read the raw
 * bytes of the result at each one and compare with fstat(), which has a
 * layout of its own.
 */
TEST(kernel_writes_documented_offsets)
{
	unsigned char buf[256];
	struct stat st;
	int fd;

	fd = open("/proc/self/exe", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));
	memset(buf, STATX_POISON, sizeof(buf));
	ASSERT_EQ(0, sys_statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
			       (struct statx *)buf));
	close(fd);

	EXPECT_EQ(STATX_BASIC_STATS, raw(buf, 0x00, 4) & STATX_BASIC_STATS);
	EXPECT_EQ(st.st_blksize, raw(buf, 0x04, 4));
	EXPECT_EQ(st.st_nlink, raw(buf, 0x10, 4));
	EXPECT_EQ(st.st_uid, raw(buf, 0x14, 4));
	EXPECT_EQ(st.st_gid, raw(buf, 0x18, 4));
	EXPECT_EQ(st.st_mode, raw(buf, 0x1c, 2));
	EXPECT_EQ(0, raw(buf, 0x1e, 2));		/* __spare0 */
	EXPECT_EQ(st.st_ino, raw(buf, 0x20, 8));
	EXPECT_EQ(st.st_size, raw(buf, 0x28, 8));
	EXPECT_EQ(st.st_blocks, raw(buf, 0x30, 8));
	EXPECT_EQ(st.st_atim.tv_sec, raw(buf, 0x40, 8));
	EXPECT_EQ(st.st_atim.tv_nsec, raw(buf, 0x48, 4));
	EXPECT_EQ(0, raw(buf, 0x4c, 4));		/* __reserved */
	EXPECT_EQ(st.st_ctim.tv_sec, raw(buf, 0x60, 8));
	EXPECT_EQ(st.st_ctim.tv_nsec, raw(buf, 0x68, 4));
	EXPECT_EQ(0, raw(buf, 0x6c, 4));
	EXPECT_EQ(st.st_mtim.tv_sec, raw(buf, 0x70, 8));
	EXPECT_EQ(st.st_mtim.tv_nsec, raw(buf, 0x78, 4));
	EXPECT_EQ(0, raw(buf, 0x7c, 4));
	EXPECT_EQ(major(st.st_rdev), raw(buf, 0x80, 4));
	EXPECT_EQ(minor(st.st_rdev), raw(buf, 0x84, 4));
	EXPECT_EQ(major(st.st_dev), raw(buf, 0x88, 4));
	EXPECT_EQ(minor(st.st_dev), raw(buf, 0x8c, 4));
}

/* stx_mnt_id at 0x90 is the mount ID of /proc/self/mountinfo. */
TEST(kernel_writes_mnt_id)
{
	unsigned char buf[256];
	struct statx_mount m;

	ASSERT_TRUE(statx_mountinfo("/proc", &m));
	memset(buf, STATX_POISON, sizeof(buf));
	ASSERT_EQ(0, sys_statx(AT_FDCWD, "/proc", 0, STATX_MNT_ID,
			       (struct statx *)buf));
	EXPECT_EQ(STATX_MNT_ID, raw(buf, 0x00, 4) & STATX_MNT_ID);
	EXPECT_EQ(m.id, raw(buf, 0x90, 8));
	/* The mount root flag (0x2000) in stx_attributes at 0x08 */
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT, raw(buf, 0x08, 8) & 0x2000);
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT, raw(buf, 0x38, 8) & 0x2000);
}

TEST_HARNESS_MAIN
