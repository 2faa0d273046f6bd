// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c - perf_event_open(2) tracepoint counters, system-wide.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "sysfacts.h"

#define TRACEFS "/sys/kernel/tracing"
#define DEBUGFS_TRACING "/sys/kernel/debug/tracing"

/* clang-format off */
const struct smm_event_def smm_events[SMM_NR_EVENTS] = {
	[SMM_EV_PAGE_ALLOC] = { "kmem", "mm_page_alloc", "order", false, false },
	[SMM_EV_ZONE_LOCKED] = { "kmem", "mm_page_alloc_zone_locked", "order", true, true },
	[SMM_EV_EXTFRAG] = { "kmem", "mm_page_alloc_extfrag", "alloc_order", false, false },
	[SMM_EV_PCPU_DRAIN] = { "kmem", "mm_page_pcpu_drain", "order", false, false },
	[SMM_EV_TLB_FLUSH] = { "tlb", "tlb_flush", NULL, false, false },
	[SMM_EV_CONTENTION] = { "lock", "contention_begin", NULL, false, false },
};

#define EV(n, e, o, m, r) { n, SMM_EV_##e, o, m, r, 0, false }
#define WAITS(n, side, ns) { n, SMM_EV_CONTENTION, SMM_ANY, SMM_ANY, SMM_ANY, side, ns }
const struct smm_counter_spec smm_counter_specs[] = {
	EV("page_alloc_order0", PAGE_ALLOC, 0, SMM_ANY, SMM_ANY),
	EV("zone_locked_order0", ZONE_LOCKED, 0, SMM_ANY, SMM_ANY),
	EV("zone_locked_order0_unmovable", ZONE_LOCKED, 0, 0, SMM_ANY),
	EV("zone_locked_order0_movable", ZONE_LOCKED, 0, 1, SMM_ANY),
	EV("zone_locked_order0_reclaimable", ZONE_LOCKED, 0, 2, SMM_ANY),
	EV("zone_locked_order0_refill", ZONE_LOCKED, 0, SMM_ANY, 1),
	EV("zone_locked_order0_movable_refill", ZONE_LOCKED, 0, 1, 1),
	EV("zone_locked_order0_unmovable_refill", ZONE_LOCKED, 0, 0, 1),
	EV("extfrag_order0", EXTFRAG, 0, SMM_ANY, SMM_ANY),
	EV("pcpu_drain_order0", PCPU_DRAIN, 0, SMM_ANY, SMM_ANY),
	EV("pcpu_drain_order1", PCPU_DRAIN, 1, SMM_ANY, SMM_ANY),
	EV("pcpu_drain_order2", PCPU_DRAIN, 2, SMM_ANY, SMM_ANY),
	EV("pcpu_drain_order3", PCPU_DRAIN, 3, SMM_ANY, SMM_ANY),
	EV("pcpu_drain_order9", PCPU_DRAIN, 9, SMM_ANY, SMM_ANY),
	EV("page_alloc_order2", PAGE_ALLOC, 2, SMM_ANY, SMM_ANY),
	EV("zone_locked_order2", ZONE_LOCKED, 2, SMM_ANY, SMM_ANY),
	EV("zone_locked_order2_refill", ZONE_LOCKED, 2, SMM_ANY, 1),
	/* No kmem:mm_page_free by order: on kernels with "vmalloc: optimize
	 * vfree with free_pages_bulk()" it fires once per page at order 0
	 * even when the block is freed at order 2 (doc/counters.md). */
	EV("tlb_flush", TLB_FLUSH, SMM_ANY, SMM_ANY, SMM_ANY),
	/* lock:contention_begin/_end on a zone's lock (BPF only) */
	WAITS("zone_lock_waits_alloc", SMM_SIDE_ALLOC, false),
	WAITS("zone_lock_waits_free", SMM_SIDE_FREE, false),
	WAITS("zone_lock_waits_other", SMM_SIDE_OTHER, false),
	WAITS("zone_lock_wait_ns_alloc", SMM_SIDE_ALLOC, true),
	WAITS("zone_lock_wait_ns_free", SMM_SIDE_FREE, true),
	WAITS("zone_lock_wait_ns_other", SMM_SIDE_OTHER, true),
	WAITS("spinlock_waits", SMM_NR_SIDES, false),
};
/* clang-format on */
const size_t smm_nr_counter_specs =
	sizeof(smm_counter_specs) / sizeof(smm_counter_specs[0]);

const char *const smm_engine_names[SMM_NR_ENGINES] = { "auto", "bpf", "perf" };

int smm_engine_of(const char *name)
{
	for (int e = 0; e < SMM_NR_ENGINES; e++)
		if (strcmp(name, smm_engine_names[e]) == 0)
			return e;
	return -1;
}

const struct smm_counter_spec *smm_counter_spec_of(const char *name)
{
	for (size_t i = 0; i < smm_nr_counter_specs; i++)
		if (strcmp(name, smm_counter_specs[i].name) == 0)
			return &smm_counter_specs[i];
	return NULL;
}

char *smm_counter_filter(const struct smm_counter_spec *s, char *buf,
			 size_t len)
{
	const struct smm_event_def *e = &smm_events[s->ev];
	size_t n = 0;

	buf[0] = 0;
	if (e->order_field && s->order != SMM_ANY)
		n += (size_t)snprintf(buf + n, len - n, "%s == %d",
				      e->order_field, s->order);
	if (e->mt && s->mt != SMM_ANY && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%smigratetype == %d",
				      n ? " && " : "", s->mt);
	if (e->refill && s->refill != SMM_ANY && n < len)
		snprintf(buf + n, len - n, "%spercpu_refill == %d",
			 n ? " && " : "", s->refill);
	return buf;
}

/* The bins of one order that match @s's migratetype and refill. */
static uint64_t zone_locked_bins(const struct smm_counter_spec *s,
				 const struct smm_bpf_counts *b, int o)
{
	uint64_t v = 0;

	for (int m = 0; m < SMM_BPF_MTS; m++) {
		if (s->mt != SMM_ANY && m != s->mt)
			continue;
		for (int r = 0; r < 2; r++)
			if (s->refill == SMM_ANY || r == (s->refill == 1))
				v += b->zone_locked[o][m][r];
	}
	return v;
}

uint64_t smm_counter_of_bins(const struct smm_counter_spec *s,
			     const struct smm_bpf_counts *b)
{
	uint64_t v = 0;

	for (int o = 0; o < SMM_BPF_ORDERS; o++) {
		if (s->order != SMM_ANY && o != s->order)
			continue;
		switch (s->ev) {
		case SMM_EV_PAGE_ALLOC:
			v += b->alloc[o];
			break;
		case SMM_EV_ZONE_LOCKED:
			v += zone_locked_bins(s, b, o);
			break;
		case SMM_EV_EXTFRAG:
			v += b->extfrag[o];
			break;
		case SMM_EV_PCPU_DRAIN:
			v += b->drain[o];
			break;
		default:
			break;
		}
	}
	if (s->ev == SMM_EV_TLB_FLUSH)
		v = b->tlb_flush;
	if (s->ev == SMM_EV_CONTENTION)
		v = s->side >= SMM_NR_SIDES ? b->spin_waits
		    : s->ns		    ? b->zone_wait_ns[s->side]
					    : b->zone_waits[s->side];
	return v;
}

static int find_tracefs(struct smm_counters *cs)
{
	struct stat st;

	if (stat(TRACEFS "/events", &st) == 0) {
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s", TRACEFS);
		return 0;
	}
	if (stat(DEBUGFS_TRACING "/events", &st) == 0) {
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s",
			 DEBUGFS_TRACING);
		return 0;
	}
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL) == 0) {
		cs->mounted_tracefs = 1;
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s", TRACEFS);
		return 0;
	}
	return -errno;
}

static void close_fds(struct smm_counter *c)
{
	for (int j = 0; j < c->nfds; j++)
		if (c->fds[j] >= 0)
			close(c->fds[j]);
	free(c->fds);
	c->fds = NULL;
	c->nfds = 0;
}

static int open_counter(struct smm_counters *cs, struct smm_counter *c,
			long ncpu)
{
	int opened = 0;
	const struct smm_counter_spec *s = c->spec;
	const struct smm_event_def *e = &smm_events[s->ev];
	struct perf_event_attr attr;
	char path[256], filter[128];
	uint64_t id;
	int rc;

	if (s->ev == SMM_EV_CONTENTION) {
		snprintf(
			c->skip, sizeof(c->skip),
			"perf cannot count it (the side of a wait needs the kernel stack at the wait): BPF only%s%.150s",
			cs->engine_why[0] ? "; " : "", cs->engine_why);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", cs->tracefs,
		 e->system, e->event);
	rc = smm_read_u64(path, &id);
	if (rc) {
		snprintf(c->skip, sizeof(c->skip),
			 "tracepoint %s:%s not available: %s", e->system,
			 e->event, strerror(-rc));
		return 0;
	}
	smm_counter_filter(s, filter, sizeof(filter));
	c->fds = malloc((size_t)ncpu * sizeof(int));
	if (!c->fds)
		return -ENOMEM;
	for (long cpu = 0; cpu < ncpu; cpu++)
		c->fds[cpu] = -1;
	c->nfds = (int)ncpu;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	for (long cpu = 0; cpu < ncpu; cpu++) {
		int fd = (int)syscall(SYS_perf_event_open, &attr, -1, (int)cpu,
				      -1, PERF_FLAG_FD_CLOEXEC);

		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0) {
			snprintf(
				c->skip, sizeof(c->skip),
				"perf_event_open %s:%s on CPU %ld errno=%d (%s)%s",
				e->system, e->event, cpu, errno,
				strerror(errno),
				errno == EACCES || errno == EPERM
					? ": needs CAP_PERFMON or CAP_SYS_ADMIN with perf_event_paranoid > 0"
					: "");
			break;
		}
		c->fds[cpu] = fd;
		opened++;
		if (filter[0] &&
		    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0) {
			snprintf(c->skip, sizeof(c->skip),
				 "filter '%s' on %s:%s errno=%d (%s)", filter,
				 e->system, e->event, errno, strerror(errno));
			break;
		}
	}
	if (!c->skip[0] && !opened)
		snprintf(c->skip, sizeof(c->skip),
			 "perf_event_open %s:%s: no online CPU to count on",
			 e->system, e->event);
	if (c->skip[0])
		close_fds(c); /* a partial open counts nothing */
	return 0;
}

static int wanted(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (strcmp(list, "all") == 0)
		return 1;
	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* Every listed name must exist; then the wanted specs into cs->c. */
static int select_specs(struct smm_counters *cs, const char *list, char *err,
			size_t len)
{
	char *copy, *tok, *save = NULL;

	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0)
			continue;
		if (!smm_counter_spec_of(tok)) {
			snprintf(err, len, "%s", tok);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	cs->c = calloc(smm_nr_counter_specs, sizeof(*cs->c));
	if (!cs->c)
		return -ENOMEM;
	for (size_t i = 0; i < smm_nr_counter_specs; i++)
		if (wanted(list, smm_counter_specs[i].name))
			cs->c[cs->n++].spec = &smm_counter_specs[i];
	return 0;
}

static int open_perf(struct smm_counters *cs, const char *tracefs)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int trc = 0, rc;

	cs->engine = SMM_ENGINE_PERF;
	if (tracefs)
		snprintf(cs->tracefs, sizeof(cs->tracefs), "%s", tracefs);
	else
		trc = find_tracefs(cs);
	for (size_t i = 0; i < cs->n; i++) {
		struct smm_counter *c = &cs->c[i];

		if (trc && c->spec->ev != SMM_EV_CONTENTION) {
			snprintf(
				c->skip, sizeof(c->skip),
				"tracefs not mounted and cannot be: errno=%d (%s)",
				-trc, strerror(-trc));
			continue;
		}
		rc = open_counter(cs, c, ncpu);
		if (rc)
			return rc;
	}
	return 0;
}

/* The BPF engine: -errno with cs->engine_why when it cannot count. */
static int open_bpf(struct smm_counters *cs)
{
	char ev_why[SMM_BPF_NR_EVENTS][200];
	bool want[SMM_BPF_NR_EVENTS] = { false };
	int rc;

	memset(ev_why, 0, sizeof(ev_why));
	for (size_t i = 0; i < cs->n; i++)
		want[cs->c[i].spec->ev] = true;
	if (want[SMM_EV_CONTENTION])
		smm_lock_sides_read(&cs->ks, NULL);
	rc = smm_bpf_open(&cs->bpf, want, &cs->ks, ev_why, cs->engine_why,
			  sizeof(cs->engine_why));
	if (rc)
		return rc;
	cs->engine = SMM_ENGINE_BPF;
	for (size_t i = 0; i < cs->n; i++)
		if (ev_why[cs->c[i].spec->ev][0])
			snprintf(cs->c[i].skip, sizeof(cs->c[i].skip), "%s",
				 ev_why[cs->c[i].spec->ev]);
	return 0;
}

int smm_counters_open(struct smm_counters *cs, const char *list,
		      enum smm_engine engine, char *err, size_t len)
{
	int rc;

	memset(cs, 0, sizeof(*cs));
	rc = select_specs(cs, list, err, len);
	if (rc)
		return rc;
	if (engine == SMM_ENGINE_PERF)
		snprintf(cs->engine_why, sizeof(cs->engine_why),
			 "--counters-engine perf");
	else if (open_bpf(cs) == 0)
		return 0;
	if (engine == SMM_ENGINE_BPF) {
		cs->engine = SMM_ENGINE_BPF;
		for (size_t i = 0; i < cs->n; i++)
			snprintf(cs->c[i].skip, sizeof(cs->c[i].skip),
				 "--counters-engine bpf: %.220s",
				 cs->engine_why);
		return 0;
	}
	return open_perf(cs, NULL);
}

int smm_counters_open_at(struct smm_counters *cs, const char *list,
			 const char *tracefs, char *err, size_t len)
{
	int rc;

	memset(cs, 0, sizeof(*cs));
	rc = select_specs(cs, list, err, len);
	if (rc)
		return rc;
	snprintf(cs->engine_why, sizeof(cs->engine_why), "a test's tracefs");
	return open_perf(cs, tracefs);
}

static void ioctl_all(struct smm_counters *cs, unsigned long req)
{
	for (size_t i = 0; i < cs->n; i++)
		for (int j = 0; j < cs->c[i].nfds; j++)
			if (cs->c[i].fds[j] >= 0)
				ioctl(cs->c[i].fds[j], req, 0);
}

void smm_counters_enable(struct smm_counters *cs)
{
	if (cs->bpf)
		smm_bpf_gate(cs->bpf, true);
	ioctl_all(cs, PERF_EVENT_IOC_ENABLE);
}

void smm_counters_disable(struct smm_counters *cs)
{
	if (cs->bpf)
		smm_bpf_gate(cs->bpf, false);
	ioctl_all(cs, PERF_EVENT_IOC_DISABLE);
}

#define CALIBRATE_MS 300

/*
 * Zone-lock waits count only where this kernel's spinlock waits pass
 * lock:contention_begin. kernel/locking/qspinlock.c traces a wait when
 * the waiter queues: a lone waiter spinning on the pending bit (all there
 * is with 2 CPUs) is not traced, nor is a guest's test-and-set lock
 * (virt_spin_lock(), arch/x86/include/asm/paravirt-spinlock.h, on a
 * hypervisor without paravirt spinlocks). So: a spinlock wait in the run,
 * or one while threads contend a spinlock on purpose, or the counters say
 * why they cannot count.
 */
static void check_waits_seen(struct smm_counters *cs)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int threads = ncpu > 1 ? 2 * (unsigned int)ncpu : 3;

	/* at least 3: two waiters behind a holder make one queue */
	char why[256] = "";
	uint64_t waits = 0;

	if (cs->bins.spin_waits) {
		snprintf(cs->waits_how, sizeof(cs->waits_how),
			 "%llu spinlock waits traced during the run",
			 (unsigned long long)cs->bins.spin_waits);
	} else if (smm_bpf_calibrate(cs->bpf, CALIBRATE_MS, threads, &waits) ==
			   0 &&
		   waits) {
		snprintf(
			cs->waits_how, sizeof(cs->waits_how),
			"none in the run; %llu while %u threads contended one spinlock after it",
			(unsigned long long)waits, threads);
	} else {
		snprintf(
			why, sizeof(why),
			"lock:contention_begin showed no spinlock wait, in the run nor while %u threads contended one for %d ms: spinlock waits bypass it here",
			threads, CALIBRATE_MS);
	}
	for (size_t i = 0; i < cs->n; i++) {
		struct smm_counter *c = &cs->c[i];
		int side = c->spec->side;

		if (c->spec->ev != SMM_EV_CONTENTION || c->skip[0])
			continue;
		if (why[0])
			snprintf(c->skip, sizeof(c->skip), "%s", why);
		else if (side < SMM_NR_SIDES && cs->ks.why[side][0])
			snprintf(c->skip, sizeof(c->skip), "%s",
				 cs->ks.why[side]);
	}
}

void smm_counters_read(struct smm_counters *cs)
{
	if (cs->bpf) {
		bool waits = false;

		if (smm_bpf_read(cs->bpf, &cs->bins, &cs->bpf_misses))
			for (size_t i = 0; i < cs->n; i++)
				if (!cs->c[i].skip[0])
					snprintf(cs->c[i].skip,
						 sizeof(cs->c[i].skip),
						 "reading the BPF map failed");
		for (size_t i = 0; i < cs->n; i++) {
			cs->c[i].value =
				smm_counter_of_bins(cs->c[i].spec, &cs->bins);
			waits |= cs->c[i].spec->ev == SMM_EV_CONTENTION &&
				 !cs->c[i].skip[0];
		}
		if (waits)
			check_waits_seen(cs);
		return;
	}
	for (size_t i = 0; i < cs->n; i++) {
		struct smm_counter *c = &cs->c[i];

		c->value = 0;
		for (int j = 0; j < c->nfds; j++) {
			uint64_t v = 0;

			if (c->fds[j] >= 0 && read(c->fds[j], &v, sizeof(v)) ==
						      (ssize_t)sizeof(v))
				c->value += v;
		}
	}
}

const struct smm_counter *smm_counters_get(const struct smm_counters *cs,
					   const char *name)
{
	for (size_t i = 0; i < cs->n; i++)
		if (strcmp(cs->c[i].spec->name, name) == 0)
			return &cs->c[i];
	return NULL;
}

void smm_counters_close(struct smm_counters *cs)
{
	smm_bpf_close(cs->bpf);
	cs->bpf = NULL;
	for (size_t i = 0; i < cs->n; i++)
		close_fds(&cs->c[i]);
	if (cs->mounted_tracefs)
		umount(cs->tracefs);
	cs->mounted_tracefs = 0;
}

void smm_counters_free(struct smm_counters *cs)
{
	smm_counters_close(cs);
	free(cs->c);
	cs->c = NULL;
	cs->n = 0;
}
