// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the statx() I/O parameters (STATX_IO_PARAMS): what
 * statx_io_params_from_limits(), behind generic_fill_statx_io_params(),
 * makes of given queue limits and filesystem geometry.
 */

#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include "internal.h"

struct statx_io_case {
	const char *name;
	/* The device's queue limits */
	unsigned int pbs;
	unsigned int io_min;
	unsigned int io_opt;
	unsigned int discard_granularity;
	bool no_discard;	/* max_discard_sectors is 0 */
	/* What the filesystem passes */
	unsigned int blocksize;	/* its allocation unit */
	u64 stripe_unit;
	u64 stripe_width;
	bool shared;
	/* What statx() must return */
	bool none;		/* no STATX_IO_PARAMS at all */
	u32 want_min;
	u32 want_opt;
	u32 want_erase;
};

static const struct statx_io_case statx_io_cases[] = {
	{
		.name = "512-byte disk without discard, 4k fs blocks",
		.pbs = 512, .io_min = 512, .no_discard = true,
		.blocksize = 4096,
		.want_min = 4096, .want_erase = 4096,
	},
	{
		.name = "512-byte disk, the node itself",
		.pbs = 512, .io_min = 512, .no_discard = true,
		.blocksize = 512,
		.want_min = 512, .want_erase = 512,
	},
	{
		.name = "4k-sector SSD with discard",
		.pbs = 4096, .io_min = 4096, .discard_granularity = 4096,
		.blocksize = 4096,
		.want_min = 4096, .want_erase = 4096,
	},
	{
		.name = "512e disk, 1k fs blocks: the sector wins",
		.pbs = 4096, .io_min = 4096, .no_discard = true,
		.blocksize = 1024,
		.want_min = 4096, .want_erase = 1024,
	},
	{
		.name = "distinct min, opt and discard (the test disk)",
		.pbs = 4096, .io_min = 8192, .io_opt = 65536,
		.discard_granularity = 16384,
		.blocksize = 4096,
		.want_min = 8192, .want_opt = 65536, .want_erase = 16384,
	},
	{
		.name = "RAID device, no fs geometry",
		.pbs = 512, .io_min = 65536, .io_opt = 262144, .no_discard = true,
		.blocksize = 4096,
		.want_min = 65536, .want_opt = 262144, .want_erase = 4096,
	},
	{
		.name = "fs stripe geometry on a plain disk",
		.pbs = 512, .io_min = 512, .no_discard = true,
		.blocksize = 4096, .stripe_unit = 16384, .stripe_width = 65536,
		.want_min = 16384, .want_opt = 65536, .want_erase = 4096,
	},
	{
		.name = "fs stripe width wins over the device's optimal size",
		.pbs = 512, .io_min = 512, .io_opt = 1048576, .no_discard = true,
		.blocksize = 4096, .stripe_unit = 16384, .stripe_width = 65536,
		.want_min = 16384, .want_opt = 65536, .want_erase = 4096,
	},
	{
		.name = "device minimum above the fs stripe unit",
		.pbs = 4096, .io_min = 65536, .no_discard = true,
		.blocksize = 4096, .stripe_unit = 8192, .stripe_width = 131072,
		.want_min = 65536, .want_opt = 131072, .want_erase = 4096,
	},
	{
		.name = "three data disks: width not a power of two",
		.pbs = 512, .io_min = 512, .no_discard = true,
		.blocksize = 4096, .stripe_unit = 65536, .stripe_width = 196608,
		.want_min = 65536, .want_opt = 196608, .want_erase = 4096,
	},
	{
		.name = "optimal size below the minimum is raised",
		.pbs = 4096, .io_min = 8192, .io_opt = 4096, .no_discard = true,
		.blocksize = 4096,
		.want_min = 8192, .want_opt = 8192, .want_erase = 4096,
	},
	{
		.name = "discard granularity below the fs block is raised",
		.pbs = 512, .io_min = 512, .discard_granularity = 512,
		.blocksize = 4096,
		.want_min = 4096, .want_erase = 4096,
	},
	{
		.name = "64k bigalloc clusters on a 4k disk",
		.pbs = 4096, .io_min = 4096, .io_opt = 32768,
		.discard_granularity = 4096,
		.blocksize = 65536,
		.want_min = 65536, .want_opt = 65536, .want_erase = 65536,
	},
	{
		.name = "optimal size not a multiple of the cluster",
		.pbs = 4096, .io_min = 4096, .io_opt = 98304, .no_discard = true,
		.blocksize = 65536,
		.want_min = 65536, .want_opt = 131072, .want_erase = 65536,
	},
	{
		.name = "discard granularity not a multiple of the block",
		.pbs = 512, .io_min = 512, .discard_granularity = 6144,
		.blocksize = 4096,
		.want_min = 4096, .want_erase = 12288,
	},
	{
		.name = "shared extents: no erase size",
		.pbs = 4096, .io_min = 4096, .discard_granularity = 65536,
		.blocksize = 4096, .shared = true,
		.want_min = 4096,
	},
	{
		.name = "stripe width too large for the field: nothing",
		.pbs = 512, .io_min = 512, .io_opt = 65536,
		.blocksize = 4096, .stripe_unit = 65536,
		.stripe_width = 0x100000000ULL,
		.none = true,
	},
	{
		.name = "stripe unit too large for the field: nothing",
		.pbs = 512, .io_min = 512,
		.blocksize = 4096, .stripe_unit = 0x200000000ULL,
		.none = true,
	},
	{
		.name = "optimal size rounded past the field: nothing",
		.pbs = 512, .io_min = 512, .io_opt = 0xfffff000U,
		.blocksize = 4096, .stripe_unit = 0x10000000,
		.none = true,
	},
};

static void statx_io_case_desc(const struct statx_io_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(statx_io, statx_io_cases, statx_io_case_desc);

static void statx_io_params_test(struct kunit *test)
{
	const struct statx_io_case *c = test->param_value;
	struct queue_limits lim = {
		.logical_block_size = 512,
		.physical_block_size = c->pbs,
		.io_min = c->io_min,
		.io_opt = c->io_opt,
		.discard_granularity = c->discard_granularity,
		.max_discard_sectors = c->no_discard ? 0 : UINT_MAX >> 9,
	};
	struct kstat stat;

	memset(&stat, 0, sizeof(stat));
	stat.result_mask = STATX_BASIC_STATS;
	stat.blksize = 4096;

	statx_io_params_from_limits(&stat, &lim, c->blocksize, c->stripe_unit,
				    c->stripe_width, c->shared);

	KUNIT_EXPECT_EQ(test, stat.result_mask,
			c->none ? STATX_BASIC_STATS :
				  STATX_BASIC_STATS | STATX_IO_PARAMS);
	KUNIT_EXPECT_EQ(test, stat.io_min, c->want_min);
	KUNIT_EXPECT_EQ(test, stat.io_opt, c->want_opt);
	KUNIT_EXPECT_EQ(test, stat.erase_size, c->want_erase);
	/* Nothing else is touched */
	KUNIT_EXPECT_EQ(test, stat.blksize, 4096);
	KUNIT_EXPECT_EQ(test, stat.attributes, 0);
	KUNIT_EXPECT_EQ(test, stat.dio_offset_align, 0);
}

static struct kunit_case statx_io_params_cases[] = {
	KUNIT_CASE_PARAM(statx_io_params_test, statx_io_gen_params),
	{}
};

static struct kunit_suite statx_io_params_suite = {
	.name = "statx_io_params",
	.test_cases = statx_io_params_cases,
};

kunit_test_suite(statx_io_params_suite);

MODULE_DESCRIPTION("KUnit tests for the statx() I/O parameters");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
