// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-ldt.c - x86 LDT copies in forked children as a vmalloc path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "headroom.h"
#include "holder-children.h"
#include "path-ldt.h"

#if defined(HAVE_MODIFY_LDT)
#include <asm/ldt.h>
#endif

#define LDT_MIN_VMALLOC_ENTRIES 513 /* one page holds 512 */

static const char *const ldt_callers[] = { "alloc_ldt_struct", NULL };

struct ldt_ctx {
	struct smm_children kids; /* first: the holder-children ops use it */
	uint64_t entries;
};

static void ldt_destroy(void *ctx)
{
	struct ldt_ctx *st = ctx;

	smm_children_free(&st->kids);
	free(st);
}

#if defined(HAVE_MODIFY_LDT)
/* Give this process an LDT of @entries entries. Return 0 or -errno. */
static int ldt_grow(uint64_t entries)
{
	struct user_desc d;

	memset(&d, 0, sizeof(d));
	d.entry_number = (unsigned int)(entries - 1);
	d.seg_32bit = 1;
	d.useable = 1;
	if (syscall(SYS_modify_ldt, 1, &d, sizeof(d)) != 0)
		return -errno;
	return 0;
}

/* Size mapping: cfg->bytes / 8 entries, within 513..LDT_ENTRIES. */
static int ldt_prepare(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len)
{
	uint64_t entries = cfg->bytes / LDT_ENTRY_SIZE;
	struct ldt_ctx *st;
	int err;

	if (entries < LDT_MIN_VMALLOC_ENTRIES)
		entries = LDT_MIN_VMALLOC_ENTRIES;
	if (entries > LDT_ENTRIES)
		entries = LDT_ENTRIES;
	err = ldt_grow(entries);
	if (err) {
		snprintf(
			why, len,
			"modify_ldt errno=%d (%s): no CONFIG_MODIFY_LDT_SYSCALL, or forbidden by seccomp",
			-err, strerror(-err));
		return err;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	st->entries = entries;
	*ctx = st;
	return 0;
}
#else
static int ldt_prepare(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len)
{
	(void)ctx;
	(void)cfg;
	snprintf(why, len, "modify_ldt(2) is x86 only");
	return -EOPNOTSUPP;
}
#endif /* HAVE_MODIFY_LDT */

static void ldt_describe(void *ctx, char *buf, size_t len)
{
	struct ldt_ctx *st = ctx;

	snprintf(
		buf, len,
		"LDT copies of %llu entries (one per forked child, which also gets a thread stack)",
		(unsigned long long)st->entries);
}

/* arch/x86/kernel/ldt.c alloc_ldt_struct(): an LDT over one page is
 * vmalloc'ed; ldt_prepare() asks for more than 512 entries. */
static bool ldt_by_rule(void *ctx, char *why, size_t len)
{
	struct ldt_ctx *st = ctx;

	bool over = st->entries * LDT_ENTRY_SIZE > (uint64_t)getpagesize();

	snprintf(why, len, "%s: an LDT of %llu entries is %s a page, x86 ldt.c",
		 over ? "vmalloc" : "kmalloc", (unsigned long long)st->entries,
		 over ? "over" : "within");
	return over;
}

static const struct smm_holder_ops ldt_ops = {
	.name = "ldt",
	.unit = "forked children",
	.verb = "fork",
	.first = "fork",
	.callers = ldt_callers,
	.per_item = 1,
	.resource = smm_children_resource,
	.prepare = ldt_prepare,
	.destroy = ldt_destroy,
	.headroom = smm_headroom_tasks,
	.room = smm_children_room,
	.acquire = smm_children_acquire,
	.release = smm_children_release,
	.describe = ldt_describe,
	.by_rule = ldt_by_rule,
};

static const struct smm_holder_ops *const ldt_kinds[] = { &ldt_ops, NULL };

const struct smm_vmpath smm_vmpath_ldt = {
	.name = "ldt",
	.kind = "vmalloc",
	.natural_bytes = 8192,
	.kinds = ldt_kinds,
};
