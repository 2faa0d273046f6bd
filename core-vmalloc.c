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
#include "stress-ng.h"
#include "core-builtin.h"
#include "core-capabilities.h"
#include "core-memory.h"
#include "core-signal.h"
#include "core-vmalloc.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/resource.h>

/*
 *  Each path is one or two kinds of kernel objects that each hold an
 *  allocation in vmalloc space ("items": a parked thread, a registered
 *  ring, a filtered socket, a forked child, an open pty). One bogo-op of
 *  a kind makes its batch of items so that all are alive at once, then
 *  releases them all. Every item is owned by the kernel (a descriptor, a
 *  child, a thread, a registration), so nothing outlives the process.
 *
 *  Every kind sets up in the same sequence: prepare (map the bytes asked
 *  for to what one item holds), clamp the batch to the headroom its limit
 *  leaves, make room for the items, prove (hold a probe of items and look
 *  for new areas of the kind's kernel callers in /proc/vmallocinfo;
 *  VmallocUsed of /proc/meminfo where vmallocinfo is unreadable, or the
 *  kernel's rule where even that cannot tell), estimate, report.
 */

/*
 *  stress_vmalloc_exit_status()
 *	how a path's errno ends a stressor
 */
int stress_vmalloc_exit_status(const int err)
{
	switch (err) {
	case ENOSYS:
	case EPERM:
	case EOPNOTSUPP:
	case EACCES:
		return EXIT_NOT_IMPLEMENTED;
	case ENOMEM:
	case ENOSPC:
	case EAGAIN:
	case EMFILE:
	case ENFILE:
		return EXIT_NO_RESOURCE;
	default:
		break;
	}
	return EXIT_FAILURE;
}

/*
 *  stress_vmalloc_child_stop()
 *	SIGALRM in a process a worker forked: it stops that process only
 */
static void MLOCKED_TEXT stress_vmalloc_child_stop(int signum)
{
	(void)signum;
	g_stress_continue_flag = false;
}

/*
 *  signals whose stress-ng handler, inherited by a worker's child, would
 *  stop every stressor of the run: in the child they take their default
 *  action, so that a crash or a kill ends it, and the worker sees why
 */
static const int stress_vmalloc_child_default_signals[] = {
	SIGILL, SIGQUIT, SIGABRT, SIGFPE, SIGSEGV, SIGBUS, SIGTERM, SIGUSR1,
#if defined(SIGXCPU)
	SIGXCPU,
#endif
#if defined(SIGXFSZ)
	SIGXFSZ,
#endif
#if defined(SIGVTALRM)
	SIGVTALRM,
#endif
#if defined(SIGPWR)
	SIGPWR,
#endif
};

/*
 *  stress_vmalloc_child_init()
 *	in a process a worker forked: SIGALRM only clears this process'
 *	stress_continue_flag(), then the parent's death sends it; crashes
 *	and kill signals take their default action
 */
int stress_vmalloc_child_init(const char *name)
{
	size_t i;

	for (i = 0; i < SIZEOF_ARRAY(stress_vmalloc_child_default_signals); i++)
		(void)stress_signal_default_handler(stress_vmalloc_child_default_signals[i]);
	if (stress_signal_handler(name, SIGALRM, stress_vmalloc_child_stop, NULL) < 0)
		return -1;
	stress_parent_died_alarm();
	return 0;
}

/*
 *  stress_vmalloc_memory_share()
 *	half the free memory, shared by the stressor's instances
 */
uint64_t stress_vmalloc_memory_share(stress_args_t *args)
{
	stress_memory_info_t info;
	uint64_t share;

	if ((stress_memory_info_get(&info) < 0) || (info.freemem == 0))
		return UINT64_MAX;
	share = (uint64_t)info.freemem / 2 / STRESS_MAXIMUM(args->instances, 1);
	return (share > MB) ? share / MB * MB : share;
}

const stress_vmalloc_path_info_t stress_vmalloc_paths[] = {
	{ "stack",	16384 },
	{ "io-uring",	8192 },
	{ "bpf",	4096 },
	{ "ldt",	8192 },
	{ "pty",	12288 },
	{ "fdtable",	262144 },
};

const size_t stress_vmalloc_paths_num = SIZEOF_ARRAY(stress_vmalloc_paths);

#if defined(STRESS_VMALLOC_SUPPORTED)

#if defined(HAVE_LINUX_FUTEX_H)
#include <linux/futex.h>
#endif
#if defined(HAVE_LINUX_FILTER_H)
#include <linux/filter.h>
#endif
#if defined(HAVE_LINUX_IO_URING_H)
#include <linux/io_uring.h>
#endif
#if defined(HAVE_ASM_LDT_H)
#include <asm/ldt.h>
#endif
#if defined(HAVE_LIB_PTHREAD)
#include <pthread.h>
#endif
#include <sched.h>
#include <sys/socket.h>
#include <sys/uio.h>

#define STRESS_VMALLOC_PROBE_MAX	(64)	/* items a proof holds */
#define STRESS_VMALLOC_PROBE_CACHE_MAX	(256)	/* past a per-CPU cache */
#define STRESS_VMALLOC_PROBES		(3)	/* looks before "no area" */
#define STRESS_VMALLOC_RETRIES		(50)	/* of a batch that made none */
#define STRESS_VMALLOC_RETRY_US		(1000)
#define STRESS_VMALLOC_KMALLOC_MAX	(4ULL << 20)	/* KMALLOC_MAX_SIZE */
#define STRESS_VMALLOC_THREAD_SIZE	(16 * KB)	/* x86_64 THREAD_SIZE */
#define STRESS_VMALLOC_FAULT_STEP	(2 * MB)	/* faulted between looks */

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

/* an area of /proc/vmallocinfo */
typedef struct {
	uint64_t start;			/* hashed (or 0) start address */
	uint64_t size;			/* bytes, guard page included */
	unsigned long int pages;	/* pages=, 0 when absent (vmap) */
	bool vmalloc;
	bool vmap;
	char caller[64];
} stress_vmalloc_area_t;

/* a proof: the callers' areas before the probe, or VmallocUsed */
typedef struct {
	stress_vmalloc_area_t *before;
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
 *  stress_vmalloc_note()
 *	one informational line, from the first instance only
 */
static void FORMAT(printf, 2, 3) stress_vmalloc_note(stress_args_t *args, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!stress_instance_zero(args))
		return;
	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pr_inf("%s: %s\n", args->name, buf);
}

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

/*
 *  stress_vmalloc_round_page()
 *	bytes rounded up to whole pages
 */
static uint64_t stress_vmalloc_round_page(const uint64_t bytes)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();

	return (bytes + page - 1) / page * page;
}

/*
 *  stress_vmalloc_size_str()
 *	bytes as "16K", "2M", "1G" when exact, else decimal
 */
static char *stress_vmalloc_size_str(const uint64_t bytes, char *buf, const size_t len)
{
	static const char suffix[] = "GMK";
	int shift = 30;
	size_t i;

	for (i = 0; i < sizeof(suffix) - 1; i++, shift -= 10) {
		const uint64_t unit = 1ULL << shift;

		if ((bytes >= unit) && ((bytes % unit) == 0)) {
			(void)snprintf(buf, len, "%" PRIu64 "%c", bytes / unit, suffix[i]);
			return buf;
		}
	}
	(void)snprintf(buf, len, "%" PRIu64, bytes);
	return buf;
}

/*
 *  stress_vmalloc_read_u64()
 *	the first number of a /proc file, *val untouched when unreadable
 */
static void stress_vmalloc_read_u64(const char *path, uint64_t *val)
{
	FILE *fp = fopen(path, "r");
	uint64_t v;

	if (!fp)
		return;
	if (fscanf(fp, "%" SCNu64, &v) == 1)
		*val = v;
	(void)fclose(fp);
}

/*
 *  stress_vmalloc_page_order()
 *	log2 of pages when it is a power of two, else -1
 */
static int stress_vmalloc_page_order(const unsigned long int pages)
{
	int order = 0;

	if ((pages == 0) || (pages & (pages - 1)))
		return -1;
	while ((1UL << order) < pages)
		order++;
	return order;
}

/*
 *  stress_vmalloc_area_parse()
 *	one vmallocinfo line (mm/vmalloc.c vmalloc_info_show()):
 *	0x<start>-0x<end> <size> [<caller>+0x<off>/0x<len>] [pages=N]
 *	... [vmalloc] [vmap] ...; false when it has no range and size
 */
static bool stress_vmalloc_area_parse(char *line, stress_vmalloc_area_t *a)
{
	uint64_t end;
	char *word, *save = NULL;
	int used = 0;

	(void)shim_memset(a, 0, sizeof(*a));
	if (sscanf(line, "0x%" SCNx64 "-0x%" SCNx64 " %" SCNu64 "%n",
		   &a->start, &end, &a->size, &used) != 3)
		return false;
	for (word = strtok_r(line + used, " \t\n", &save); word;
	     word = strtok_r(NULL, " \t\n", &save)) {
		const char *plus = strstr(word, "+0x");

		if (!strncmp(word, "pages=", 6)) {
			a->pages = strtoul(word + 6, NULL, 10);
		} else if (!strcmp(word, "vmalloc")) {
			a->vmalloc = true;
		} else if (!strcmp(word, "vmap")) {
			a->vmap = true;
		} else if (plus && (plus > word) && !a->caller[0]) {
			size_t n = (size_t)(plus - word);

			if (n >= sizeof(a->caller))
				n = sizeof(a->caller) - 1;
			(void)shim_memcpy(a->caller, word, n);
			a->caller[n] = '\0';
		}
	}
	return true;
}

/*
 *  stress_vmalloc_areas_read()
 *	the areas of /proc/vmallocinfo whose caller is one of callers;
 *	0, or -errno (EACCES: not uid 0, the file is mode 0400)
 */
static int stress_vmalloc_areas_read(const char * const *callers,
	stress_vmalloc_area_t **areas, size_t *n)
{
	stress_vmalloc_area_t *v = NULL, a;
	size_t len = 0, cap = 0;
	char line[512];
	FILE *fp;

	*areas = NULL;
	*n = 0;
	fp = fopen("/proc/vmallocinfo", "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		const char * const *c;

		if (!stress_vmalloc_area_parse(line, &a))
			continue;
		for (c = callers; *c && strcmp(*c, a.caller); c++)
			;
		if (!*c)
			continue;
		if (len == cap) {
			stress_vmalloc_area_t *nv;

			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				(void)fclose(fp);
				return -ENOMEM;
			}
			v = nv;
		}
		v[len++] = a;
	}
	(void)fclose(fp);
	*areas = v;
	*n = len;
	return 0;
}

/*
 *  stress_vmalloc_areas_new()
 *	keep in after only the areas that pair with none of before on
 *	(start, size, caller): with kptr_restrict=1 every start reads 0
 *	and this counts the growth per (size, caller); returns how many
 */
static size_t stress_vmalloc_areas_new(const stress_vmalloc_area_t *before,
	const size_t nb, stress_vmalloc_area_t *after, const size_t na)
{
	bool *paired = calloc(nb ? nb : 1, sizeof(*paired));
	size_t i, j, keep = 0;

	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++) {
			if ((!paired || !paired[j]) &&
			    (after[i].start == before[j].start) &&
			    (after[i].size == before[j].size) &&
			    !strcmp(after[i].caller, before[j].caller))
				break;
		}
		if (j < nb) {
			if (paired)
				paired[j] = true;
			continue;
		}
		after[keep++] = after[i];
	}
	free(paired);
	return keep;
}

/*
 *  stress_vmalloc_used_kb()
 *	VmallocUsed of /proc/meminfo (every vmalloc'ed page: no vmap, no
 *	caller, the whole machine); 0, or -errno
 */
static int stress_vmalloc_used_kb(uint64_t *kb)
{
	char line[128];
	FILE *fp = fopen("/proc/meminfo", "r");
	int ret = -ENOENT;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "VmallocUsed: %" SCNu64 " kB", kb) == 1) {
			ret = 0;
			break;
		}
	}
	(void)fclose(fp);
	return ret;
}

/*
 *  stress_vmalloc_proof_begin()
 *	snapshot the callers' areas; never fails, p->err says why not
 */
static void stress_vmalloc_proof_begin(stress_vmalloc_proof_t *p, const char * const *callers)
{
	(void)shim_memset(p, 0, sizeof(*p));
	p->err = stress_vmalloc_areas_read(callers, &p->before, &p->nb);
	/* kernels 4.4 to 5.2 report VmallocUsed as 0: no measure */
	if (p->err)
		p->used_ok = (stress_vmalloc_used_kb(&p->used_kb) == 0) && p->used_kb;
}

/*
 *  stress_vmalloc_proof_end()
 *	the areas new since the snapshot, their commonest size
 */
static void stress_vmalloc_proof_end(stress_vmalloc_proof_t *p,
	const char * const *callers, stress_vmalloc_result_t *r)
{
	stress_vmalloc_area_t *after = NULL;
	size_t na = 0, i, j;

	(void)shim_memset(r, 0, sizeof(*r));
	r->err = p->err;
	if (r->err && p->used_ok) {
		const int64_t page_kb = (int64_t)(stress_memory_page_size_get() / 1024);
		uint64_t kb = 0;

		r->used_ok = (stress_vmalloc_used_kb(&kb) == 0);
		r->used_pages = ((int64_t)kb - (int64_t)p->used_kb) / page_kb;
	}
	if (!r->err)
		r->err = stress_vmalloc_areas_read(callers, &after, &na);
	if (!r->err) {
		size_t best = 0;

		r->fresh = stress_vmalloc_areas_new(p->before, p->nb, after, na);
		for (i = 0; (i < r->fresh) && (r->count <= r->fresh / 2); i++) {
			size_t c = 0;

			for (j = 0; j < r->fresh; j++)
				c += (after[j].size == after[i].size);
			if (c > r->count) {
				r->count = c;
				best = i;
			}
		}
		if (r->count) {
			r->size = after[best].size;
			r->pages = after[best].pages;
			r->vmalloc = after[best].vmalloc;
			r->vmap = after[best].vmap;
			(void)shim_strscpy(r->caller, after[best].caller, sizeof(r->caller));
		}
	}
	free(after);
	free(p->before);
	p->before = NULL;
	p->nb = 0;
}

/*
 *  stress_vmalloc_half_tasks()
 *	half the tasks threads-max and pid_max leave (shared limits)
 */
static uint64_t stress_vmalloc_half_tasks(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	uint64_t tmax = 0, pmax = 0, total = 0, lim;
	unsigned long int running, tasks;
	double l1, l5, l15;
	FILE *fp;

	(void)k;
	stress_vmalloc_read_u64("/proc/sys/kernel/threads-max", &tmax);
	stress_vmalloc_read_u64("/proc/sys/kernel/pid_max", &pmax);
	fp = fopen("/proc/loadavg", "r");
	if (fp) {
		if (fscanf(fp, "%lf %lf %lf %lu/%lu", &l1, &l5, &l15, &running, &tasks) == 5)
			total = tasks;
		(void)fclose(fp);
	}
	if (!tmax || !pmax || !total) {
		(void)snprintf(why, len, "task limits unreadable");
		return UINT64_MAX;
	}
	(void)snprintf(why, len, "half the task headroom (threads-max %" PRIu64
		", pid_max %" PRIu64 ")", tmax, pmax);
	lim = STRESS_MINIMUM(tmax, pmax);
	return lim > total ? (lim - total) / 2 : 0;
}

/*
 *  stress_vmalloc_half_fds()
 *	half the descriptors RLIMIT_NOFILE leaves free
 */
static uint64_t stress_vmalloc_half_fds(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	struct rlimit rlim;
	uint64_t open_fds = 0;
	struct dirent *d;
	DIR *dir;

	(void)k;
	if (getrlimit(RLIMIT_NOFILE, &rlim) < 0)
		rlim.rlim_cur = 1024;
	(void)snprintf(why, len, "half the free descriptors under RLIMIT_NOFILE %" PRIu64,
		(uint64_t)rlim.rlim_cur);
	if (rlim.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX / 2;
	dir = opendir("/proc/self/fd");
	if (dir) {
		while ((d = readdir(dir)) != NULL)
			open_fds += (d->d_name[0] != '.');
		(void)closedir(dir);
	}
	return (uint64_t)rlim.rlim_cur > open_fds ? ((uint64_t)rlim.rlim_cur - open_fds) / 2 : 0;
}

/*
 *  Descriptors as items (pty: /dev/ptmx opens; bpf: sockets holding a
 *  filter): close(2) frees what they hold, and so does the process' end.
 */
static const int stress_vmalloc_fds_resource[] = {
	EMFILE, ENFILE, ENOSPC, ENOMEM, EAGAIN, EIO, 0
};

static int stress_vmalloc_fds_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	free(k->fds);
	k->cap = cap;
	k->fds = calloc((size_t)cap, sizeof(*k->fds));
	return k->fds ? 0 : -ENOMEM;
}

static uint64_t stress_vmalloc_fds_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	for (i = 0; (i < n) && (i < k->cap) && !stress_vmalloc_stopped(err); i++) {
		const int fd = k->ops->open_one(k);

		if (fd < 0) {
			*err = -fd;
			break;
		}
		k->fds[i] = fd;
	}
	return i;
}

static void stress_vmalloc_fds_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		(void)close(k->fds[i]);
}

/*
 *  Forked children parked on a pipe as items, for allocations per
 *  process (the mm's LDT, the file table): each waits until release
 *  closes the write end, then exits and is reaped. The pipe's write end
 *  dies with the worker whatever kills it, and the parent death signal
 *  is set too, so that no child outlives it.
 */
static const int stress_vmalloc_fork_resource[] = { EAGAIN, ENOMEM, 0 };

static int stress_vmalloc_children_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	free(k->pids);
	k->gate[0] = -1;
	k->gate[1] = -1;
	k->cap = cap;
	k->pids = calloc((size_t)cap, sizeof(*k->pids));
	return k->pids ? 0 : -ENOMEM;
}

static void NORETURN stress_vmalloc_child_parked(const char *name, const int fd, const pid_t parent)
{
	char ch;

	(void)stress_vmalloc_child_init(name);
	while ((getppid() == parent) && (read(fd, &ch, 1) < 0) && (errno == EINTR))
		;
	_exit(0);
}

static uint64_t stress_vmalloc_children_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const pid_t parent = getpid();
	uint64_t i;

	*err = 0;
	if (pipe2(k->gate, O_CLOEXEC) < 0) {
		*err = errno;
		k->gate[0] = -1;
		k->gate[1] = -1;
		return 0;
	}
	for (i = 0; (i < n) && (i < k->cap) && !stress_vmalloc_stopped(err); i++) {
		const pid_t pid = fork();

		if (pid < 0) {
			*err = errno;
			break;
		}
		if (pid == 0) {
			(void)close(k->gate[1]);
			stress_vmalloc_child_parked(k->args->name, k->gate[0], parent);
		}
		k->pids[i] = pid;
	}
	return i;
}

static void stress_vmalloc_children_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	if (k->gate[1] >= 0)
		(void)close(k->gate[1]);
	for (i = 0; i < n; i++)
		(void)shim_waitpid(k->pids[i], NULL, 0);
	if (k->gate[0] >= 0)
		(void)close(k->gate[0]);
	k->gate[0] = -1;
	k->gate[1] = -1;
}

/*
 *  stack: kernel thread stacks. kernel/fork.c under CONFIG_VMAP_STACK:
 *  alloc_thread_stack_node() takes a freed stack from a per-CPU cache
 *  of NR_CACHED_STACKS (2), else __vmalloc_node()s THREAD_SIZE (16K,
 *  order 2 on x86_64); vmallocinfo "20480 kernel_clone+0x.../0x...
 *  pages=4 vmalloc". Items: threads parked on a futex. On x86_64 they
 *  are raw clone(2) threads on preallocated stacks without TLS of their
 *  own: they only wait on the futex by an inline system call (no errno)
 *  and are joined through CLONE_CHILD_CLEARTID, so the kernel does a
 *  pthread's work without glibc's per-thread set-up, which kept the
 *  user-space share of this path above 5%. All signals are blocked in
 *  them, so the stressor's SIGALRM lands on its own thread; the worker
 *  takes its signals every 16 clones, and stops there when told to.
 */
static const char * const stress_vmalloc_stack_callers[] = {
	"kernel_clone", "copy_process", "dup_task_struct", "_do_fork",
	"alloc_thread_stack_node", NULL
};

static const int stress_vmalloc_stack_resource[] = { EAGAIN, ENOMEM, 0 };

#if defined(__x86_64__) &&		\
    defined(HAVE_CLONE) &&		\
    defined(__NR_futex) &&		\
    defined(FUTEX_WAIT_PRIVATE) &&	\
    defined(FUTEX_WAKE_PRIVATE) &&	\
    defined(CLONE_CHILD_CLEARTID)
#define STRESS_VMALLOC_RAW_THREADS
#define STRESS_VMALLOC_RAW_STACK	(16 * KB)
#define STRESS_VMALLOC_RAW_STOP_EVERY	(16)	/* clones between looks */

static int stress_vmalloc_thread_parked(void *arg)
{
	int *futex = (int *)arg;

	while (!__atomic_load_n(futex, __ATOMIC_ACQUIRE)) {
		long int ret;
		register long int r10 __asm__("r10") = 0;

		__asm__ __volatile__("syscall"
			: "=a"(ret)
			: "0"((long int)__NR_futex), "D"(futex),
			  "S"((long int)FUTEX_WAIT_PRIVATE), "d"(0L), "r"(r10)
			: "rcx", "r11", "memory");
		(void)ret;
	}
	return 0;	/* clone()'s wrapper then calls exit directly */
}

static void stress_vmalloc_stack_free(stress_vmalloc_kind_t *k)
{
	if (k->stacks)
		(void)munmap((void *)k->stacks, (size_t)k->cap * STRESS_VMALLOC_RAW_STACK);
	free(k->ctid);
	k->stacks = NULL;
	k->ctid = NULL;
}

static int stress_vmalloc_stack_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	void *p;

	stress_vmalloc_stack_free(k);
	k->cap = cap;
	k->ctid = calloc((size_t)cap, sizeof(*k->ctid));
	p = mmap(NULL, (size_t)cap * STRESS_VMALLOC_RAW_STACK, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	k->stacks = (p == MAP_FAILED) ? NULL : (char *)p;
	return (k->ctid && k->stacks) ? 0 : -ENOMEM;
}

static uint64_t stress_vmalloc_stack_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
			  CLONE_CHILD_CLEARTID;
	sigset_t all, old;
	uint64_t i;

	*err = 0;
	__atomic_store_n(&k->futex, 0, __ATOMIC_RELEASE);
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_SETMASK, &all, &old);
	for (i = 0; (i < n) && (i < k->cap); i++) {
		char *top = k->stacks + (i + 1) * STRESS_VMALLOC_RAW_STACK;

		if ((i % STRESS_VMALLOC_RAW_STOP_EVERY) == 0) {
			/* a stop signal held back meanwhile lands here */
			(void)sigprocmask(SIG_SETMASK, &old, NULL);
			if (stress_vmalloc_stopped(err))
				return i;
			(void)sigprocmask(SIG_SETMASK, &all, NULL);
		}
		if (clone(stress_vmalloc_thread_parked, top, flags, &k->futex,
			  &k->ctid[i], NULL, &k->ctid[i]) < 0) {
			*err = errno;
			break;
		}
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return i;
}

static void stress_vmalloc_stack_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	__atomic_store_n(&k->futex, 1, __ATOMIC_RELEASE);
	(void)syscall(__NR_futex, &k->futex, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	for (i = 0; i < n; i++) {
		pid_t tid;

		/* the kernel clears ctid and wakes it (shared) at exit */
		while ((tid = __atomic_load_n(&k->ctid[i], __ATOMIC_ACQUIRE)) != 0)
			(void)shim_futex_wait(&k->ctid[i], tid, NULL);
	}
}

#elif defined(HAVE_LIB_PTHREAD)

static void *stress_vmalloc_thread_parked(void *arg)
{
	int *futex = (int *)arg;

	while (!__atomic_load_n(futex, __ATOMIC_ACQUIRE))
		(void)shim_futex_wait(futex, 0, NULL);
	return NULL;
}

static void stress_vmalloc_stack_free(stress_vmalloc_kind_t *k)
{
	free(k->tids);
	k->tids = NULL;
}

static int stress_vmalloc_stack_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	stress_vmalloc_stack_free(k);
	k->cap = cap;
	k->tids = calloc((size_t)cap, sizeof(*k->tids));
	return k->tids ? 0 : -ENOMEM;
}

static uint64_t stress_vmalloc_stack_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	pthread_attr_t attr;
	uint64_t i;

	*err = 0;
	__atomic_store_n(&k->futex, 0, __ATOMIC_RELEASE);
	if (pthread_attr_init(&attr)) {
		*err = ENOMEM;
		return 0;
	}
	/* small user stacks: only the kernel stack is under test */
	(void)pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
	for (i = 0; (i < n) && (i < k->cap) && !stress_vmalloc_stopped(err); i++) {
		*err = pthread_create(&k->tids[i], &attr, stress_vmalloc_thread_parked, &k->futex);
		if (*err)
			break;
	}
	(void)pthread_attr_destroy(&attr);
	return i;
}

static void stress_vmalloc_stack_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	__atomic_store_n(&k->futex, 1, __ATOMIC_RELEASE);
	(void)shim_futex_wake(&k->futex, INT_MAX);
	for (i = 0; i < n; i++)
		(void)pthread_join(k->tids[i], NULL);
}
#endif

#if defined(STRESS_VMALLOC_RAW_THREADS) ||	\
    defined(HAVE_LIB_PTHREAD)
static int stress_vmalloc_stack_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)why;
	(void)len;
	return 0;	/* THREAD_SIZE, whatever the bytes asked: said */
}
#else
static int stress_vmalloc_stack_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without clone(2) or POSIX threads");
	return -ENOSYS;
}
#endif

/*
 *  io-uring: two kinds. rings (vmap): provided-buffer rings in the
 *  stressor's own memory (IORING_REGISTER_PBUF_RING without
 *  IOU_PBUF_RING_MMAP): io_uring/memmap.c io_create_region() pins the
 *  pages and vmap()s them unless they are one folio, "io_create_region
 *  ... vmap" of entries x 16 bytes + guard page; 512..32768 entries, the
 *  power of two nearest bytes / 16, in anonymous memory faulted in with
 *  MADV_NOHUGEPAGE (never one folio). buffers (vmalloc): a registered
 *  buffer, whose table of one 16-byte bio_vec per page (io_uring/rsrc.c
 *  io_alloc_imu()) is kvmalloc'ed: vmalloc above KMALLOC_MAX_SIZE (4M,
 *  buffers above 1G) or when kmalloc fails; one registration per
 *  bogo-op, of a buffer sized for a table of bytes within what
 *  RLIMIT_MEMLOCK leaves (io_uring accounts pinned pages against it
 *  without CAP_IPC_LOCK). Raw system calls, as stress-io-uring.c.
 */
static const char * const stress_vmalloc_ring_callers[] = {
	"io_create_region", "io_region_init_ptr", "io_pin_pbuf_ring", NULL
};

static const char * const stress_vmalloc_buffer_callers[] = {
	"io_alloc_imu", "io_sqe_buffer_register", "io_sqe_buffers_register",
	"io_pin_pages", NULL
};

static const int stress_vmalloc_io_uring_resource[] = { ENOMEM, 0 };

#if defined(HAVE_LINUX_IO_URING_H) &&	\
    defined(__NR_io_uring_setup) &&	\
    defined(__NR_io_uring_register)
#define STRESS_VMALLOC_IO_URING

#define STRESS_VMALLOC_PBUF_ENTRY	(16)
#define STRESS_VMALLOC_PBUF_MIN		(512)	/* 256 fit one page */
#define STRESS_VMALLOC_PBUF_MAX		(32768)
#define STRESS_VMALLOC_BVEC		(16)
#define STRESS_VMALLOC_BUFFER_MAX	(1ULL << 30)	/* SZ_1G */

/* register opcodes and struct io_uring_buf_reg: kernel ABI since 5.19 */
#define STRESS_VMALLOC_REGISTER_BUFFERS		(0)
#define STRESS_VMALLOC_UNREGISTER_BUFFERS	(1)
#define STRESS_VMALLOC_REGISTER_PBUF_RING	(22)
#define STRESS_VMALLOC_UNREGISTER_PBUF_RING	(23)

typedef struct {
	uint64_t ring_addr;
	uint32_t ring_entries;
	uint16_t bgid;
	uint16_t flags;
	uint64_t resv[3];
} stress_vmalloc_buf_reg_t;

static int stress_vmalloc_io_uring_register(const int fd, const unsigned int opcode,
	const void *arg, const unsigned int nr)
{
	return (int)syscall(__NR_io_uring_register, fd, opcode, arg, nr);
}

/*
 *  stress_vmalloc_ipc_lock()
 *	whether io_uring leaves pinned pages unaccounted: CAP_IPC_LOCK in
 *	the initial user namespace (io_uring asks capable(); a container's
 *	root lifts nothing, and only the initial namespace maps all uids)
 */
static bool stress_vmalloc_ipc_lock(void)
{
	unsigned long int inside = 1, outside = 1, count = 0;
	FILE *fp = fopen("/proc/self/uid_map", "r");

	if (!fp)
		return false;
	if (fscanf(fp, "%lu %lu %lu", &inside, &outside, &count) != 3)
		count = 0;
	(void)fclose(fp);
	if ((inside != 0) || (outside != 0) || (count != 4294967295UL))
		return false;
	return stress_capabilities_check(SHIM_CAP_IPC_LOCK);
}

/*
 *  stress_vmalloc_memlock()
 *	bytes io_uring may pin, and the limit in words
 */
static uint64_t stress_vmalloc_memlock(char *buf, const size_t len)
{
	struct rlimit rlim;
	char have[32];

	if (stress_vmalloc_ipc_lock()) {
		(void)snprintf(buf, len, "no RLIMIT_MEMLOCK bound (CAP_IPC_LOCK: not accounted)");
		return UINT64_MAX / 4;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rlim) < 0)
		rlim.rlim_cur = 64 * KB;
	if (rlim.rlim_cur == RLIM_INFINITY) {
		(void)snprintf(buf, len, "RLIMIT_MEMLOCK unlimited");
		return UINT64_MAX / 4;
	}
	(void)snprintf(buf, len, "RLIMIT_MEMLOCK %s",
		stress_vmalloc_size_str((uint64_t)rlim.rlim_cur, have, sizeof(have)));
	return (uint64_t)rlim.rlim_cur;
}

/*
 *  anonymous, never huge, faulted in: many small folios; faulting a 1G
 *  buffer in takes a while, so the run's end stops it (-EINTR)
 */
static int stress_vmalloc_small_pages(stress_vmalloc_kind_t *k, const uint64_t bytes)
{
	uint64_t off;
	void *p;

	if (k->mem)
		(void)munmap((void *)k->mem, k->mem_bytes);
	k->mem = NULL;
	p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
#if defined(MADV_NOHUGEPAGE)
	(void)shim_madvise(p, (size_t)bytes, MADV_NOHUGEPAGE);
#endif
	k->mem = (char *)p;
	k->mem_bytes = (size_t)bytes;
	for (off = 0; off < bytes; off += STRESS_VMALLOC_FAULT_STEP) {
		if (!stress_continue_flag())
			return -EINTR;
		(void)shim_memset(k->mem + off, 0,
			(size_t)STRESS_MINIMUM(bytes - off, STRESS_VMALLOC_FAULT_STEP));
	}
	return 0;
}

static int stress_vmalloc_io_uring_open(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	struct io_uring_params p;

	(void)shim_memset(&p, 0, sizeof(p));
	k->ring_fd = (int)syscall(__NR_io_uring_setup, 8, &p);
	if (k->ring_fd < 0) {
		const int err = errno;

		(void)snprintf(why, len, "io_uring_setup errno=%d (%s) "
			"(kernel.io_uring_disabled, seccomp or no CONFIG_IO_URING)",
			err, strerror(err));
		return -err;
	}
	return 0;
}

static uint64_t stress_vmalloc_io_uring_headroom(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	char lock[80];
	const uint64_t lim = stress_vmalloc_memlock(lock, sizeof(lock)) / 2 / k->item_bytes;

	(void)snprintf(why, len, "half of what %s allows", lock);
	return lim ? lim : 1;
}

static int stress_vmalloc_rings_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t want = k->bytes / STRESS_VMALLOC_PBUF_ENTRY;

	k->entries = STRESS_VMALLOC_PBUF_MIN;
	while ((k->entries < STRESS_VMALLOC_PBUF_MAX) && (k->entries * 3 / 2 < want))
		k->entries <<= 1;
	k->item_bytes = k->entries * STRESS_VMALLOC_PBUF_ENTRY;
	return stress_vmalloc_io_uring_open(k, why, len);
}

static int stress_vmalloc_rings_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	k->cap = cap;
	return stress_vmalloc_small_pages(k, cap * k->item_bytes);
}

static uint64_t stress_vmalloc_rings_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	for (i = 0; (i < n) && ((i + 1) * k->item_bytes <= k->mem_bytes) &&
		    !stress_vmalloc_stopped(err); i++) {
		stress_vmalloc_buf_reg_t reg;

		(void)shim_memset(&reg, 0, sizeof(reg));
		reg.ring_addr = (uint64_t)(uintptr_t)(k->mem + i * k->item_bytes);
		reg.ring_entries = (uint32_t)k->entries;
		reg.bgid = (uint16_t)i;
		if (stress_vmalloc_io_uring_register(k->ring_fd,
				STRESS_VMALLOC_REGISTER_PBUF_RING, &reg, 1) < 0) {
			*err = errno;
			break;
		}
	}
	return i;
}

static void stress_vmalloc_rings_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		stress_vmalloc_buf_reg_t reg;

		(void)shim_memset(&reg, 0, sizeof(reg));
		reg.bgid = (uint16_t)i;
		(void)stress_vmalloc_io_uring_register(k->ring_fd,
			STRESS_VMALLOC_UNREGISTER_PBUF_RING, &reg, 1);
	}
}

static void stress_vmalloc_rings_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "provided-buffer rings of %" PRIu64
		" entries in user memory", k->entries);
}

/* io_uring/memmap.c: pinned user memory of many folios is vmap()ed */
static bool stress_vmalloc_rings_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "vmap: a ring in user memory of many folios, io_uring/memmap.c");
	return true;
}

static int stress_vmalloc_buffers_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	char lock[80];
	const uint64_t memlock = stress_vmalloc_memlock(lock, sizeof(lock));
	const uint64_t share = stress_vmalloc_memory_share(k->args);

	k->item_bytes = k->bytes / STRESS_VMALLOC_BVEC * page;
	if (k->item_bytes > STRESS_VMALLOC_BUFFER_MAX)
		k->item_bytes = STRESS_VMALLOC_BUFFER_MAX;
	if (k->item_bytes > memlock / 2)
		k->item_bytes = memlock / 2 / page * page;
	if (k->item_bytes > share) {
		char want[32], got[32];

		(void)stress_vmalloc_size_str(k->item_bytes, want, sizeof(want));
		k->item_bytes = share / page * page;
		stress_vmalloc_note(k->args, "io-uring buffers: the registered buffer clamped "
			"from %s to %s: half the free memory shared by %" PRIu32 " instances",
			want, stress_vmalloc_size_str(k->item_bytes, got, sizeof(got)),
			STRESS_MAXIMUM(k->args->instances, 1));
	}
	if (k->item_bytes < page) {
		(void)snprintf(why, len, "%s leaves no room for a registered buffer", lock);
		return -ENOMEM;
	}
	return stress_vmalloc_io_uring_open(k, why, len);
}

/* one buffer, registered cap times at most: each gets its own table */
static int stress_vmalloc_buffers_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	uint64_t i;
	int ret;

	free(k->iov);
	k->cap = cap;
	k->iov = calloc((size_t)cap, sizeof(*k->iov));
	if (!k->iov)
		return -ENOMEM;
	ret = stress_vmalloc_small_pages(k, k->item_bytes);
	if (ret)
		return ret;
	for (i = 0; i < cap; i++) {
		k->iov[i].iov_base = (void *)k->mem;
		k->iov[i].iov_len = (size_t)k->item_bytes;
	}
	return 0;
}

/* all n at once: IORING_REGISTER_BUFFERS registers a table or nothing */
static uint64_t stress_vmalloc_buffers_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const uint64_t m = STRESS_MINIMUM(n, k->cap);

	*err = 0;
	if (stress_vmalloc_io_uring_register(k->ring_fd, STRESS_VMALLOC_REGISTER_BUFFERS,
			k->iov, (unsigned int)m) < 0) {
		*err = errno;
		return 0;
	}
	return m;
}

static void stress_vmalloc_buffers_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	if (n)
		(void)stress_vmalloc_io_uring_register(k->ring_fd,
			STRESS_VMALLOC_UNREGISTER_BUFFERS, NULL, 0);
}

static void stress_vmalloc_buffers_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	char got[32];

	(void)snprintf(buf, len, "page tables of a %s registered buffer",
		stress_vmalloc_size_str(k->item_bytes, got, sizeof(got)));
}

static void stress_vmalloc_buffers_why_not(stress_vmalloc_kind_t *k, const int err,
	char *buf, const size_t len)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	char lock[80], need[32], got[32];

	(void)stress_vmalloc_memlock(lock, sizeof(lock));
	(void)stress_vmalloc_size_str(k->item_bytes, got, sizeof(got));
	(void)stress_vmalloc_size_str(STRESS_VMALLOC_KMALLOC_MAX / STRESS_VMALLOC_BVEC * page,
		need, sizeof(need));
	if (err)
		(void)snprintf(buf, len, "a %s buffer, %s", got, lock);
	else if (stress_vmalloc_ipc_lock())
		(void)snprintf(buf, len, "the page tables of a %s registered buffer came "
			"from kmalloc; a table above 4 MiB (KMALLOC_MAX_SIZE) needs a %s "
			"buffer, i.e. bytes of 4M or more (%s)", got, need, lock);
	else
		(void)snprintf(buf, len, "the page tables of a %s registered buffer came "
			"from kmalloc; a table above 4 MiB (KMALLOC_MAX_SIZE) needs a buffer "
			"above %s, i.e. RLIMIT_MEMLOCK above that or CAP_IPC_LOCK (have %s)",
			got, need, lock);
}

/* io_uring/rsrc.c: the table is kvmalloc'ed, vmalloc above KMALLOC_MAX_SIZE */
static bool stress_vmalloc_buffers_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t table = k->item_bytes / (uint64_t)stress_memory_page_size_get() * STRESS_VMALLOC_BVEC;
	char t[32];

	(void)snprintf(why, len, "a buffer table of %s is %s KMALLOC_MAX_SIZE, io_uring kvmalloc",
		stress_vmalloc_size_str(table, t, sizeof(t)),
		table >= STRESS_VMALLOC_KMALLOC_MAX ? "at or above" : "within");
	return table >= STRESS_VMALLOC_KMALLOC_MAX;
}
#else
static int stress_vmalloc_rings_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without io_uring system calls (linux/io_uring.h)");
	return -ENOSYS;
}
#define stress_vmalloc_buffers_prepare	stress_vmalloc_rings_prepare
#endif

/*
 *  bpf: classic BPF socket filters. SO_ATTACH_FILTER needs no
 *  privilege: net/core/filter.c __get_filter() vmallocs the program
 *  (bpf_prog_alloc(), page-rounded), bpf_migrate_filter() converts it to
 *  eBPF and bpf_prog_realloc()s it when that needs more pages; closing
 *  the socket frees it. An ALU instruction converts to one eBPF
 *  instruction, BPF_LD|BPF_W|BPF_ABS to about 13 (area ~= 130 + 8 x
 *  (13 x ld_abs + alu) bytes, measured on 6.18): the program is built
 *  to land in the middle of the page count nearest bytes, down to what
 *  net.core.optmem_max lets a socket charge (__sk_filter_charge()).
 */
static const char * const stress_vmalloc_bpf_callers[] = {
	"bpf_prog_alloc_no_stats", "bpf_prog_realloc", NULL
};

#if defined(HAVE_LINUX_FILTER_H) &&	\
    defined(SO_ATTACH_FILTER)
#define STRESS_VMALLOC_BPF
#define STRESS_VMALLOC_EBPF_HEADER	(130)
#define STRESS_VMALLOC_EBPF_PER_LD_ABS	(13)
#define STRESS_VMALLOC_CBPF_MAX		(4096)	/* BPF_MAXINSNS */

static int stress_vmalloc_bpf_build(stress_vmalloc_kind_t *k, const uint64_t pages, const uint64_t page)
{
	const uint64_t target = (pages - 1) * page + page / 2;
	const uint64_t ebpf = (target - STRESS_VMALLOC_EBPF_HEADER) / 8;
	uint64_t n_ld = 0, n_alu = ebpf, n, i;

	if (ebpf > (uint64_t)STRESS_VMALLOC_EBPF_PER_LD_ABS * (STRESS_VMALLOC_CBPF_MAX - 1))
		return -E2BIG;
	if (ebpf > STRESS_VMALLOC_CBPF_MAX - 1) {
		/* each LD_ABS in place of an ALU adds PER_LD_ABS - 1 */
		n_ld = (ebpf - (STRESS_VMALLOC_CBPF_MAX - 1) + STRESS_VMALLOC_EBPF_PER_LD_ABS - 2) /
		       (STRESS_VMALLOC_EBPF_PER_LD_ABS - 1);
		n_alu = ebpf - n_ld * STRESS_VMALLOC_EBPF_PER_LD_ABS;
	}
	n = n_ld + n_alu + 1;
	if (n > STRESS_VMALLOC_CBPF_MAX)
		return -E2BIG;
	free(k->filter);
	k->filter = calloc((size_t)n, sizeof(*k->filter));
	if (!k->filter)
		return -ENOMEM;
	for (i = 0; i < n - 1; i++) {
		const struct sock_filter ld = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0);
		const struct sock_filter alu = BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1);

		k->filter[i] = (i < n_ld) ? ld : alu;
	}
	k->filter[n - 1] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	k->filter_len = (unsigned short)n;
	return 0;
}

static int stress_vmalloc_bpf_open(stress_vmalloc_kind_t *k)
{
	struct sock_fprog prog;
	int fd, err;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	prog.len = k->filter_len;
	prog.filter = k->filter;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0) {
		err = errno;
		(void)close(fd);
		return -err;
	}
	return fd;
}

static int stress_vmalloc_bpf_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	uint64_t pages;
	int err = 0;

	stress_vmalloc_read_u64("/proc/sys/net/core/optmem_max", &k->optmem);
	for (pages = (k->bytes + page - 1) / page; pages >= 1; pages--) {
		err = stress_vmalloc_bpf_build(k, pages, page);
		if (err == -E2BIG)
			continue;
		if (err)
			break;
		err = stress_vmalloc_bpf_open(k);
		if (err >= 0) {
			(void)close(err);
			err = 0;
			k->item_bytes = pages * page;
			break;
		}
		if (err != -ENOMEM)
			break;
	}
	if (err)
		(void)snprintf(why, len, "cannot attach a classic BPF socket filter: "
			"errno=%d (%s); net.core.optmem_max %" PRIu64,
			-err, strerror(-err), k->optmem);
	return err;
}

static void stress_vmalloc_bpf_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "classic BPF filters of %u instructions "
		"(net.core.optmem_max %" PRIu64 ")", k->filter_len, k->optmem);
}
#else
static int stress_vmalloc_bpf_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without classic BPF socket filters (linux/filter.h)");
	return -ENOSYS;
}
#endif

/*
 *  ldt: x86 local descriptor tables. arch/x86/kernel/ldt.c
 *  alloc_ldt_struct() __vmalloc()s a table over a page (more than 512
 *  8-byte entries; at most LDT_ENTRIES 8192, 16 pages). The table
 *  belongs to the mm: ldt_dup_context() copies it, with a new vmalloc,
 *  into every child forked, and the child's exit frees it. Items:
 *  forked children, each holding a copy of the stressor's table of
 *  bytes / 8 entries (513..8192).
 */
static const char * const stress_vmalloc_ldt_callers[] = { "alloc_ldt_struct", NULL };

#if defined(HAVE_ASM_LDT_H) &&	\
    defined(HAVE_MODIFY_LDT) &&	\
    defined(__NR_modify_ldt) &&	\
    defined(LDT_ENTRIES) &&	\
    defined(LDT_ENTRY_SIZE)
#define STRESS_VMALLOC_LDT
#define STRESS_VMALLOC_LDT_MIN	(513)	/* one page holds 512 */

static int stress_vmalloc_ldt_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	struct user_desc d;

	k->entries = k->bytes / LDT_ENTRY_SIZE;
	if (k->entries < STRESS_VMALLOC_LDT_MIN)
		k->entries = STRESS_VMALLOC_LDT_MIN;
	if (k->entries > LDT_ENTRIES)
		k->entries = LDT_ENTRIES;
	/* writing entry N-1 gives this process a table of N entries */
	(void)shim_memset(&d, 0, sizeof(d));
	d.entry_number = (unsigned int)(k->entries - 1);
	d.seg_32bit = 1;
	d.useable = 1;
	if (shim_modify_ldt(1, &d, sizeof(d)) != 0) {
		const int err = errno;

		(void)snprintf(why, len, "modify_ldt errno=%d (%s): no "
			"CONFIG_MODIFY_LDT_SYSCALL, or forbidden by seccomp",
			err, strerror(err));
		return -err;
	}
	return 0;
}

static void stress_vmalloc_ldt_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "LDT copies of %" PRIu64 " entries (one per forked "
		"child, which also gets a thread stack)", k->entries);
}

/* ldt.c: a table over one page is vmalloc'ed */
static bool stress_vmalloc_ldt_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const bool over = k->entries * LDT_ENTRY_SIZE > (uint64_t)stress_memory_page_size_get();

	(void)snprintf(why, len, "%s: an LDT of %" PRIu64 " entries is %s a page, x86 ldt.c",
		over ? "vmalloc" : "kmalloc", k->entries, over ? "over" : "within");
	return over;
}
#else
static int stress_vmalloc_ldt_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "modify_ldt(2) is x86 only");
	return -EOPNOTSUPP;
}
#endif

/*
 *  pty: drivers/tty/pty.c, drivers/tty/n_tty.c. Opening /dev/ptmx sets
 *  up the N_TTY line discipline on master and slave; each n_tty_open()
 *  vzalloc()s its struct n_tty_data (3 pages on x86_64), vfree()d on
 *  close: two "16384 n_tty_open ... pages=3 vmalloc" areas per pty.
 *  The size is fixed; the bytes asked for are only compared.
 */
static const char * const stress_vmalloc_pty_callers[] = { "n_tty_open", NULL };

#define STRESS_VMALLOC_N_TTY_DATA	(12 * KB)	/* 3 pages on x86_64 */

#if defined(HAVE_POSIX_OPENPT)
static int stress_vmalloc_pty_open(stress_vmalloc_kind_t *k)
{
	const int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	(void)k;
	return fd < 0 ? -errno : fd;
}

static int stress_vmalloc_pty_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)why;
	(void)len;
	return 0;
}
#else
static int stress_vmalloc_pty_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without posix_openpt(3)");
	return -ENOSYS;
}
#endif

/*
 *  the lower of half the ptys an unprivileged open may still take
 *  (kernel.pty.max less kernel.pty.reserve and kernel.pty.nr, as
 *  fs/devpts/inode.c devpts_new_index()) and half the free descriptors,
 *  so that the proof can still open /proc/vmallocinfo
 */
static uint64_t stress_vmalloc_pty_headroom(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	uint64_t max = 4096, reserve = 1024, nr = 0, ptys, fds;

	stress_vmalloc_read_u64("/proc/sys/kernel/pty/max", &max);
	stress_vmalloc_read_u64("/proc/sys/kernel/pty/reserve", &reserve);
	stress_vmalloc_read_u64("/proc/sys/kernel/pty/nr", &nr);
	ptys = (max <= reserve + nr) ? 0 : (max - reserve - nr) / 2;
	fds = stress_vmalloc_half_fds(k, why, len);
	if (fds < ptys)
		return fds;
	(void)snprintf(why, len, "half of what kernel.pty.max %" PRIu64
		" less kernel.pty.reserve %" PRIu64 " leaves", max, reserve);
	return ptys;
}

/*
 *  fdtable: fs/file.c. A descriptor above the table's size makes
 *  expand_files() -> alloc_fdtable() kvmalloc an array of 8 bytes per
 *  slot, and fork() copies the table at that size (dup_fd()). kvmalloc
 *  tries kmalloc first: vmalloc only when that fails or above
 *  KMALLOC_MAX_SIZE (more than 524288 slots). The high descriptor is a
 *  duplicate of the path's own /dev/null descriptor by F_DUPFD (the
 *  lowest free number at or above the one asked for, never replacing
 *  an open one) and lives only while a batch does, so that the forks of
 *  other paths copy a small table again. Items: forked children.
 */
static const char * const stress_vmalloc_fdtable_callers[] = {
	"alloc_fdtable", "dup_fd", "expand_fdtable", NULL
};

#define STRESS_VMALLOC_FD_SLOT	(8)

static int stress_vmalloc_fdtable_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	uint64_t slots = k->bytes / STRESS_VMALLOC_FD_SLOT;
	struct rlimit rlim;

	k->own = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (k->own < 0) {
		const int err = errno;

		(void)snprintf(why, len, "open /dev/null: errno=%d (%s)", err, strerror(err));
		return -err;
	}
	if (getrlimit(RLIMIT_NOFILE, &rlim) < 0)
		rlim.rlim_cur = 1024;
	k->nofile = (uint64_t)rlim.rlim_cur;
	stress_vmalloc_read_u64("/proc/sys/fs/nr_open", &k->nr_open);
	if (slots > k->nofile)
		slots = k->nofile;
	k->target = (slots > 4) ? (int)slots - 1 : 3;
	return 0;
}

static uint64_t stress_vmalloc_fdtable_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	k->high = fcntl(k->own, F_DUPFD_CLOEXEC, k->target);
	if (k->high < 0) {
		*err = errno;
		return 0;
	}
	return stress_vmalloc_children_acquire(k, n, err);
}

static void stress_vmalloc_fdtable_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	stress_vmalloc_children_release(k, n);
	if (k->high >= 0)
		(void)close(k->high);
	k->high = -1;
}

static void stress_vmalloc_fdtable_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "fd tables up to fd %d (one per forked child, "
		"which also gets a thread stack)", k->target);
}

static void stress_vmalloc_fdtable_why_not(stress_vmalloc_kind_t *k, const int err,
	char *buf, const size_t len)
{
	char table[32], need[32];

	if (err) {
		(void)snprintf(buf, len, "the table grows first by F_DUPFD to fd %d", k->target);
		return;
	}
	(void)stress_vmalloc_size_str(((uint64_t)k->target + 1) * STRESS_VMALLOC_FD_SLOT,
		table, sizeof(table));
	(void)stress_vmalloc_size_str(STRESS_VMALLOC_KMALLOC_MAX / STRESS_VMALLOC_FD_SLOT,
		need, sizeof(need));
	(void)snprintf(buf, len, "fd tables of about %s (highest fd %d, RLIMIT_NOFILE %"
		PRIu64 ") came from kmalloc, not vmalloc: kvmalloc falls back only when "
		"kmalloc fails or above 4 MiB (KMALLOC_MAX_SIZE), i.e. RLIMIT_NOFILE and "
		"fs.nr_open (%" PRIu64 ") above %s descriptors",
		table, k->target, k->nofile, k->nr_open, need);
}

/* fs/file.c alloc_fdtable(): kvmalloc, vmalloc above KMALLOC_MAX_SIZE */
static bool stress_vmalloc_fdtable_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t bytes = ((uint64_t)k->target + 1) * STRESS_VMALLOC_FD_SLOT;
	char table[32];

	(void)snprintf(why, len, "a fd table of %s is %s KMALLOC_MAX_SIZE, fs/file.c kvmalloc",
		stress_vmalloc_size_str(bytes, table, sizeof(table)),
		bytes > STRESS_VMALLOC_KMALLOC_MAX ? "above" : "within");
	return bytes > STRESS_VMALLOC_KMALLOC_MAX;
}

/*
 *  What one item holds, for the memory share of a batch: a kernel
 *  stack and the raw thread's user stack; a ring or buffer pinned; a
 *  filter's pages; two N_TTY areas; a child's LDT or fd table and its
 *  kernel stack.
 */
static uint64_t stress_vmalloc_stack_held(const stress_vmalloc_kind_t *k)
{
	(void)k;
	return 2 * STRESS_VMALLOC_THREAD_SIZE;
}

static uint64_t stress_vmalloc_item_held(const stress_vmalloc_kind_t *k)
{
	return stress_vmalloc_round_page(k->item_bytes);
}

static uint64_t stress_vmalloc_pty_held(const stress_vmalloc_kind_t *k)
{
	(void)k;
	return 2 * stress_vmalloc_round_page(STRESS_VMALLOC_N_TTY_DATA);
}

static uint64_t stress_vmalloc_ldt_held(const stress_vmalloc_kind_t *k)
{
	return stress_vmalloc_round_page(k->entries * 8) + STRESS_VMALLOC_THREAD_SIZE;
}

static uint64_t stress_vmalloc_fdtable_held(const stress_vmalloc_kind_t *k)
{
	return stress_vmalloc_round_page(((uint64_t)k->target + 1) * STRESS_VMALLOC_FD_SLOT) +
		STRESS_VMALLOC_THREAD_SIZE;
}

static const stress_vmalloc_ops_t stress_vmalloc_stack_ops = {
	.name = "stack",
	.unit = "threads",
#if defined(STRESS_VMALLOC_RAW_THREADS)
	.verb = "clone",
#else
	.verb = "pthread_create",
#endif
	.first = "create a thread",
	.callers = stress_vmalloc_stack_callers,
	.resource = stress_vmalloc_stack_resource,
	.what = "kernel thread stacks",
	.cannot = "limits: RLIMIT_NPROC, threads-max, pid_max, pids cgroup, seccomp",
	.no_area = "this kernel does not allocate stacks in vmalloc space (CONFIG_VMAP_STACK=n?)",
	.cache = "NR_CACHED_STACKS 2, kernel/fork.c",
	.per_item = 1,
	.cached_per_cpu = 2,
	/* RLIMIT_NPROC, a pids cgroup: shared, full for a moment */
	.retry_errno = EAGAIN,
	.prepare = stress_vmalloc_stack_prepare,
	.held = stress_vmalloc_stack_held,
#if defined(STRESS_VMALLOC_RAW_THREADS) ||	\
    defined(HAVE_LIB_PTHREAD)
	.headroom = stress_vmalloc_half_tasks,
	.room = stress_vmalloc_stack_room,
	.acquire = stress_vmalloc_stack_acquire,
	.release = stress_vmalloc_stack_release,
#endif
};

static const stress_vmalloc_ops_t stress_vmalloc_rings_ops = {
	.name = "io-uring rings",
	.unit = "rings",
	.verb = "IORING_REGISTER_PBUF_RING",
	.first = "register a provided-buffer ring",
	.callers = stress_vmalloc_ring_callers,
	.resource = stress_vmalloc_io_uring_resource,
	.per_item = 1,
	.retry_errno = ENOMEM,	/* the shared RLIMIT_MEMLOCK, for a moment */
	.io_uring = STRESS_VMALLOC_IO_URING_RINGS,
	.prepare = stress_vmalloc_rings_prepare,
	.held = stress_vmalloc_item_held,
#if defined(STRESS_VMALLOC_IO_URING)
	.headroom = stress_vmalloc_io_uring_headroom,
	.room = stress_vmalloc_rings_room,
	.acquire = stress_vmalloc_rings_acquire,
	.release = stress_vmalloc_rings_release,
	.describe = stress_vmalloc_rings_describe,
	.by_rule = stress_vmalloc_rings_by_rule,
#endif
};

static const stress_vmalloc_ops_t stress_vmalloc_buffers_ops = {
	.name = "io-uring buffers",
	.unit = "registered buffers",
	.verb = "IORING_REGISTER_BUFFERS",
	.first = "register a buffer",
	.callers = stress_vmalloc_buffer_callers,
	.resource = stress_vmalloc_io_uring_resource,
	.per_item = 1,
	.retry_errno = ENOMEM,
	.io_uring = STRESS_VMALLOC_IO_URING_BUFFERS,
	/* its table is the allocation; pinning up to 1G per item makes
	 * a batch of many take seconds */
	.one_item = true,
	.prepare = stress_vmalloc_buffers_prepare,
	.held = stress_vmalloc_item_held,
#if defined(STRESS_VMALLOC_IO_URING)
	.headroom = stress_vmalloc_io_uring_headroom,
	.room = stress_vmalloc_buffers_room,
	.acquire = stress_vmalloc_buffers_acquire,
	.release = stress_vmalloc_buffers_release,
	.describe = stress_vmalloc_buffers_describe,
	.why_not = stress_vmalloc_buffers_why_not,
	.by_rule = stress_vmalloc_buffers_by_rule,
#endif
};

static const stress_vmalloc_ops_t stress_vmalloc_bpf_ops = {
	.name = "bpf",
	.unit = "filtered sockets",
	.verb = "socket+SO_ATTACH_FILTER",
	.first = "open a filtered socket",
	.callers = stress_vmalloc_bpf_callers,
	.resource = stress_vmalloc_fds_resource,
	.per_item = 1,
	.prepare = stress_vmalloc_bpf_prepare,
	.held = stress_vmalloc_item_held,
#if defined(STRESS_VMALLOC_BPF)
	.headroom = stress_vmalloc_half_fds,
	.room = stress_vmalloc_fds_room,
	.acquire = stress_vmalloc_fds_acquire,
	.release = stress_vmalloc_fds_release,
	.open_one = stress_vmalloc_bpf_open,
	.describe = stress_vmalloc_bpf_describe,
#endif
};

static const stress_vmalloc_ops_t stress_vmalloc_ldt_ops = {
	.name = "ldt",
	.unit = "forked children",
	.verb = "fork",
	.first = "fork",
	.callers = stress_vmalloc_ldt_callers,
	.resource = stress_vmalloc_fork_resource,
	.per_item = 1,
	.prepare = stress_vmalloc_ldt_prepare,
	.held = stress_vmalloc_ldt_held,
#if defined(STRESS_VMALLOC_LDT)
	.headroom = stress_vmalloc_half_tasks,
	.room = stress_vmalloc_children_room,
	.acquire = stress_vmalloc_children_acquire,
	.release = stress_vmalloc_children_release,
	.describe = stress_vmalloc_ldt_describe,
	.by_rule = stress_vmalloc_ldt_by_rule,
#endif
};

static const stress_vmalloc_ops_t stress_vmalloc_pty_ops = {
	.name = "pty",
	.unit = "ptys",
	.verb = "posix_openpt",
	.first = "open /dev/ptmx",
	.callers = stress_vmalloc_pty_callers,
	.resource = stress_vmalloc_fds_resource,
	.what = "N_TTY line disciplines (2 per pty)",
	.cannot = "no devpts, a sandbox, or no pty left",
	.no_area = "this kernel does not vmalloc the N_TTY line discipline data",
	.per_item = 2,		/* master and slave n_tty_data */
	.prepare = stress_vmalloc_pty_prepare,
	.held = stress_vmalloc_pty_held,
	.headroom = stress_vmalloc_pty_headroom,
	.room = stress_vmalloc_fds_room,
	.acquire = stress_vmalloc_fds_acquire,
	.release = stress_vmalloc_fds_release,
#if defined(HAVE_POSIX_OPENPT)
	.open_one = stress_vmalloc_pty_open,
#endif
};

static const stress_vmalloc_ops_t stress_vmalloc_fdtable_ops = {
	.name = "fdtable",
	.unit = "forked children",
	.verb = "fork",
	.first = "fork",
	.callers = stress_vmalloc_fdtable_callers,
	.resource = stress_vmalloc_fork_resource,
	.per_item = 1,
	.prepare = stress_vmalloc_fdtable_prepare,
	.held = stress_vmalloc_fdtable_held,
	.headroom = stress_vmalloc_half_tasks,
	.room = stress_vmalloc_children_room,
	.acquire = stress_vmalloc_fdtable_acquire,
	.release = stress_vmalloc_fdtable_release,
	.describe = stress_vmalloc_fdtable_describe,
	.why_not = stress_vmalloc_fdtable_why_not,
	.by_rule = stress_vmalloc_fdtable_by_rule,
};

/* the kinds of each path, in the order of stress_vmalloc_paths */
static const stress_vmalloc_ops_t * const stress_vmalloc_kinds[][STRESS_VMALLOC_KINDS_MAX] = {
	{ &stress_vmalloc_stack_ops, NULL },
	{ &stress_vmalloc_rings_ops, &stress_vmalloc_buffers_ops },
	{ &stress_vmalloc_bpf_ops, NULL },
	{ &stress_vmalloc_ldt_ops, NULL },
	{ &stress_vmalloc_pty_ops, NULL },
	{ &stress_vmalloc_fdtable_ops, NULL },
};

/*
 *  stress_vmalloc_kind_free()
 *	free all a kind holds; its items are released already
 */
static void stress_vmalloc_kind_free(stress_vmalloc_kind_t *k)
{
#if defined(STRESS_VMALLOC_RAW_THREADS) ||	\
    defined(HAVE_LIB_PTHREAD)
	if (k->ops == &stress_vmalloc_stack_ops)
		stress_vmalloc_stack_free(k);
#endif
	if (k->ring_fd >= 0)
		(void)close(k->ring_fd);
	if (k->mem)
		(void)munmap((void *)k->mem, k->mem_bytes);
	if (k->high >= 0)
		(void)close(k->high);
	if (k->own >= 0)
		(void)close(k->own);
	free(k->iov);
	free(k->fds);
	free(k->pids);
	free(k->filter);
	k->ring_fd = -1;
	k->own = -1;
	k->high = -1;
	k->mem = NULL;
	k->iov = NULL;
	k->fds = NULL;
	k->pids = NULL;
	k->filter = NULL;
}

static bool stress_vmalloc_resource(const stress_vmalloc_ops_t *ops, const int err)
{
	const int *e;

	for (e = ops->resource; e && *e; e++) {
		if (*e == err)
			return true;
	}
	return false;
}

/*
 *  stress_vmalloc_acquire()
 *	make n items; when none was made with retry_errno (a limit other
 *	processes hold for a moment) retry every 1 ms for up to 50 ms
 */
static uint64_t stress_vmalloc_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const stress_vmalloc_ops_t *ops = k->ops;
	uint64_t made = ops->acquire(k, n, err);
	int i;

	for (i = 0; (i < STRESS_VMALLOC_RETRIES) && (made == 0) && *err &&
		    (*err == ops->retry_errno); i++) {
		(void)shim_usleep(STRESS_VMALLOC_RETRY_US);
		made = ops->acquire(k, n, err);
	}
	if ((made < n) && !*err)
		*err = EIO;	/* stopped without saying why */
	return made;
}

/*
 *  stress_vmalloc_kind_batch()
 *	one bogo-op of a kind: make the batch, release it. The kernel
 *	allowing fewer (a resource errno after one item at least) counts
 *	what was made and is said once: limits shared with other processes
 *	come back, so the batch is not lowered. EINTR (a signal stopped
 *	the kernel) is no failure either; -EINTR when the run ended
 *	mid-batch: what was made is freed and counted, the bogo-op is not
 *	whole.
 */
static int stress_vmalloc_kind_batch(stress_vmalloc_kind_t *k, uint64_t *allocs,
	char *what, const size_t len)
{
	const stress_vmalloc_ops_t *ops = k->ops;
	int err;
	const uint64_t made = stress_vmalloc_acquire(k, k->batch, &err);

	ops->release(k, made);
	*allocs += made * ops->per_item;
	if ((err == EINTR) && !stress_continue_flag())
		return -EINTR;	/* cut short by the run's end: freed, counted */
	if (!err || (err == EINTR))
		return 0;
	if ((made > 0) && stress_vmalloc_resource(ops, err)) {
		if (!k->cut_said)
			stress_vmalloc_note(k->args, "%s: a bogo-op made %" PRIu64 " of %" PRIu64
				" %s: %s errno=%d (%s); each bogo-op asks %" PRIu64 " again",
				ops->name, made, k->batch, ops->unit, ops->verb, err,
				strerror(err), k->batch);
		k->cut_said = true;
		return 0;
	}
	(void)snprintf(what, len, "%s: %s %" PRIu64 " of %" PRIu64 " %s",
		ops->name, ops->verb, made + 1, k->batch, ops->unit);
	return -err;
}

/* ": <the kind's own words>", or "" */
static void stress_vmalloc_own_words(stress_vmalloc_kind_t *k, const int err, char *buf, const size_t len)
{
	const char *fixed = err ? k->ops->cannot : k->ops->no_area;
	char words[400] = "";

	if (k->ops->why_not)
		k->ops->why_not(k, err, words, sizeof(words));
	else if (fixed)
		(void)shim_strscpy(words, fixed, sizeof(words));
	(void)snprintf(buf, len, "%s%s", words[0] ? ": " : "", words);
}

/*
 *  whether a proof could judge the kind (new areas of its callers, or
 *  with vmallocinfo unreadable the growth of VmallocUsed, which cannot
 *  tell a kind that runs by rule), and whether the kind showed: an area,
 *  or a page per allocation past the kernel's per-CPU cache
 */
static bool stress_vmalloc_judged(const stress_vmalloc_kind_t *k, const stress_vmalloc_result_t *r)
{
	return !r->err || (r->used_ok && !k->ops->by_rule);
}

static bool stress_vmalloc_showed(const stress_vmalloc_kind_t *k,
	const stress_vmalloc_result_t *r, const uint64_t made)
{
	const uint64_t need = (made > k->cached) ? (made - k->cached) * k->ops->per_item : 0;

	return !r->err ? (r->count > 0) : (r->used_pages >= (int64_t)need);
}

static void stress_vmalloc_unproven(stress_vmalloc_kind_t *k, const int err, const char *why)
{
	k->info->state = STRESS_VMALLOC_UNPROVEN;
	k->info->err = err;
	(void)shim_strscpy(k->info->reason, why, sizeof(k->info->reason));
}

/*
 *  stress_vmalloc_report()
 *	what the kind achieved, once: from the areas that showed, or
 *	where vmallocinfo is unreadable how it was decided instead
 */
static void stress_vmalloc_report(stress_vmalloc_kind_t *k, const char *what,
	const stress_vmalloc_result_t *r, const uint64_t made, const char *rule)
{
	const stress_vmalloc_ops_t *ops = k->ops;
	const uint64_t page = (uint64_t)stress_memory_page_size_get();
	stress_vmalloc_kind_info_t *info = k->info;
	char why[600], got[32], want[32], order[64];

	if (r->err) {
		const bool used = r->used_ok && !ops->by_rule;

		if (used && stress_vmalloc_showed(k, r, made)) {
			(void)snprintf(why, sizeof(why), "vmalloc by VmallocUsed: %+" PRId64
				" pages while %" PRIu64 " %s were held; callers not seen: "
				"/proc/vmallocinfo errno=%d", r->used_pages, made, ops->unit, -r->err);
		} else if (used) {
			(void)snprintf(why, sizeof(why), "not judged: VmallocUsed %+" PRId64
				" pages while %" PRIu64 " %s were held, fewer than one each (it "
				"counts the whole machine); /proc/vmallocinfo errno=%d",
				r->used_pages, made, ops->unit, -r->err);
		} else if (rule) {
			(void)snprintf(why, sizeof(why), "by rule (%s), not measured: "
				"/proc/vmallocinfo errno=%d", rule, -r->err);
		} else {
			(void)snprintf(why, sizeof(why), "kind not verified: /proc/vmallocinfo "
				"errno=%d (%s)", -r->err, strerror(-r->err));
		}
		stress_vmalloc_unproven(k, -r->err, why);
		stress_vmalloc_note(k->args, "%s: %s: %s", ops->name, what, why);
		return;
	}
	if (!r->count)
		return;
	info->state = STRESS_VMALLOC_PROVEN;
	info->vmap = r->vmap && !r->vmalloc;
	info->order = stress_vmalloc_page_order(r->pages);
	info->area_bytes = (size_t)r->size;
	info->pages = (size_t)r->pages;
	(void)shim_strscpy(info->caller, r->caller, sizeof(info->caller));
	(void)stress_vmalloc_size_str(r->size - page, got, sizeof(got));
	if (!r->pages)
		(void)snprintf(order, sizeof(order), "no pages=");
	else if (info->order >= 0)
		(void)snprintf(order, sizeof(order), "pages=%lu (order %d)", r->pages, info->order);
	else
		(void)snprintf(order, sizeof(order), "pages=%lu", r->pages);
	stress_vmalloc_note(k->args, "%s: %s are %s areas of %" PRIu64 " bytes (%s + guard "
		"page), %s, caller %s; probe: %" PRIu64 " live %s, %zu new areas system-wide",
		ops->name, what, r->vmalloc ? "vmalloc" : (r->vmap ? "vmap" : "other"),
		r->size, got, order, r->caller, made, ops->unit, r->fresh);
	if (k->bytes != r->size - page)
		stress_vmalloc_note(k->args, "%s: %s requested, nearest reachable: %s", ops->name,
			stress_vmalloc_size_str(k->bytes, want, sizeof(want)), got);
}

/*
 *  stress_vmalloc_decided()
 *	how a probe decides the kind: its areas, VmallocUsed's growth, the
 *	kernel's rule, or nothing (within a per-CPU cache, or VmallocUsed
 *	grew less than the probe holds)
 */
static stress_vmalloc_decided_t stress_vmalloc_decided(const stress_vmalloc_kind_t *k,
	const stress_vmalloc_result_t *r, const uint64_t made)
{
	if (!r->err)
		return (r->count || (made > k->cached)) ? STRESS_VMALLOC_BY_AREAS :
			STRESS_VMALLOC_BY_NOTHING;
	if (r->used_ok && !k->ops->by_rule)
		return stress_vmalloc_showed(k, r, made) ? STRESS_VMALLOC_BY_VMALLOCUSED :
			STRESS_VMALLOC_BY_NOTHING;
	return k->ops->by_rule ? STRESS_VMALLOC_BY_RULE : STRESS_VMALLOC_BY_NOTHING;
}

/*
 *  stress_vmalloc_rule_says_no()
 *	whether the kernel's rule for the kind (its by_rule) predicts no
 *	vmalloc area: a probe that found none then agrees with it, and
 *	looking again (others' frees hiding ours on a busy host) would only
 *	cost a root run time that a run without /proc/vmallocinfo, decided
 *	by that rule, does not spend
 */
static bool stress_vmalloc_rule_says_no(stress_vmalloc_kind_t *k)
{
	char rule[300];

	return k->ops->by_rule && !k->ops->by_rule(k, rule, sizeof(rule));
}

/*
 *  stress_vmalloc_prove()
 *	hold a probe of items and compare /proc/vmallocinfo before and
 *	during (up to STRESS_VMALLOC_PROBES looks 100 ms apart while no new
 *	area shows: others free theirs meanwhile on a busy host), clamp to
 *	what the kernel allowed, estimate a batch, report; 0 or -errno
 *	with the skip reason in why
 */
static int stress_vmalloc_prove(stress_vmalloc_kind_t *k, const uint64_t asked,
	char *clamps, const size_t clen, char *why, const size_t len)
{
	const stress_vmalloc_ops_t *ops = k->ops;
	char txt[160], more[420], rule[300] = "";
	stress_vmalloc_result_t r;
	stress_vmalloc_proof_t p;
	bool ruled = false;
	uint64_t made;
	double t, took;
	int err, attempt;

	for (attempt = 1; ; attempt++) {
		stress_vmalloc_proof_begin(&p, ops->callers);
		t = stress_time_now();
		made = stress_vmalloc_acquire(k, k->probe, &err);
		took = stress_time_now() - t;
		stress_vmalloc_proof_end(&p, ops->callers, &r);
		t = stress_time_now();
		ops->release(k, made);
		took += stress_time_now() - t;
		if (!stress_continue_flag()) {
			(void)snprintf(why, len, "%s: the run ended during set-up", ops->name);
			return -EINTR;
		}
		if (!stress_vmalloc_judged(k, &r) || stress_vmalloc_showed(k, &r, made) ||
		    (made <= k->cached) || (attempt == STRESS_VMALLOC_PROBES) ||
		    stress_vmalloc_rule_says_no(k))
			break;
		(void)shim_usleep(100000);
	}
	k->info->decided = stress_vmalloc_decided(k, &r, made);
	if (made == 0) {
		stress_vmalloc_own_words(k, err, more, sizeof(more));
		(void)snprintf(why, len, "%s: cannot %s: %s errno=%d (%s)%s",
			ops->name, ops->first, ops->verb, err, strerror(err), more);
		return -err;
	}
	if (err && (made < k->batch)) {
		if (!stress_vmalloc_resource(ops, err)) {
			(void)snprintf(why, len, "%s: %s errno=%d (%s) after %" PRIu64 " of %"
				PRIu64 " %s", ops->name, ops->verb, err, strerror(err),
				made, k->probe, ops->unit);
			return -err;
		}
		k->batch = made;
		(void)snprintf(clamps + strlen(clamps), clen - strlen(clamps), "%s%s errno=%d (%s)",
			clamps[0] ? "; then " : "", ops->verb, err, strerror(err));
	}
	/* where nothing is measured, the kernel's rule decides, once */
	if (!stress_vmalloc_judged(k, &r) && ops->by_rule) {
		ruled = ops->by_rule(k, rule, sizeof(rule));
		if (!ruled) {
			(void)snprintf(why, len, "%s: left out by rule (%s), as a root run's "
				"proof would: /proc/vmallocinfo errno=%d", ops->name, rule, -r.err);
			return -EOPNOTSUPP;
		}
	}
	if (!r.err && (r.count == 0) && (made > k->cached)) {
		stress_vmalloc_own_words(k, 0, more, sizeof(more));
		(void)snprintf(why, len, "%s: %" PRIu64 " %s added no %s area to "
			"/proc/vmallocinfo%s", ops->name, made, ops->unit, ops->callers[0], more);
		return -EOPNOTSUPP;
	}
	if (clamps[0])
		stress_vmalloc_note(k->args, "%s: batch clamped from %" PRIu64 " to %" PRIu64
			" %s: %s", ops->name, asked, k->batch, ops->unit, clamps);
	if (took / (double)made * (double)k->batch >= 1.0)
		stress_vmalloc_note(k->args, "%s: one batch of %" PRIu64 " will take about "
			"%.1f s (%.2f ms each in the probe): expect few of them; a smaller "
			"batch makes batches shorter", ops->name, k->batch,
			took / (double)made * (double)k->batch, took / (double)made * 1000.0);
	if (ops->describe)
		ops->describe(k, txt, sizeof(txt));
	else
		(void)shim_strscpy(txt, ops->what, sizeof(txt));
	if (stress_vmalloc_judged(k, &r) && !stress_vmalloc_showed(k, &r, made) &&
	    (made <= k->cached)) {
		(void)snprintf(more, sizeof(more), "vmalloc backing not measured: %" PRIu64
			" %s in the probe are within the kernel's per-CPU cache (%s)",
			made, ops->unit, ops->cache);
		stress_vmalloc_unproven(k, 0, more);
		stress_vmalloc_note(k->args, "%s: %s: %s", ops->name, txt, more);
	}
	stress_vmalloc_report(k, txt, &r, made, ruled ? rule : NULL);
	return 0;
}

/*
 *  stress_vmalloc_memory_room()
 *	items a batch may hold within the instance's memory share, at least 1
 */
static uint64_t stress_vmalloc_memory_room(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t share = stress_vmalloc_memory_share(k->args);
	const uint64_t held = k->ops->held ? k->ops->held(k) : 0;
	char each[32], all[32];

	if (!held || (share == UINT64_MAX))
		return UINT64_MAX;
	(void)snprintf(why, len, "half the free memory shared by %" PRIu32 " instances: "
		"%s each, %s an item", STRESS_MAXIMUM(k->args->instances, 1),
		stress_vmalloc_size_str(share, all, sizeof(all)),
		stress_vmalloc_size_str(held, each, sizeof(each)));
	return STRESS_MAXIMUM(share / held, 1);
}

/*
 *  stress_vmalloc_kind_setup()
 *	prepare, clamp to the headroom, make room, prove; 0 or -errno
 *	with the reason in why, nothing left allocated
 */
static int stress_vmalloc_kind_setup(stress_vmalloc_kind_t *k, const size_t batch,
	char *why, const size_t len)
{
	const stress_vmalloc_ops_t *ops = k->ops;
	const uint64_t ncpus = (uint64_t)STRESS_MAXIMUM(stress_cpus_online_get(), 1);
	char txt[400] = "", clamps[400] = "";
	uint64_t room, asked;
	int ret;

	ret = ops->prepare(k, txt, sizeof(txt));
	if (ret) {
		(void)snprintf(why, len, "%s: %s", ops->name, txt);
		return ret;
	}
	k->batch = ops->one_item ? 1 : (batch ? batch : 1);
	asked = k->batch;
	room = ops->headroom(k, txt, sizeof(txt));
	if (room == 0) {
		(void)snprintf(why, len, "%s: no headroom left: %s", ops->name, txt);
		return -EAGAIN;
	}
	if (k->batch > room) {
		k->batch = room;
		(void)shim_strscpy(clamps, txt, sizeof(clamps));
	}
	room = stress_vmalloc_memory_room(k, txt, sizeof(txt));
	if (k->batch > room) {
		k->batch = room;
		(void)shim_strscpy(clamps, txt, sizeof(clamps));
	}
	/* a probe quick whatever the batch, past a per-CPU cache */
	k->probe = STRESS_MINIMUM(k->batch, STRESS_VMALLOC_PROBE_MAX);
	if (ops->cached_per_cpu) {
		const uint64_t want = STRESS_MINIMUM(2 * (ops->cached_per_cpu * ncpus + 4) + 8,
			STRESS_VMALLOC_PROBE_CACHE_MAX);

		k->cached = ops->cached_per_cpu * ncpus + 4;
		if (k->probe < want)
			k->probe = ((k->batch < asked) && (want > k->batch)) ? k->batch : want;
	}
	ret = ops->room(k, STRESS_MAXIMUM(k->probe, k->batch));
	if (ret == -EINTR) {
		(void)snprintf(why, len, "%s: the run ended during set-up", ops->name);
		return -EINTR;
	}
	if (ret) {
		(void)snprintf(why, len, "%s: out of memory for %" PRIu64 " %s",
			ops->name, k->batch, ops->unit);
		return -ENOMEM;
	}
	ret = stress_vmalloc_prove(k, asked, clamps, sizeof(clamps), why, len);
	if (ret)
		return ret;
	if (ops->cached_per_cpu && (k->batch <= ops->cached_per_cpu * ncpus))
		stress_vmalloc_note(k->args, "%s: batch %" PRIu64 " <= %" PRIu32 " x %" PRIu64
			" CPUs: most come from the kernel's per-CPU cache of freed ones "
			"(%s), not from vmalloc", ops->name, k->batch, ops->cached_per_cpu,
			ncpus, ops->cache);
	return 0;
}

/*
 *  stress_vmalloc_kind_verify()
 *	prove a kind again with a probe: 0 proved (or within the per-CPU
 *	cache), 1 not judged here, -EINTR the run ended meanwhile, -errno
 *	failure (-EBADMSG: no area)
 */
static int stress_vmalloc_kind_verify(stress_vmalloc_kind_t *k, char *what, const size_t len)
{
	const stress_vmalloc_ops_t *ops = k->ops;
	stress_vmalloc_result_t r;
	stress_vmalloc_proof_t p;
	uint64_t made;
	int err, attempt;

	for (attempt = 1; ; attempt++) {
		stress_vmalloc_proof_begin(&p, ops->callers);
		made = stress_vmalloc_acquire(k, k->probe, &err);
		stress_vmalloc_proof_end(&p, ops->callers, &r);
		ops->release(k, made);
		if (!stress_continue_flag()) {
			(void)snprintf(what, len, "verify: %s: the run ended during the proof", ops->name);
			return -EINTR;
		}
		if ((made == 0) && err) {
			(void)snprintf(what, len, "verify: %s: %s of the probe", ops->name, ops->verb);
			return -err;
		}
		if (!stress_vmalloc_judged(k, &r)) {
			(void)snprintf(what, len, "%s: /proc/vmallocinfo errno=%d (%s)%s",
				ops->name, -r.err, strerror(-r.err), ops->by_rule ?
				", and VmallocUsed cannot tell this kind's pages (it runs by rule)" : "");
			return 1;
		}
		if (made <= k->cached) {
			(void)snprintf(what, len, "its probe stayed within the kernel's "
				"per-CPU cache: not measured");
			return 0;
		}
		if (stress_vmalloc_showed(k, &r, made)) {
			(void)snprintf(what, len, "%s", r.err ?
				"its vmalloc pages show in /proc/meminfo VmallocUsed again" :
				"its areas show in /proc/vmallocinfo again");
			return 0;
		}
		if (attempt == STRESS_VMALLOC_PROBES)
			break;
		(void)shim_usleep(100000);
	}
	if (r.err) {
		(void)snprintf(what, len, "%s: %" PRIu64 " live %s added %" PRId64 " vmalloc "
			"pages to /proc/meminfo VmallocUsed, fewer than one each (it counts "
			"the whole machine)", ops->name, made, ops->unit, r.used_pages);
		return 1;
	}
	(void)snprintf(what, len, "verify: %s: %" PRIu64 " live %s added no %s area to "
		"/proc/vmallocinfo", ops->name, made, ops->unit, ops->callers[0]);
	return -EBADMSG;
}

/*
 *  stress_vmalloc_path_setup_kinds()
 *	set up a path of kinds[] (the name its notes give it); a kind that
 *	cannot run is left out with a note as long as another one runs
 */
static int stress_vmalloc_path_setup_kinds(stress_args_t *args, const char *name,
	const stress_vmalloc_ops_t * const *kinds, const size_t bytes,
	const size_t batch, const int io_uring, stress_vmalloc_path_t **path,
	char *why, const size_t why_len)
{
	char reason[STRESS_VMALLOC_KINDS_MAX][1024];
	stress_vmalloc_path_t *p;
	size_t i, used = 0;
	int first = 0;

	*path = NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		(void)snprintf(why, why_len, "%s: out of memory", name);
		return -ENOMEM;
	}
	p->args = args;
	for (i = 0; i < STRESS_VMALLOC_KINDS_MAX; i++) {
		const stress_vmalloc_ops_t *ops = kinds[i];
		stress_vmalloc_kind_info_t *info = &p->info[p->n_info];
		stress_vmalloc_kind_t *k = &p->kind[p->n];
		int ret;

		if (!ops || (ops->io_uring && !(ops->io_uring & io_uring)))
			continue;
		(void)shim_strscpy(info->name, ops->name, sizeof(info->name));
		info->order = -1;
		info->requested = bytes;
		(void)shim_memset(k, 0, sizeof(*k));
		k->ops = ops;
		k->args = args;
		k->info = info;
		k->bytes = bytes;
		k->ring_fd = -1;
		k->own = -1;
		k->high = -1;
		k->gate[0] = -1;
		k->gate[1] = -1;
		reason[p->n_info][0] = '\0';
		ret = stress_vmalloc_kind_setup(k, batch, reason[p->n_info], sizeof(reason[0]));
		p->n_info++;
		if (ret == 0) {
			if (info->state == STRESS_VMALLOC_UNUSED)
				info->state = STRESS_VMALLOC_PROVEN;
			p->n++;
			continue;
		}
		stress_vmalloc_kind_free(k);
		if (ret == -EINTR) {
			/* the run ended: nothing to say of the other kinds */
			(void)shim_strscpy(why, reason[p->n_info - 1], why_len);
			stress_vmalloc_path_teardown(p);
			return -EINTR;
		}
		info->state = STRESS_VMALLOC_LEFT_OUT;
		info->err = -ret;
		(void)shim_strscpy(info->reason, reason[p->n_info - 1], sizeof(info->reason));
		if (!first)
			first = ret;
	}
	if (p->n == 0) {
		for (i = 0; (i < p->n_info) && (used < why_len); i++)
			used += (size_t)snprintf(why + used, why_len - used, "%s%s",
				i ? "; " : "", reason[i]);
		free(p);
		return first ? first : -EINVAL;
	}
	for (i = 0; i < p->n_info; i++) {
		if (p->info[i].state == STRESS_VMALLOC_LEFT_OUT)
			stress_vmalloc_note(args, "%s: leaving out %s", name, reason[i]);
	}
	*path = p;
	return 0;
}

/*
 *  stress_vmalloc_path_setup()
 *	set every kind of path stress_vmalloc_paths[idx] up
 */
int stress_vmalloc_path_setup(stress_args_t *args, const size_t idx,
	const size_t bytes, const size_t batch, const int io_uring,
	stress_vmalloc_path_t **path, char *why, const size_t why_len)
{
	*path = NULL;
	if (idx >= SIZEOF_ARRAY(stress_vmalloc_kinds)) {
		(void)snprintf(why, why_len, "no vmalloc path %zu", idx);
		return -EINVAL;
	}
	return stress_vmalloc_path_setup_kinds(args, stress_vmalloc_paths[idx].name,
		stress_vmalloc_kinds[idx], bytes, batch, io_uring, path, why, why_len);
}

/*
 *  stress_vmalloc_path_batch()
 *	one bogo-op: the batch of every kind set up, in table order
 */
int stress_vmalloc_path_batch(stress_vmalloc_path_t *path, uint64_t *allocs,
	char *what, const size_t what_len)
{
	size_t i;

	for (i = 0; i < path->n; i++) {
		int ret;

		if (!stress_continue_flag())
			return -EINTR;
		ret = stress_vmalloc_kind_batch(&path->kind[i], allocs, what, what_len);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 *  stress_vmalloc_path_batch_size()
 *	items per bogo-op of the first kind, after the clamps
 */
size_t stress_vmalloc_path_batch_size(const stress_vmalloc_path_t *path)
{
	return (path && path->n) ? (size_t)path->kind[0].batch : 0;
}

/*
 *  stress_vmalloc_path_verify()
 *	prove every kind again; the first failure ends it
 */
int stress_vmalloc_path_verify(stress_vmalloc_path_t *path, char *what, const size_t what_len)
{
	bool unjudged = false;
	size_t i;

	for (i = 0; i < path->n; i++) {
		char w[512];
		const int ret = stress_vmalloc_kind_verify(&path->kind[i], w, sizeof(w));

		if (ret < 0) {
			(void)shim_strscpy(what, w, what_len);
			return ret;
		}
		if (((ret == 0) && (i == 0)) || ((ret == 1) && !unjudged))
			(void)shim_strscpy(what, w, what_len);
		if (ret == 1)
			unjudged = true;
	}
	return unjudged ? 1 : 0;
}

/*
 *  stress_vmalloc_path_verifiable()
 *	whether a proof can judge every kind that runs
 */
bool stress_vmalloc_path_verifiable(const stress_vmalloc_path_t *path,
	char *why, const size_t why_len)
{
	size_t i;

	for (i = 0; i < path->n; i++) {
		const stress_vmalloc_kind_info_t *info = path->kind[i].info;

		if ((info->decided != STRESS_VMALLOC_BY_AREAS) &&
		    (info->decided != STRESS_VMALLOC_BY_VMALLOCUSED)) {
			(void)snprintf(why, why_len, "%s: %s", info->name, info->reason);
			return false;
		}
	}
	return true;
}

/*
 *  stress_vmalloc_path_kinds()
 *	what each kind wanted achieved
 */
size_t stress_vmalloc_path_kinds(const stress_vmalloc_path_t *path,
	stress_vmalloc_kind_info_t *info, const size_t n)
{
	const size_t m = STRESS_MINIMUM(n, path->n_info);

	(void)shim_memcpy(info, path->info, m * sizeof(*info));
	return m;
}

/*
 *  stress_vmalloc_path_teardown()
 *	free all that setup made
 */
void stress_vmalloc_path_teardown(stress_vmalloc_path_t *path)
{
	size_t i;

	if (!path)
		return;
	for (i = 0; i < path->n; i++)
		stress_vmalloc_kind_free(&path->kind[i]);
	free(path);
}

#endif
