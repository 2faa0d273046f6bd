// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-fdtable.c - fd tables copied into forked children as a vmalloc path.
 */
#include <errno.h>
#include <fcntl.h>
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
	int own; /* the path's own descriptor (/dev/null) */
	int target; /* the high descriptor number asked for */
	int high; /* the duplicate while a batch is alive, else -1 */
	uint64_t nofile, nr_open; /* RLIMIT_NOFILE soft limit, fs.nr_open */
};

static void fdt_destroy(void *ctx)
{
	struct fdt_ctx *st = ctx;

	smm_children_free(&st->kids);
	if (st->high >= 0)
		close(st->high);
	if (st->own >= 0)
		close(st->own);
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
	st->high = -1;
	st->own = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (st->own < 0) {
		err = errno;
		snprintf(why, len, "open /dev/null: errno=%d (%s)", err,
			 strerror(err));
		fdt_destroy(st);
		return -err;
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	st->nofile = rl.rlim_cur;
	smm_read_u64("/proc/sys/fs/nr_open", &st->nr_open);
	if (slots > st->nofile)
		slots = st->nofile;
	st->target = slots > 4 ? (int)slots - 1 : 3;
	*ctx = st;
	return 0;
}

/*
 * Grow the table by duplicating our own descriptor to the lowest free
 * number at or above the target (F_DUPFD never replaces an open one, as
 * dup2() would), then fork the children that copy it. The duplicate lives
 * only while the batch does: dup_fd() sizes a child's table by the highest
 * open descriptor, so once it is closed the forks of other paths (ldt, the
 * companions) copy a small table again.
 */
static uint64_t fdt_acquire(void *ctx, uint64_t n, int *err)
{
	struct fdt_ctx *st = ctx;

	st->high = fcntl(st->own, F_DUPFD_CLOEXEC, st->target);
	if (st->high < 0) {
		*err = errno;
		return 0;
	}
	return smm_children_acquire(&st->kids, n, err);
}

static void fdt_release(void *ctx, uint64_t n)
{
	struct fdt_ctx *st = ctx;

	smm_children_release(&st->kids, n);
	if (st->high >= 0)
		close(st->high);
	st->high = -1;
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

	if (err) {
		snprintf(buf, len, "the table grows first by F_DUPFD to fd %d",
			 st->target);
		return;
	}
	smm_format_size(((uint64_t)st->target + 1) * FD_SLOT_BYTES, table,
			sizeof(table));
	smm_format_size(KMALLOC_MAX_BYTES / FD_SLOT_BYTES, need, sizeof(need));
	snprintf(
		buf, len,
		"fd tables of about %s (highest fd %d, RLIMIT_NOFILE %llu) came from kmalloc, not vmalloc: kvmalloc falls back only when kmalloc fails or above 4 MiB (KMALLOC_MAX_SIZE), i.e. RLIMIT_NOFILE and fs.nr_open (%llu) above %s descriptors",
		table, st->target, (unsigned long long)st->nofile,
		(unsigned long long)st->nr_open, need);
}

/* fs/file.c alloc_fdtable(): kvmalloc_array() of the fd array; above
 * KMALLOC_MAX_SIZE kmalloc cannot serve it, below it kmalloc does unless
 * memory is fragmented (mm/slub.c __kvmalloc_node_noprof()). */
static bool fdt_by_rule(void *ctx, char *why, size_t len)
{
	struct fdt_ctx *st = ctx;
	uint64_t bytes = ((uint64_t)st->target + 1) * FD_SLOT_BYTES;
	char table[32];

	smm_format_size(bytes, table, sizeof(table));
	snprintf(why, len,
		 "a fd table of %s is %s KMALLOC_MAX_SIZE, fs/file.c kvmalloc",
		 table, bytes > KMALLOC_MAX_BYTES ? "above" : "within");
	return bytes > KMALLOC_MAX_BYTES;
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
	.acquire = fdt_acquire,
	.release = fdt_release,
	.describe = fdt_describe,
	.why_not = fdt_why_not,
	.by_rule = fdt_by_rule,
};

static const struct smm_holder_ops *const fdt_kinds[] = { &fdt_ops, NULL };

const struct smm_vmpath smm_vmpath_fdtable = {
	.name = "fdtable",
	.kind = "vmalloc (kvmalloc fallback)",
	.natural_bytes = 262144,
	.kinds = fdt_kinds,
};
