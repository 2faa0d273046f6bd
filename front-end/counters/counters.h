/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counters.h - system-wide kernel counters around a run, by one of two
 * engines, and the YAML says which counted (smm_counters.engine):
 *
 * - BPF (bpf-counters.h): one program per tracepoint bins every event by
 *   the fields the filters below test, per CPU, read once at the end; and
 *   the zone-lock waits by side (lock:contention_begin/_end), which only
 *   BPF can count (the side needs the kernel stack at the wait). Needs
 *   CAP_BPF, CAP_PERFMON and the kernel's BTF.
 * - perf, the fallback where BPF cannot load: the way `perf stat -a -e
 *   EVENT --filter F` counts, one perf_event_open(2) counter per online
 *   CPU (type PERF_TYPE_TRACEPOINT, config = the event id from tracefs,
 *   pid = -1), the filter set with PERF_EVENT_IOC_SET_FILTER, enabled
 *   together, read as one u64 per CPU and summed. Needs CAP_PERFMON or
 *   CAP_SYS_ADMIN (pid -1 with perf_event_paranoid > 0) and tracefs for
 *   the ids; smm_counters_open() mounts tracefs on /sys/kernel/tracing
 *   when it is not mounted and smm_counters_close() unmounts what it
 *   mounted.
 *
 * Both count the same events with the same filters (a test runs both
 * over one workload). A counter that cannot count (event missing on this
 * kernel, no privilege, no online CPU, an engine that cannot count it,
 * zone-lock waits this kernel does not trace) is kept with its reason and
 * reported as skipped, never as 0; a perf counter that fails on a later
 * CPU has the descriptors already opened for it closed (a partial count
 * is no count). Offline CPUs (ENODEV) are left out.
 */
#ifndef SMM_COUNTERS_H
#define SMM_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf-counters.h"

/* The tracepoints counted; SMM_EV_CONTENTION is lock:contention_begin
 * and lock:contention_end together. */
enum smm_event {
	SMM_EV_PAGE_ALLOC,
	SMM_EV_ZONE_LOCKED,
	SMM_EV_EXTFRAG,
	SMM_EV_PCPU_DRAIN,
	SMM_EV_TLB_FLUSH,
	SMM_EV_CONTENTION,
	SMM_NR_EVENTS,
};

struct smm_event_def {
	const char *system; /* tracefs system, e.g. "kmem" */
	const char *event; /* e.g. "mm_page_alloc_zone_locked" */
	const char *order_field; /* the order in its format, or NULL */
	bool mt, refill; /* has migratetype, percpu_refill fields */
};

extern const struct smm_event_def smm_events[SMM_NR_EVENTS];

/* A field's value to match, or any. */
#define SMM_ANY (-1)

struct smm_counter_spec {
	const char *name; /* key in reports, e.g. "zone_locked_order0" */
	enum smm_event ev;
	int order, mt, refill; /* SMM_ANY or the value the event must have */
	/* SMM_EV_CONTENTION: the side (smm-counts.h), SMM_NR_SIDES for
	 * every spinlock wait; and whether it counts ns, not waits */
	int side;
	bool ns;
};

/* The counters of DESIGN section 5 and the front-end issue. */
extern const struct smm_counter_spec smm_counter_specs[];
extern const size_t smm_nr_counter_specs;

/* smm_counter_spec_of() - the counter named @name, or NULL. */
const struct smm_counter_spec *smm_counter_spec_of(const char *name);

/*
 * smm_counter_filter() - @s's ftrace filter ("order == 0 && migratetype
 * == 1"), as perf sets it, into @buf; empty when the event is counted
 * whole. Return: @buf.
 */
char *smm_counter_filter(const struct smm_counter_spec *s, char *buf,
			 size_t len);

/* smm_counter_of_bins() - @s's count from the BPF engine's bins. */
uint64_t smm_counter_of_bins(const struct smm_counter_spec *s,
			     const struct smm_bpf_counts *b);

enum smm_engine {
	SMM_ENGINE_AUTO, /* BPF, perf where BPF cannot load */
	SMM_ENGINE_BPF, /* BPF or nothing */
	SMM_ENGINE_PERF, /* perf only: no zone-lock waits */
	SMM_NR_ENGINES,
};

/* Their names for --counters-engine and the report: auto, bpf, perf. */
extern const char *const smm_engine_names[SMM_NR_ENGINES];

/* smm_engine_of() - the engine named @name, or -1. */
int smm_engine_of(const char *name);

struct smm_counter {
	const struct smm_counter_spec *spec;
	int *fds; /* one per CPU, -1 when closed */
	int nfds;
	uint64_t value; /* after smm_counters_read() */
	char skip[256]; /* non-empty: why this counter does not count */
};

struct smm_counters {
	struct smm_counter *c;
	size_t n;
	int mounted_tracefs; /* 1 when we mounted it */
	char tracefs[64];
	enum smm_engine engine; /* what counted: SMM_ENGINE_BPF or _PERF */
	char engine_why[256]; /* perf: why not BPF */
	struct smm_bpf *bpf; /* the BPF engine, while open */
	struct smm_lock_sides ks; /* zone-lock sides (BPF engine) */
	struct smm_bpf_counts bins; /* BPF: the counts, after read */
	uint64_t bpf_misses; /* BPF: events no program ran for */
	char waits_how[200]; /* zone-lock waits: how they are known seen */
};

/*
 * smm_counters_open() - open the counters named in @list (comma-separated
 * names of smm_counter_specs, or "all"), disabled, with @engine.
 * Return: 0 (individual counters may still be skipped), -EINVAL on an
 * unknown name (its name in @err), -ENOMEM.
 */
int smm_counters_open(struct smm_counters *cs, const char *list,
		      enum smm_engine engine, char *err, size_t len);

/*
 * smm_counters_open_at() - the perf engine with the event ids read from
 * @tracefs (a directory laid out as tracefs: events/<system>/<event>/id)
 * instead of the mounted tracefs: for tests.
 */
int smm_counters_open_at(struct smm_counters *cs, const char *list,
			 const char *tracefs, char *err, size_t len);

/* smm_counters_enable() / _disable() - start and stop all at once. */
void smm_counters_enable(struct smm_counters *cs);
void smm_counters_disable(struct smm_counters *cs);

/*
 * smm_counters_read() - sum every counter over its CPUs into ->value, once,
 * after smm_counters_disable(). BPF: when the run showed no spinlock wait
 * at all, smm_bpf_calibrate() asks whether this kernel can show one; if
 * not, the zone-lock wait counters are skipped with the reason (a kernel
 * whose spinlock waits bypass lock:contention_begin counts no 0).
 */
void smm_counters_read(struct smm_counters *cs);

/* smm_counters_get() - the counter named @name, or NULL. */
const struct smm_counter *smm_counters_get(const struct smm_counters *cs,
					   const char *name);

/* smm_counters_close() - close the counters (their values stay readable
 * through smm_counters_get()); unmount tracefs if we mounted it. */
void smm_counters_close(struct smm_counters *cs);

/* smm_counters_free() - smm_counters_close(), then free the values too. */
void smm_counters_free(struct smm_counters *cs);

#endif /* SMM_COUNTERS_H */
