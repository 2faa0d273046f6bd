/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counters.h - system-wide tracepoint counts with in-kernel filters, the way
 * `perf stat -a -e EVENT --filter F` counts them: one perf_event_open(2)
 * counter per online CPU (type PERF_TYPE_TRACEPOINT, config = the event id
 * from tracefs, pid = -1), the filter set with PERF_EVENT_IOC_SET_FILTER,
 * enabled together, read as one u64 per CPU and summed.
 *
 * Needs CAP_PERFMON or CAP_SYS_ADMIN (pid -1 with perf_event_paranoid > 0)
 * and tracefs for the ids; smm_counters_open() mounts tracefs on
 * /sys/kernel/tracing when it is not mounted and smm_counters_close()
 * unmounts what it mounted. A counter that cannot be opened (event missing
 * on this kernel, no privilege, no online CPU) is kept with its reason and
 * reported as skipped, never as 0; when it fails on a later CPU, the
 * descriptors already opened for it are closed (a partial count is no
 * count). Offline CPUs (ENODEV) are left out.
 */
#ifndef SMM_COUNTERS_H
#define SMM_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

struct smm_counter_spec {
	const char *name; /* key in reports, e.g. "zone_locked_order0" */
	const char *system; /* tracefs system, e.g. "kmem" */
	const char *event; /* e.g. "mm_page_alloc_zone_locked" */
	const char *filter; /* ftrace filter, or NULL */
};

/* The counters of DESIGN section 5 and the front-end issue. */
extern const struct smm_counter_spec smm_counter_specs[];
extern const size_t smm_nr_counter_specs;

/* smm_counter_spec_of() - the counter named @name, or NULL. */
const struct smm_counter_spec *smm_counter_spec_of(const char *name);

struct smm_counter {
	const struct smm_counter_spec *spec;
	int *fds; /* one per CPU, -1 when closed */
	int nfds;
	uint64_t value; /* after smm_counters_read() */
	char skip[160]; /* non-empty: why this counter does not count */
};

struct smm_counters {
	struct smm_counter *c;
	size_t n;
	int mounted_tracefs; /* 1 when we mounted it */
	char tracefs[64];
};

/*
 * smm_counters_open() - open the counters named in @list (comma-separated
 * names of smm_counter_specs, or "all"), disabled.
 * Return: 0 (individual counters may still be skipped), -EINVAL on an
 * unknown name (its name in @err), -ENOMEM.
 */
int smm_counters_open(struct smm_counters *cs, const char *list, char *err,
		      size_t len);

/*
 * smm_counters_open_at() - smm_counters_open() with the event ids read from
 * @tracefs (a directory laid out as tracefs: events/<system>/<event>/id)
 * instead of the mounted tracefs: for tests.
 */
int smm_counters_open_at(struct smm_counters *cs, const char *list,
			 const char *tracefs, char *err, size_t len);

/* smm_counters_enable() / _disable() - start and stop all at once. */
void smm_counters_enable(struct smm_counters *cs);
void smm_counters_disable(struct smm_counters *cs);

/* smm_counters_read() - sum every counter over its CPUs into ->value. */
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
