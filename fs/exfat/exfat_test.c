// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests for exFAT: how the attribute bits of a file directory entry
 * are reported through statx().
 */

#include <kunit/test.h>

#include "exfat_raw.h"
#include "exfat_fs.h"

struct exfat_attr_testcase {
	const char *name;
	u8 bit;		/* bit number in the FileAttributes field */
	u64 statx;	/* STATX_ATTR_* flags it must map to */
};

/* One case per bit of FileAttributes, as the exFAT specification names them. */
static struct exfat_attr_testcase attr_test_cases[] = {
	{ "bit 0 ReadOnly", 0, STATX_ATTR_DOS_READONLY },
	{ "bit 1 Hidden", 1, STATX_ATTR_HIDDEN },
	{ "bit 2 System", 2, STATX_ATTR_SYSTEM },
	{ "bit 3 reserved (FAT volume label)", 3, 0 },
	{ "bit 4 Directory", 4, 0 },
	{ "bit 5 Archive", 5, STATX_ATTR_ARCHIVE },
	{ "bit 6 reserved", 6, 0 },
	{ "bit 7 reserved", 7, 0 },
	{ "bit 8 reserved", 8, 0 },
	{ "bit 9 reserved", 9, 0 },
	{ "bit 10 reserved", 10, 0 },
	{ "bit 11 reserved", 11, 0 },
	{ "bit 12 reserved", 12, 0 },
	{ "bit 13 reserved", 13, 0 },
	{ "bit 14 reserved", 14, 0 },
	{ "bit 15 reserved", 15, 0 },
};

static void attr_testcase_desc(struct exfat_attr_testcase *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(exfat_attr, attr_test_cases, attr_testcase_desc);

/* Each bit on its own maps to its statx flag and to nothing else. */
static void exfat_attr_to_statx_bit_test(struct kunit *test)
{
	const struct exfat_attr_testcase *testcase = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, exfat_attr_to_statx(1U << testcase->bit),
			    testcase->statx, "FileAttributes %#x\n",
			    1U << testcase->bit);
}

/*
 * Every one of the 65536 values of FileAttributes maps to the union of its
 * bits' flags, and never to a flag that exfat_getattr() leaves out of the
 * mask.
 */
static void exfat_attr_to_statx_word_test(struct kunit *test)
{
	unsigned int word, i;

	for (word = 0; word <= 0xffff; word++) {
		u64 want = 0, got = exfat_attr_to_statx(word);

		for (i = 0; i < ARRAY_SIZE(attr_test_cases); i++)
			if (word & (1U << attr_test_cases[i].bit))
				want |= attr_test_cases[i].statx;
		if (got != want || (got & ~EXFAT_STATX_ATTRS)) {
			KUNIT_FAIL(test, "FileAttributes %#x: got %#llx, want %#llx\n",
				   word, got, want);
			return;
		}
	}
}

static struct kunit_case exfat_test_cases[] = {
	KUNIT_CASE_PARAM(exfat_attr_to_statx_bit_test, exfat_attr_gen_params),
	KUNIT_CASE(exfat_attr_to_statx_word_test),
	{},
};

static struct kunit_suite exfat_test_suite = {
	.name = "exfat",
	.test_cases = exfat_test_cases,
};

kunit_test_suites(&exfat_test_suite);

MODULE_DESCRIPTION("KUnit tests for the exFAT filesystem");
MODULE_LICENSE("GPL");
