// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-io-uring.c - io_uring provided-buffer rings (vmap) and registered
 * buffer tables (vmalloc) as a vmalloc-order path.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "config.h"
#include "params.h"
#include "path-io-uring.h"
#include "report.h"
#include "vmproof.h"

static const char *const ring_callers[] = { "io_create_region",
					    "io_region_init_ptr",
					    "io_pin_pbuf_ring", NULL };
static const char *const buf_callers[] = { "io_alloc_imu",
					   "io_sqe_buffer_register",
					   "io_sqe_buffers_register",
					   "io_pin_pages", NULL };
/* Every caller, for the path table (vmpath.h). */
static const char *const iou_callers[] = {
	"io_create_region",	  "io_region_init_ptr",
	"io_pin_pbuf_ring",	  "io_alloc_imu",
	"io_sqe_buffer_register", "io_sqe_buffers_register",
	"io_pin_pages",		  NULL
};

#if defined(HAVE_LIBURING)
#include <liburing.h>

#define PBUF_ENTRY_BYTES 16
#define PBUF_MIN_ENTRIES 512 /* 256 entries fit one page: not vmapped */
#define PBUF_MAX_ENTRIES 32768
#define BVEC_BYTES 16
#define MAX_BUFFER_BYTES (1ULL << 30)
#define KMALLOC_MAX_BYTES (4ULL << 20) /* MAX_PAGE_ORDER 10, 4 KiB pages */
/* ENOMEM from the shared RLIMIT_MEMLOCK: retry for up to 50 ms. */
#define ENOMEM_RETRIES 50
#define ENOMEM_WAIT_US 1000

struct iou_state {
	const char *stressor;
	struct io_uring ring;
	bool rings, buffers; /* kinds in use */
	/* rings */
	uint64_t entries, ring_bytes, nrings;
	char *ring_mem;
	/* buffers */
	uint64_t buf_bytes, nbufs;
	char *buf_mem;
	struct iovec *iov;
};

static uint64_t memlock_bytes(void)
{
	struct rlimit rl = { 0 };

	getrlimit(RLIMIT_MEMLOCK, &rl);
	return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX / 4 : rl.rlim_cur;
}

/* Anonymous, never huge, faulted in: a region of many small folios. */
static char *small_pages(uint64_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, bytes, MADV_NOHUGEPAGE);
	memset(p, 0, bytes);
	return p;
}

static void iou_teardown(void *state)
{
	struct iou_state *st = state;

	if (!st)
		return;
	io_uring_queue_exit(&st->ring);
	if (st->ring_mem)
		munmap(st->ring_mem, st->nrings * st->ring_bytes);
	if (st->buf_mem)
		munmap(st->buf_mem, st->nbufs * st->buf_bytes);
	free(st->iov);
	free(st);
}

/* Register up to @n rings; return how many, *err the errno that stopped. */
static uint64_t rings_register(struct iou_state *st, uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	for (i = 0; i < n; i++) {
		struct io_uring_buf_reg reg = {
			.ring_addr = (unsigned long)(st->ring_mem +
						     i * st->ring_bytes),
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

static void rings_unregister(struct iou_state *st, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		io_uring_unregister_buf_ring(&st->ring, (int)i);
}

static void clamp_note(struct iou_state *st, const char *kind, uint64_t *batch,
		       uint64_t to, const char *why)
{
	smm_note_once(NULL, st->stressor,
		      "io-uring: %s batch clamped from %llu to %llu: %s", kind,
		      (unsigned long long)*batch, (unsigned long long)to, why);
	*batch = to;
}

static int rings_setup(struct iou_state *st, const struct smm_vmpath_cfg *cfg,
		       char *why, size_t len)
{
	uint64_t want = cfg->bytes / PBUF_ENTRY_BYTES, lim, made;
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	char txt[160];
	int err;

	/* The power of two nearest the wanted entry count. */
	st->entries = PBUF_MIN_ENTRIES;
	while (st->entries < PBUF_MAX_ENTRIES && st->entries * 3 / 2 < want)
		st->entries <<= 1;
	st->ring_bytes = st->entries * PBUF_ENTRY_BYTES;
	st->nrings = cfg->batch > 65536 ? 65536 : cfg->batch;
	/* Half: RLIMIT_MEMLOCK is per user, shared with the other workers. */
	lim = memlock_bytes() / 2 / st->ring_bytes;
	if (st->nrings > lim) {
		snprintf(txt, sizeof(txt), "half of RLIMIT_MEMLOCK %llu bytes",
			 (unsigned long long)memlock_bytes());
		clamp_note(st, "rings", &st->nrings, lim ? lim : 1, txt);
	}
	st->ring_mem = small_pages(st->nrings * st->ring_bytes);
	if (!st->ring_mem) {
		snprintf(why, len, "io-uring: rings: out of memory");
		return -ENOMEM;
	}
	smm_vmproof_begin(&p, ring_callers);
	made = rings_register(st, smm_probe_size(st->nrings), &err);
	/* Other workers hold the shared RLIMIT_MEMLOCK for a moment. */
	for (int i = 0; i < ENOMEM_RETRIES && made == 0 && err == ENOMEM; i++) {
		usleep(ENOMEM_WAIT_US);
		made = rings_register(st, smm_probe_size(st->nrings), &err);
	}
	smm_vmproof_end(&p, ring_callers, &r);
	rings_unregister(st, made);
	if (made == 0) {
		snprintf(
			why, len,
			"io-uring: rings: IORING_REGISTER_PBUF_RING errno=%d (%s)",
			err, strerror(err));
		return -err;
	}
	if (made < smm_probe_size(st->nrings)) {
		snprintf(
			txt, sizeof(txt),
			"IORING_REGISTER_PBUF_RING errno=%d (%s) (RLIMIT_MEMLOCK is per user, shared by all workers)",
			err, strerror(err));
		clamp_note(st, "rings", &st->nrings, made, txt);
	}
	if (!r.err && !r.count) {
		snprintf(
			why, len,
			"io-uring: rings: %llu provided-buffer rings of %llu entries added no io_create_region vmap area to /proc/vmallocinfo",
			(unsigned long long)made,
			(unsigned long long)st->entries);
		return -EOPNOTSUPP;
	}
	snprintf(txt, sizeof(txt),
		 "provided-buffer rings of %llu entries in user memory",
		 (unsigned long long)st->entries);
	smm_vmproof_report(cfg->stressor, "io-uring rings", txt, &r, made,
			   "rings", cfg->bytes);
	return 0;
}

static int buffers_setup(struct iou_state *st, const struct smm_vmpath_cfg *cfg,
			 char *why, size_t len)
{
	uint64_t lock = memlock_bytes(), page = (uint64_t)getpagesize();
	char have[32], need[32], got[32], txt[200];
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	int rc;

	/* A table of cfg->bytes describes cfg->bytes / 16 pages; io_uring
	 * takes at most 1 GiB per buffer (io_uring/rsrc.c
	 * io_buffer_validate(): EFAULT above SZ_1G), whose table is just
	 * above KMALLOC_MAX_SIZE. */
	st->buf_bytes = cfg->bytes / BVEC_BYTES * page;
	if (st->buf_bytes > MAX_BUFFER_BYTES)
		st->buf_bytes = MAX_BUFFER_BYTES;
	if (st->buf_bytes > lock / 2)
		st->buf_bytes = lock / 2 / page * page;
	smm_format_size(lock, have, sizeof(have));
	smm_format_size(KMALLOC_MAX_BYTES / BVEC_BYTES * page, need,
			sizeof(need));
	if (st->buf_bytes < page) {
		snprintf(
			why, len,
			"io-uring: buffers: RLIMIT_MEMLOCK %s leaves no room for a registered buffer",
			have);
		return -ENOMEM;
	}
	st->nbufs = 1;
	st->buf_mem = small_pages(st->buf_bytes);
	st->iov = calloc(1, sizeof(*st->iov));
	if (!st->buf_mem || !st->iov) {
		snprintf(why, len, "io-uring: buffers: out of memory");
		return -ENOMEM;
	}
	st->iov[0].iov_base = st->buf_mem;
	st->iov[0].iov_len = st->buf_bytes;
	smm_vmproof_begin(&p, buf_callers);
	rc = io_uring_register_buffers(&st->ring, st->iov, 1);
	for (int i = 0; i < ENOMEM_RETRIES && rc == -ENOMEM; i++) {
		usleep(ENOMEM_WAIT_US);
		rc = io_uring_register_buffers(&st->ring, st->iov, 1);
	}
	smm_vmproof_end(&p, buf_callers, &r);
	if (rc == 0)
		io_uring_unregister_buffers(&st->ring);
	smm_format_size(st->buf_bytes, got, sizeof(got));
	if (rc < 0) {
		snprintf(
			why, len,
			"io-uring: buffers: registering a %s buffer: errno=%d (%s); RLIMIT_MEMLOCK %s",
			got, -rc, strerror(-rc), have);
		return rc;
	}
	if (!r.err && !r.count) {
		snprintf(
			why, len,
			"io-uring: buffers: the page tables of a %s registered buffer came from kmalloc (no vmalloc area); a table above 4 MiB (KMALLOC_MAX_SIZE) needs a buffer above %s, i.e. RLIMIT_MEMLOCK above that or CAP_IPC_LOCK (have %s)",
			got, need, have);
		return -EOPNOTSUPP;
	}
	snprintf(txt, sizeof(txt), "page tables of a %s registered buffer",
		 got);
	smm_vmproof_report(cfg->stressor, "io-uring buffers", txt, &r, 1,
			   "buffers", cfg->bytes);
	return 0;
}

static int iou_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	bool want_rings = cfg->io_uring != SMM_IOU_BUFFERS;
	bool want_buffers = cfg->io_uring != SMM_IOU_RINGS;
	char why_r[400] = "", why_b[400] = "";
	struct iou_state *st;
	int rc, rc_r = 0, rc_b = 0;

	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "io-uring: out of memory");
		return -ENOMEM;
	}
	st->stressor = cfg->stressor;
	rc = io_uring_queue_init(8, &st->ring, 0);
	if (rc < 0) {
		free(st);
		snprintf(
			why, len,
			"io-uring: io_uring_setup errno=%d (%s) (kernel.io_uring_disabled, seccomp or no CONFIG_IO_URING)",
			-rc, strerror(-rc));
		return rc;
	}
	if (want_rings) {
		rc_r = rings_setup(st, cfg, why_r, sizeof(why_r));
		st->rings = rc_r == 0;
	}
	if (want_buffers) {
		rc_b = buffers_setup(st, cfg, why_b, sizeof(why_b));
		st->buffers = rc_b == 0;
	}
	if (!st->rings && !st->buffers) {
		snprintf(why, len, "%s%s%s", why_r,
			 why_r[0] && why_b[0] ? "; " : "", why_b);
		iou_teardown(st);
		return want_rings ? rc_r : rc_b;
	}
	if (want_rings && !st->rings)
		smm_note_once(NULL, cfg->stressor,
			      "io-uring: both: leaving out %s", why_r);
	if (want_buffers && !st->buffers)
		smm_note_once(NULL, cfg->stressor,
			      "io-uring: both: leaving out %s", why_b);
	*state = st;
	return 0;
}

static int iou_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	struct iou_state *st = state;
	char txt[128];
	uint64_t made;
	int err, rc;

	if (st->rings) {
		made = rings_register(st, st->nrings, &err);
		rings_unregister(st, made);
		*allocs += made;
		if (err && made > 0 && err == ENOMEM) {
			snprintf(txt, sizeof(txt), "errno=%d (%s)", err,
				 strerror(err));
			clamp_note(st, "rings", &st->nrings, made, txt);
		} else if (err) {
			snprintf(
				what, len,
				"io-uring: IORING_REGISTER_PBUF_RING of ring %llu of %llu",
				(unsigned long long)made + 1,
				(unsigned long long)st->nrings);
			return -err;
		}
	}
	if (st->buffers) {
		rc = io_uring_register_buffers(&st->ring, st->iov,
					       (unsigned int)st->nbufs);
		if (rc < 0) {
			snprintf(
				what, len,
				"io-uring: IORING_REGISTER_BUFFERS of %llu bytes",
				(unsigned long long)st->buf_bytes);
			return rc;
		}
		io_uring_unregister_buffers(&st->ring);
		*allocs += st->nbufs;
	}
	return 0;
}

#else /* !HAVE_LIBURING */

static int iou_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	(void)state;
	(void)cfg;
	snprintf(why, len,
		 "io-uring: built without liburing (install liburing-dev)");
	return -EOPNOTSUPP;
}

static int iou_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	(void)state;
	(void)allocs;
	snprintf(what, len, "io-uring: not built");
	return -EOPNOTSUPP;
}

static void iou_teardown(void *state)
{
	(void)state;
}

#endif /* HAVE_LIBURING */

const struct smm_vmpath smm_vmpath_io_uring = {
	.name = "io-uring",
	.kind = "vmap (rings), vmalloc (buffers)",
	.callers = iou_callers,
	.natural_bytes = 8192,
	.setup = iou_setup,
	.batch = iou_batch,
	.teardown = iou_teardown,
};
