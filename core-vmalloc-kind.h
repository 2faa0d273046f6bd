/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#ifndef CORE_VMALLOC_KIND_H
#define CORE_VMALLOC_KIND_H

/*
 *  The kinds of the vmalloc paths (core-vmalloc.h): what one back end
 *  implements (stress_vmalloc_ops_t, one per kind of kernel object that
 *  holds an allocation), the state of a kind set up in one process, and
 *  what the core's files share:
 *
 *	core-vmalloc.c		the kind engine: set-up, batches, reports,
 *				--verify, the path table and its kinds
 *	core-vmalloc-proof.c	the proof: new areas in /proc/vmallocinfo
 *				(core-vmallocinfo.c reads it), or VmallocUsed
 *	core-vmalloc-limits.c	the headroom of the limits a kind meets
 *	core-vmalloc-tasks.c	kinds whose items are threads and children:
 *				stack, ldt, fdtable
 *	core-vmalloc-fds.c	kinds whose items are descriptors and
 *				registrations: io-uring rings and buffers,
 *				bpf, pty
 *
 *  Include after stress-ng.h and core-vmalloc.h, where
 *  STRESS_VMALLOC_SUPPORTED is defined.
 */

#include "core-vmalloc-sizes.h"
#include "core-vmallocinfo.h"

#if defined(HAVE_LIB_PTHREAD)
#include <pthread.h>
#endif

#define STRESS_VMALLOC_THREAD_SIZE	(16 * KB)	/* x86_64 THREAD_SIZE */

typedef struct stress_vmalloc_kind stress_vmalloc_kind_t;

/* one kind of kernel object holding an allocation: its words and ops */
typedef struct {
	const char *name;		/* message prefix: "io-uring rings" */
	const char *unit;		/* items, plural: "rings" */
	const char *verb;		/* the call that makes one item */
	const char *first;		/* making the first one, for the skip */
	const char * const *callers;	/* vmallocinfo callers that prove it */
	const int *resource;		/* errnos: "the kernel allowed fewer" */
	const char *what;		/* what the items hold, for the report */
	const char *cannot;		/* own words: not one item made */
	const char *no_area;		/* own words: the probe added no area */
	const char *cache;		/* the kernel's per-CPU cache, if any */
	uint32_t per_item;		/* kernel allocations per item */
	uint32_t cached_per_cpu;	/* freed items cached per CPU */
	int retry_errno;		/* retried while nothing is made */
	int io_uring;			/* STRESS_VMALLOC_IO_URING_* bit, or 0 */
	bool one_item;			/* one item per batch, whatever asked */
	int (*prepare)(stress_vmalloc_kind_t *k, char *why, const size_t len);
	uint64_t (*headroom)(stress_vmalloc_kind_t *k, char *why, const size_t len);
	int (*room)(stress_vmalloc_kind_t *k, const uint64_t cap);
	uint64_t (*acquire)(stress_vmalloc_kind_t *k, const uint64_t n, int *err);
	void (*release)(stress_vmalloc_kind_t *k, const uint64_t n);
	int (*open_one)(stress_vmalloc_kind_t *k);	/* descriptor kinds */
	void (*describe)(stress_vmalloc_kind_t *k, char *buf, const size_t len);
	void (*why_not)(stress_vmalloc_kind_t *k, const int err, char *buf, const size_t len);
	bool (*by_rule)(stress_vmalloc_kind_t *k, char *why, const size_t len);
	/* frees what room made beyond the fields every kind has */
	void (*free)(stress_vmalloc_kind_t *k);
	/* bytes one item holds, pinned or allocated (after prepare) */
	uint64_t (*held)(const stress_vmalloc_kind_t *k);
} stress_vmalloc_ops_t;

/* one kind set up in one process: what any kind needs */
struct stress_vmalloc_kind {
	const stress_vmalloc_ops_t *ops;
	stress_args_t *args;
	stress_vmalloc_kind_info_t *info;
	size_t bytes;			/* asked for one allocation */
	uint64_t batch;			/* items per bogo-op, clamped */
	uint64_t probe;			/* items a proof holds */
	uint64_t cached;		/* of those, what a cache may serve */
	uint64_t cap;			/* room for items */
	bool cut_said;			/* a short bogo-op was said */
	int *fds;			/* pty, bpf: open descriptors */
	pid_t *pids;			/* ldt, fdtable: parked children */
	int gate[2];			/* children read [0] until [1] closes */
	int futex;			/* stack: 0 parked, 1 released */
	char *stacks;			/* stack: user stacks, raw threads */
	pid_t *ctid;			/* stack: tid until the thread exits */
#if defined(HAVE_LIB_PTHREAD)
	pthread_t *tids;		/* stack: POSIX threads */
#endif
	int ring_fd;			/* io-uring: the io_uring */
	char *mem;			/* io-uring: rings, or the buffer */
	size_t mem_bytes;
	struct iovec *iov;		/* io-uring buffers: cap iovecs */
	uint64_t item_bytes;		/* io-uring: a ring or the buffer */
	uint64_t entries;		/* ring entries; LDT entries */
	struct sock_filter *filter;	/* bpf: the classic program */
	unsigned short filter_len;
	uint64_t optmem;		/* bpf: net.core.optmem_max */
	int own;			/* fdtable: its /dev/null descriptor */
	int high;			/* fdtable: the high duplicate, or -1 */
	int target;			/* fdtable: the high number asked for */
	uint64_t nofile;		/* fdtable: RLIMIT_NOFILE */
	uint64_t nr_open;		/* fdtable: fs.nr_open */
};

struct stress_vmalloc_path {
	stress_args_t *args;
	size_t n;			/* kinds that run */
	size_t n_info;			/* kinds wanted */
	stress_vmalloc_kind_t kind[STRESS_VMALLOC_KINDS_MAX];
	stress_vmalloc_kind_info_t info[STRESS_VMALLOC_KINDS_MAX];
};

/* a proof: the callers' areas before the probe, or VmallocUsed */
typedef struct {
	stress_vmallocinfo_area_t *before;
	size_t nb;
	int err;			/* -errno reading vmallocinfo */
	bool used_ok;			/* err, and VmallocUsed read */
	uint64_t used_kb;
} stress_vmalloc_proof_t;

typedef struct {
	int err;			/* -errno: only used_* are valid */
	size_t fresh;			/* new areas of the callers */
	size_t count;			/* of those, of the commonest size */
	uint64_t size;			/* that size, guard page included */
	unsigned long int pages;
	bool vmalloc;
	bool vmap;
	char caller[64];
	bool used_ok;			/* err: VmallocUsed read both times */
	int64_t used_pages;		/* err: VmallocUsed growth, pages */
} stress_vmalloc_result_t;

/*
 *  stress_vmalloc_stopped()
 *	whether the run is ending (-t, a stop signal, the parent's death):
 *	a batch then stops at its next item with EINTR, so that a worker
 *	ends within one item of its time whatever the batch
 */
static inline bool stress_vmalloc_stopped(int *err)
{
	if (LIKELY(stress_continue_flag()))
		return false;
	*err = EINTR;
	return true;
}

/* core-vmalloc.c */

/*
 *  stress_vmalloc_note()
 *	one informational line (pr_inf) from the first instance only
 */
extern void FORMAT(printf, 2, 3) stress_vmalloc_note(stress_args_t *args,
	const char *fmt, ...);

/*
 *  stress_vmalloc_round_page()
 *	bytes rounded up to whole pages
 */
extern uint64_t stress_vmalloc_round_page(const uint64_t bytes);

/*
 *  stress_vmalloc_size_str()
 *	bytes as "16K", "2M", "1G" when exact, else decimal; returns buf
 */
extern char *stress_vmalloc_size_str(const uint64_t bytes, char *buf,
	const size_t len);

/*
 *  stress_vmalloc_read_u64()
 *	the first number of a /proc file; *val untouched when unreadable
 */
extern void stress_vmalloc_read_u64(const char *path, uint64_t *val);

/*
 *  stress_vmalloc_path_setup_kinds()
 *	set a path named name up from kinds[] (NULL-terminated at
 *	STRESS_VMALLOC_KINDS_MAX): each kind prepared, clamped, proved and
 *	reported as stress_vmalloc_path_setup() does for a row of the path
 *	table; io_uring selects kinds by their io_uring bit (0: all), and
 *	the path is batched, verified and torn down by the path functions
 *	of core-vmalloc.h. Returns as stress_vmalloc_path_setup().
 */
extern int stress_vmalloc_path_setup_kinds(stress_args_t *args, const char *name,
	const stress_vmalloc_ops_t * const *kinds, const size_t bytes,
	const size_t batch, const int io_uring, stress_vmalloc_path_t **path,
	char *why, const size_t why_len);

/*
 *  stress_vmalloc_path_add()
 *	add a path of kinds of the caller's own as the next row of the path
 *	table (core-vmalloc.h), in this process and in those it forks after:
 *	name and natural_bytes as stress_vmalloc_path_info() gives them,
 *	kinds[] NULL-terminated at STRESS_VMALLOC_KINDS_MAX. name and kinds
 *	are kept, not copied: they must live as long as the process. The
 *	vmalloc-order stressor then takes the row's name as a method, one
 *	past the built-in ones, and shm-pcp as a mode whose companions churn
 *	it; vmalloc-order's "all" runs the built-in rows only. Not
 *	thread-safe: add before any worker starts. Returns the row's index,
 *	-EEXIST when a row has that name, -ENOSPC when all
 *	STRESS_VMALLOC_PATHS_MAX rows are used.
 */
extern int stress_vmalloc_path_add(const char *name, const size_t natural_bytes,
	const stress_vmalloc_ops_t * const *kinds);

/* core-vmalloc-proof.c */

/*
 *  stress_vmalloc_page_order()
 *	log2 of pages when it is a power of two, else -1
 */
extern int stress_vmalloc_page_order(const unsigned long int pages);

/*
 *  stress_vmalloc_proof_begin()
 *	snapshot the areas of callers (NULL-terminated function names) in
 *	/proc/vmallocinfo; when it is unreadable (p->err: -EACCES without
 *	uid 0), VmallocUsed of /proc/meminfo instead. Never fails.
 */
extern void stress_vmalloc_proof_begin(stress_vmalloc_proof_t *p,
	const char * const *callers);

/*
 *  stress_vmalloc_proof_end()
 *	the callers' areas new since stress_vmalloc_proof_begin(), and the
 *	commonest size among them, in *r (r->err: -errno reading
 *	vmallocinfo; then r->used_pages is VmallocUsed's growth); frees
 *	the snapshot
 */
extern void stress_vmalloc_proof_end(stress_vmalloc_proof_t *p,
	const char * const *callers, stress_vmalloc_result_t *r);

/* core-vmalloc-limits.c: each returns items, why[] names the limit */

/*
 *  stress_vmalloc_half_tasks()
 *	half the tasks threads-max and pid_max leave (shared limits);
 *	UINT64_MAX when they are unreadable
 */
extern uint64_t stress_vmalloc_half_tasks(stress_vmalloc_kind_t *k, char *why,
	const size_t len);

/*
 *  stress_vmalloc_half_fds()
 *	half the descriptors RLIMIT_NOFILE leaves free
 */
extern uint64_t stress_vmalloc_half_fds(stress_vmalloc_kind_t *k, char *why,
	const size_t len);

/*
 *  stress_vmalloc_pty_headroom()
 *	the lower of half the ptys kernel.pty.max less kernel.pty.reserve
 *	leaves and half the free descriptors
 */
extern uint64_t stress_vmalloc_pty_headroom(stress_vmalloc_kind_t *k, char *why,
	const size_t len);

/*
 *  stress_vmalloc_memory_room()
 *	items a batch may hold within the instance's memory share
 *	(stress_vmalloc_memory_share(), ops->held per item), at least 1;
 *	UINT64_MAX when unbounded
 */
extern uint64_t stress_vmalloc_memory_room(stress_vmalloc_kind_t *k, char *why,
	const size_t len);

/*
 *  stress_vmalloc_ipc_lock()
 *	whether io_uring leaves pinned pages unaccounted (CAP_IPC_LOCK in
 *	the initial user namespace)
 */
extern bool stress_vmalloc_ipc_lock(void);

/*
 *  stress_vmalloc_memlock()
 *	bytes io_uring may pin (RLIMIT_MEMLOCK, or unbounded with
 *	CAP_IPC_LOCK), the limit in words in buf
 */
extern uint64_t stress_vmalloc_memlock(char *buf, const size_t len);

/* the kinds: core-vmalloc-tasks.c */
extern const stress_vmalloc_ops_t stress_vmalloc_stack_ops;
extern const stress_vmalloc_ops_t stress_vmalloc_ldt_ops;
extern const stress_vmalloc_ops_t stress_vmalloc_fdtable_ops;

/* the kinds: core-vmalloc-fds.c */
extern const stress_vmalloc_ops_t stress_vmalloc_rings_ops;
extern const stress_vmalloc_ops_t stress_vmalloc_buffers_ops;
extern const stress_vmalloc_ops_t stress_vmalloc_bpf_ops;
extern const stress_vmalloc_ops_t stress_vmalloc_pty_ops;

#endif
