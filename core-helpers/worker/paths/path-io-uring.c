// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-io-uring.c - io_uring provided-buffer rings (vmap) and registered
 * buffer tables (vmalloc) as a vmalloc-order path of two kinds.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "config.h"
#include "params.h"
#include "path-io-uring.h"

static const char *const ring_callers[] = { "io_create_region",
					    "io_region_init_ptr",
					    "io_pin_pbuf_ring", NULL };
static const char *const buf_callers[] = { "io_alloc_imu",
					   "io_sqe_buffer_register",
					   "io_sqe_buffers_register",
					   "io_pin_pages", NULL };

static bool rings_wanted(const struct smm_vmpath_cfg *cfg)
{
	return cfg->io_uring != SMM_IOU_BUFFERS;
}

static bool buffers_wanted(const struct smm_vmpath_cfg *cfg)
{
	return cfg->io_uring != SMM_IOU_RINGS;
}

static const int iou_resource[] = { ENOMEM, 0 };

#if defined(HAVE_LIBURING)
#include <liburing.h>

#define PBUF_ENTRY_BYTES 16
#define PBUF_MIN_ENTRIES 512 /* 256 entries fit one page: not vmapped */
#define PBUF_MAX_ENTRIES 32768
#define BVEC_BYTES 16
#define MAX_BUFFER_BYTES (1ULL << 30)
#define KMALLOC_MAX_BYTES (4ULL << 20) /* MAX_PAGE_ORDER 10, 4 KiB pages */

/* One io_uring and the user memory of one kind. */
struct iou_ctx {
	struct io_uring ring;
	uint64_t item_bytes; /* a ring's entries x 16, or the buffer's size */
	uint64_t entries; /* rings: entries per ring */
	char *mem; /* rings: cap rings; buffers: the one buffer */
	uint64_t mem_bytes;
	struct iovec *iov; /* buffers: cap iovecs, all of the one buffer */
	uint64_t cap; /* buffers: iovecs */
};

/* Whether the calling process has CAP_IPC_LOCK in its effective set: then
 * io_uring accounts no pinned page against RLIMIT_MEMLOCK (io_uring.c
 * io_uring_create(): ctx->user is set only without it). The plugin's
 * workers never have it; stress-ng's own workers, run as root, do. */
static bool ipc_lock_capable(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned long inside = 1, outside = 1, count = 0;
	FILE *f;

	/* io_uring asks capable(), in the initial user namespace: a
	 * capability held in another one (a container's root) lifts
	 * nothing. Only the initial namespace maps all uids to themselves. */
	f = fopen("/proc/self/uid_map", "re");
	if (!f)
		return false;
	if (fscanf(f, "%lu %lu %lu", &inside, &outside, &count) != 3)
		count = 0;
	fclose(f);
	if (inside != 0 || outside != 0 || count != 4294967295UL)
		return false;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return false;
	return (data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &
		CAP_TO_MASK(CAP_IPC_LOCK)) != 0;
}

/* The bytes io_uring may pin for this process: RLIMIT_MEMLOCK, or no
 * bound with CAP_IPC_LOCK. */
static uint64_t memlock_bytes(void)
{
	struct rlimit rl = { 0 };

	if (ipc_lock_capable())
		return UINT64_MAX / 4;
	getrlimit(RLIMIT_MEMLOCK, &rl);
	return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX / 4 : rl.rlim_cur;
}

/* "RLIMIT_MEMLOCK 8M", or what lifts it: for the messages. */
static void memlock_text(char *buf, size_t len)
{
	char have[32];

	if (ipc_lock_capable()) {
		snprintf(
			buf, len,
			"no RLIMIT_MEMLOCK bound (CAP_IPC_LOCK: not accounted)");
		return;
	}
	smm_format_size(memlock_bytes(), have, sizeof(have));
	snprintf(buf, len, "RLIMIT_MEMLOCK %s", have);
}

/* Anonymous, never huge, faulted in: a region of many small folios. */
static int small_pages(struct iou_ctx *st, uint64_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	madvise(p, bytes, MADV_NOHUGEPAGE);
	memset(p, 0, bytes);
	st->mem = p;
	st->mem_bytes = bytes;
	return 0;
}

static void iou_destroy(void *ctx)
{
	struct iou_ctx *st = ctx;

	io_uring_queue_exit(&st->ring);
	if (st->mem)
		munmap(st->mem, st->mem_bytes);
	free(st->iov);
	free(st);
}

static int iou_open(struct iou_ctx **out, char *why, size_t len)
{
	struct iou_ctx *st = calloc(1, sizeof(*st));
	int rc;

	if (!st) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	rc = io_uring_queue_init(8, &st->ring, 0);
	if (rc < 0) {
		free(st);
		snprintf(
			why, len,
			"io_uring_setup errno=%d (%s) (kernel.io_uring_disabled, seccomp or no CONFIG_IO_URING)",
			-rc, strerror(-rc));
		return rc;
	}
	*out = st;
	return 0;
}

/* Half: RLIMIT_MEMLOCK is per user, shared with the other workers, and
 * io_uring accounts pinned pages against it without CAP_IPC_LOCK. */
static uint64_t iou_headroom(void *ctx, char *why, size_t len)
{
	struct iou_ctx *st = ctx;
	uint64_t lim = memlock_bytes() / 2 / st->item_bytes;
	char lock[80];

	memlock_text(lock, sizeof(lock));
	snprintf(why, len, "half of what %s allows", lock);
	return lim ? lim : 1;
}

/* rings: entries are the power of two nearest cfg->bytes / 16. */
static int rings_prepare(void **ctx, const struct smm_vmpath_cfg *cfg,
			 char *why, size_t len)
{
	uint64_t want = cfg->bytes / PBUF_ENTRY_BYTES;
	struct iou_ctx *st;
	int rc = iou_open(&st, why, len);

	if (rc)
		return rc;
	st->entries = PBUF_MIN_ENTRIES;
	while (st->entries < PBUF_MAX_ENTRIES && st->entries * 3 / 2 < want)
		st->entries <<= 1;
	st->item_bytes = st->entries * PBUF_ENTRY_BYTES;
	*ctx = st;
	return 0;
}

static int rings_room(void *ctx, uint64_t cap)
{
	return small_pages(ctx, cap * ((struct iou_ctx *)ctx)->item_bytes);
}

/* Register rings 0..@n-1 (bgid i) on the one io_uring. */
static uint64_t rings_acquire(void *ctx, uint64_t n, int *err)
{
	struct iou_ctx *st = ctx;
	uint64_t i;

	*err = 0;
	for (i = 0; i < n && (i + 1) * st->item_bytes <= st->mem_bytes; i++) {
		struct io_uring_buf_reg reg = {
			.ring_addr =
				(unsigned long)(st->mem + i * st->item_bytes),
			.ring_entries = (unsigned int)st->entries,
			.bgid = (unsigned short)i,
		};
		int rc = io_uring_register_buf_ring(&st->ring, &reg, 0);

		if (rc < 0) {
			*err = -rc;
			break;
		}
	}
	return i;
}

static void rings_release(void *ctx, uint64_t n)
{
	struct iou_ctx *st = ctx;

	for (uint64_t i = 0; i < n; i++)
		io_uring_unregister_buf_ring(&st->ring, (int)i);
}

static void rings_describe(void *ctx, char *buf, size_t len)
{
	snprintf(buf, len,
		 "provided-buffer rings of %llu entries in user memory",
		 (unsigned long long)((struct iou_ctx *)ctx)->entries);
}

/*
 * buffers: a table of cfg->bytes describes cfg->bytes / 16 pages; io_uring
 * takes at most 1 GiB per buffer (io_uring/rsrc.c io_buffer_validate():
 * EFAULT above SZ_1G), whose table is just above KMALLOC_MAX_SIZE.
 */
static int buffers_prepare(void **ctx, const struct smm_vmpath_cfg *cfg,
			   char *why, size_t len)
{
	uint64_t lock = memlock_bytes(), page = (uint64_t)getpagesize();
	struct iou_ctx *st;
	char have[80];
	int rc = iou_open(&st, why, len);

	if (rc)
		return rc;
	st->item_bytes = cfg->bytes / BVEC_BYTES * page;
	if (st->item_bytes > MAX_BUFFER_BYTES)
		st->item_bytes = MAX_BUFFER_BYTES;
	if (st->item_bytes > lock / 2)
		st->item_bytes = lock / 2 / page * page;
	if (st->item_bytes < page) {
		memlock_text(have, sizeof(have));
		snprintf(why, len, "%s leaves no room for a registered buffer",
			 have);
		iou_destroy(st);
		return -ENOMEM;
	}
	*ctx = st;
	return 0;
}

/* One buffer; @cap iovecs of it (a kind may register it more than once:
 * each registration gets its own page table, the pages are pinned again,
 * not copied). */
static int buffers_room(void *ctx, uint64_t cap)
{
	struct iou_ctx *st = ctx;

	st->iov = calloc(cap, sizeof(*st->iov));
	if (!st->iov || small_pages(st, st->item_bytes))
		return -ENOMEM;
	for (uint64_t i = 0; i < cap; i++) {
		st->iov[i].iov_base = st->mem;
		st->iov[i].iov_len = st->item_bytes;
	}
	st->cap = cap;
	return 0;
}

/* All @n at once: IORING_REGISTER_BUFFERS registers a table or nothing. */
static uint64_t buffers_acquire(void *ctx, uint64_t n, int *err)
{
	struct iou_ctx *st = ctx;
	int rc;

	*err = 0;
	if (n > st->cap)
		n = st->cap;
	rc = io_uring_register_buffers(&st->ring, st->iov, (unsigned int)n);
	if (rc < 0) {
		*err = -rc;
		return 0;
	}
	return n;
}

static void buffers_release(void *ctx, uint64_t n)
{
	if (n)
		io_uring_unregister_buffers(&((struct iou_ctx *)ctx)->ring);
}

static void buffers_describe(void *ctx, char *buf, size_t len)
{
	char got[32];

	smm_format_size(((struct iou_ctx *)ctx)->item_bytes, got, sizeof(got));
	snprintf(buf, len, "page tables of a %s registered buffer", got);
}

static void buffers_why_not(void *ctx, int err, char *buf, size_t len)
{
	struct iou_ctx *st = ctx;
	uint64_t page = (uint64_t)getpagesize();
	char have[80], need[32], got[32];

	memlock_text(have, sizeof(have));
	smm_format_size(st->item_bytes, got, sizeof(got));
	smm_format_size(KMALLOC_MAX_BYTES / BVEC_BYTES * page, need,
			sizeof(need));
	if (err)
		snprintf(buf, len, "a %s buffer, %s", got, have);
	else if (ipc_lock_capable())
		snprintf(
			buf, len,
			"the page tables of a %s registered buffer came from kmalloc; a table above 4 MiB (KMALLOC_MAX_SIZE) needs a %s buffer, i.e. bytes of 4M or more (%s)",
			got, need, have);
	else
		snprintf(
			buf, len,
			"the page tables of a %s registered buffer came from kmalloc; a table above 4 MiB (KMALLOC_MAX_SIZE) needs a buffer above %s, i.e. RLIMIT_MEMLOCK above that or CAP_IPC_LOCK (have %s)",
			got, need, have);
}

/* io_uring/memmap.c io_region_init_ptr(): pinned user memory that is not
 * one folio is vmap()ed; small_pages() makes it many small folios. */
static bool rings_by_rule(void *ctx, char *why, size_t len)
{
	(void)ctx;
	snprintf(
		why, len,
		"vmap: a ring in user memory of many folios, io_uring/memmap.c");
	return true;
}

/* io_uring/rsrc.c: a buffer's table of one bio_vec per page is
 * kvmalloc'ed: vmalloc only above KMALLOC_MAX_SIZE (mm/slub.c
 * __kvmalloc_node_noprof()), kmalloc below it unless memory is fragmented;
 * its few pages are too few to tell apart in VmallocUsed. */
static bool buffers_by_rule(void *ctx, char *why, size_t len)
{
	struct iou_ctx *st = ctx;
	uint64_t table = st->item_bytes / (uint64_t)getpagesize() * BVEC_BYTES;
	char t[32];

	smm_format_size(table, t, sizeof(t));
	snprintf(
		why, len,
		"a buffer table of %s is %s KMALLOC_MAX_SIZE, io_uring kvmalloc",
		t, table >= KMALLOC_MAX_BYTES ? "at or above" : "within");
	return table >= KMALLOC_MAX_BYTES;
}

static const struct smm_holder_ops rings_ops = {
	.name = "io-uring rings",
	.unit = "rings",
	.verb = "IORING_REGISTER_PBUF_RING",
	.by_rule = rings_by_rule,
	.first = "register a provided-buffer ring",
	.callers = ring_callers,
	.per_item = 1,
	.resource = iou_resource,
	.retry_errno = ENOMEM, /* the shared RLIMIT_MEMLOCK, for a moment */
	.destroy = iou_destroy,
	.headroom = iou_headroom,
	.wanted = rings_wanted,
	.prepare = rings_prepare,
	.room = rings_room,
	.acquire = rings_acquire,
	.release = rings_release,
	.describe = rings_describe,
};

static const struct smm_holder_ops buffers_ops = {
	.name = "io-uring buffers",
	.unit = "registered buffers",
	.verb = "IORING_REGISTER_BUFFERS",
	.first = "register a buffer",
	.callers = buf_callers,
	.fixed_batch = 1,
	.per_item = 1,
	.resource = iou_resource,
	.retry_errno = ENOMEM, /* the shared RLIMIT_MEMLOCK, for a moment */
	.destroy = iou_destroy,
	.headroom = iou_headroom,
	.wanted = buffers_wanted,
	.prepare = buffers_prepare,
	.room = buffers_room,
	.acquire = buffers_acquire,
	.release = buffers_release,
	.describe = buffers_describe,
	.why_not = buffers_why_not,
	.by_rule = buffers_by_rule,
};

#else /* !HAVE_LIBURING */

static int iou_unbuilt(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len)
{
	(void)ctx;
	(void)cfg;
	snprintf(why, len, "built without liburing (install liburing-dev)");
	return -EOPNOTSUPP;
}

/* Only prepare() is ever called: it fails. */
static const struct smm_holder_ops rings_ops = {
	.name = "io-uring rings",
	.callers = ring_callers,
	.resource = iou_resource,
	.wanted = rings_wanted,
	.prepare = iou_unbuilt,
};

static const struct smm_holder_ops buffers_ops = {
	.name = "io-uring buffers",
	.callers = buf_callers,
	.resource = iou_resource,
	.wanted = buffers_wanted,
	.prepare = iou_unbuilt,
};

#endif /* HAVE_LIBURING */

static const struct smm_holder_ops *const iou_kinds[] = { &rings_ops,
							  &buffers_ops, NULL };

const struct smm_vmpath smm_vmpath_io_uring = {
	.name = "io-uring",
	.kind = "vmap (rings), vmalloc (buffers)",
	.natural_bytes = 8192,
	.kinds = iou_kinds,
};
