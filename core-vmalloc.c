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
#include "core-memory.h"
#include "core-signal.h"
#include "core-vmalloc.h"

#include <stdarg.h>

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

/* the built-in paths, in the order of the vmalloc-order methods */
static const stress_vmalloc_path_info_t stress_vmalloc_paths[STRESS_VMALLOC_PATHS_NUM] = {
	{ "stack",	16384 },
	{ "io-uring",	8192 },
	{ "bpf",	4096 },
	{ "ldt",	8192 },
	{ "pty",	12288 },
	{ "fdtable",	262144 },
};

/* the paths stress_vmalloc_path_add() added after them */
static stress_vmalloc_path_info_t stress_vmalloc_paths_added[STRESS_VMALLOC_PATHS_MAX -
	STRESS_VMALLOC_PATHS_NUM];
static size_t stress_vmalloc_paths_added_num;

/*
 *  stress_vmalloc_path_info()
 *	row idx of the path table: a built-in path, then an added one
 */
const stress_vmalloc_path_info_t *stress_vmalloc_path_info(const size_t idx)
{
	if (idx < STRESS_VMALLOC_PATHS_NUM)
		return &stress_vmalloc_paths[idx];
	if (idx - STRESS_VMALLOC_PATHS_NUM < stress_vmalloc_paths_added_num)
		return &stress_vmalloc_paths_added[idx - STRESS_VMALLOC_PATHS_NUM];
	return NULL;
}

#if defined(STRESS_VMALLOC_SUPPORTED)

#include "core-vmalloc-kind.h"

#define STRESS_VMALLOC_PROBE_MAX	(64)	/* items a proof holds */
#define STRESS_VMALLOC_PROBE_CACHE_MAX	(256)	/* past a per-CPU cache */
#define STRESS_VMALLOC_PROBES		(3)	/* looks before "no area" */
#define STRESS_VMALLOC_RETRIES		(50)	/* of a batch that made none */
#define STRESS_VMALLOC_RETRY_US		(1000)

/*
 *  stress_vmalloc_note()
 *	one informational line, from the first instance only
 */
void FORMAT(printf, 2, 3) stress_vmalloc_note(stress_args_t *args, const char *fmt, ...)
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
 *  stress_vmalloc_round_page()
 *	bytes rounded up to whole pages
 */
uint64_t stress_vmalloc_round_page(const uint64_t bytes)
{
	const uint64_t page = (uint64_t)stress_memory_page_size_get();

	return (bytes + page - 1) / page * page;
}

/*
 *  stress_vmalloc_size_str()
 *	bytes as "16K", "2M", "1G" when exact, else decimal
 */
char *stress_vmalloc_size_str(const uint64_t bytes, char *buf, const size_t len)
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
void stress_vmalloc_read_u64(const char *path, uint64_t *val)
{
	FILE *fp = fopen(path, "r");
	uint64_t v;

	if (!fp)
		return;
	if (fscanf(fp, "%" SCNu64, &v) == 1)
		*val = v;
	(void)fclose(fp);
}

/* the kinds of each built-in path, in the order of stress_vmalloc_paths */
static const stress_vmalloc_ops_t * const stress_vmalloc_kinds[STRESS_VMALLOC_PATHS_NUM][STRESS_VMALLOC_KINDS_MAX] = {
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
	if (k->ops->free)
		k->ops->free(k);
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
int stress_vmalloc_path_setup_kinds(stress_args_t *args, const char *name,
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

/* the kinds of each added path, in the order of stress_vmalloc_paths_added */
static const stress_vmalloc_ops_t * const *stress_vmalloc_kinds_added[STRESS_VMALLOC_PATHS_MAX -
	STRESS_VMALLOC_PATHS_NUM];

/*
 *  stress_vmalloc_path_add()
 *	add a path of the caller's kinds as the next row of the path table
 */
int stress_vmalloc_path_add(const char *name, const size_t natural_bytes,
	const stress_vmalloc_ops_t * const *kinds)
{
	const size_t n = stress_vmalloc_paths_added_num;
	const stress_vmalloc_path_info_t *info;
	size_t idx;

	for (idx = 0; (info = stress_vmalloc_path_info(idx)) != NULL; idx++) {
		if (!strcmp(info->name, name))
			return -EEXIST;
	}
	if (n >= SIZEOF_ARRAY(stress_vmalloc_paths_added))
		return -ENOSPC;
	stress_vmalloc_paths_added[n].name = name;
	stress_vmalloc_paths_added[n].natural_bytes = natural_bytes;
	stress_vmalloc_kinds_added[n] = kinds;
	stress_vmalloc_paths_added_num = n + 1;
	return (int)idx;
}

/*
 *  stress_vmalloc_path_setup()
 *	set every kind of path idx of the path table up
 */
int stress_vmalloc_path_setup(stress_args_t *args, const size_t idx,
	const size_t bytes, const size_t batch, const int io_uring,
	stress_vmalloc_path_t **path, char *why, const size_t why_len)
{
	const stress_vmalloc_path_info_t *info = stress_vmalloc_path_info(idx);
	const stress_vmalloc_ops_t * const *kinds;

	*path = NULL;
	if (!info) {
		(void)snprintf(why, why_len, "no vmalloc path %zu", idx);
		return -EINVAL;
	}
	kinds = (idx < STRESS_VMALLOC_PATHS_NUM) ? stress_vmalloc_kinds[idx] :
		stress_vmalloc_kinds_added[idx - STRESS_VMALLOC_PATHS_NUM];
	return stress_vmalloc_path_setup_kinds(args, info->name, kinds, bytes,
		batch, io_uring, path, why, why_len);
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
