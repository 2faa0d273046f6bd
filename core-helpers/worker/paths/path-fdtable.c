// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-fdtable.c - fd tables copied into forked children as a vmalloc path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "headroom.h"
#include "holder-children.h"
#include "params.h"
#include "path-fdtable.h"
#include "sysfacts.h"

#define FD_SLOT_BYTES 8
#define KMALLOC_MAX_BYTES (4ULL << 20)

static const char *const fdt_callers[] = { "alloc_fdtable", "dup_fd",
					   "expand_fdtable", NULL };

struct fdt_ctx {
	struct smm_children kids; /* first: the holder-children ops use it */
	int target; /* the high descriptor, dup2()'d from stderr */
	uint64_t nofile, nr_open; /* RLIMIT_NOFILE soft limit, fs.nr_open */
};

static void fdt_destroy(void *ctx)
{
	struct fdt_ctx *st = ctx;

	smm_children_free(&st->kids);
	close(st->target);
	free(st);
}

/* Size mapping: the highest descriptor whose table is nearest cfg->bytes,
 * below RLIMIT_NOFILE. */
static int fdt_prepare(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len)
{
	uint64_t slots = cfg->bytes / FD_SLOT_BYTES;
	struct rlimit rl = { 0 };
	struct fdt_ctx *st;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	st->nofile = rl.rlim_cur;
	smm_read_u64("/proc/sys/fs/nr_open", &st->nr_open);
	if (slots > st->nofile)
		slots = st->nofile;
	st->target = slots > 4 ? (int)slots - 1 : 3;
	if (dup2(STDERR_FILENO, st->target) < 0) {
		err = errno;
		snprintf(why, len, "dup2 to fd %d: errno=%d (%s)", st->target,
			 err, strerror(err));
		free(st);
		return -err;
	}
	*ctx = st;
	return 0;
}

static void fdt_describe(void *ctx, char *buf, size_t len)
{
	struct fdt_ctx *st = ctx;

	snprintf(
		buf, len,
		"fd tables up to fd %d (one per forked child, which also gets a thread stack)",
		st->target);
}

static void fdt_why_not(void *ctx, int err, char *buf, size_t len)
{
	struct fdt_ctx *st = ctx;
	char table[32], need[32];

	if (err)
		return;
	smm_format_size(((uint64_t)st->target + 1) * FD_SLOT_BYTES, table,
			sizeof(table));
	smm_format_size(KMALLOC_MAX_BYTES / FD_SLOT_BYTES, need, sizeof(need));
	snprintf(
		buf, len,
		"fd tables of about %s (highest fd %d, RLIMIT_NOFILE %llu) came from kmalloc, not vmalloc: kvmalloc falls back only when kmalloc fails or above 4 MiB (KMALLOC_MAX_SIZE), i.e. RLIMIT_NOFILE and fs.nr_open (%llu) above %s descriptors",
		table, st->target, (unsigned long long)st->nofile,
		(unsigned long long)st->nr_open, need);
}

static const struct smm_holder_ops fdt_ops = {
	.name = "fdtable",
	.unit = "forked children",
	.verb = "fork",
	.first = "fork",
	.callers = fdt_callers,
	.per_item = 1,
	.resource = smm_children_resource,
	.prepare = fdt_prepare,
	.destroy = fdt_destroy,
	.headroom = smm_headroom_tasks,
	.room = smm_children_room,
	.acquire = smm_children_acquire,
	.release = smm_children_release,
	.describe = fdt_describe,
	.why_not = fdt_why_not,
};

static const struct smm_holder_ops *const fdt_kinds[] = { &fdt_ops, NULL };

const struct smm_vmpath smm_vmpath_fdtable = {
	.name = "fdtable",
	.kind = "vmalloc (kvmalloc fallback)",
	.natural_bytes = 262144,
	.kinds = fdt_kinds,
};
