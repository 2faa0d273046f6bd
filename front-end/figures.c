// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * figures.c - the figures' definitions, and a set of figures.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

#define NG_SECONDS "stress-ng's wall-clock seconds"
#define MOVABLE_REFILLS \
	"order-0 MOVABLE kmem:mm_page_alloc_zone_locked, percpu_refill=1"
#define UNMOVABLE_REFILLS \
	"order-0 UNMOVABLE kmem:mm_page_alloc_zone_locked, percpu_refill=1"
#define ORDER0_DRAINS "order-0 kmem:mm_page_pcpu_drain"
#define SHM_FAULTS "1000 pages faulted by shm-pcp's workers (records)"
#define PGFAULTS "1000 page faults (/proc/vmstat pgfault)"
#define VMO_ALLOCS "1000 allocations by vmalloc-order's workers (records)"
#define ZL_NS_ALL "ns waited for zone locks, all sides"
#define ZL_CPU_TIME "online CPUs x the counting window's wall-clock ns"

/* clang-format off */
#define ZL_N(side) \
	"zone-lock waits, " side " side (lock:contention_begin/_end)"
#define ZL_NS(side) \
	"ns waited for zone locks, " side " side (lock:contention_begin to _end)"
/* waits and ns per 1000 of the stressor's work, one side */
#define ZL_WAITS(per, side, den) \
	{ "zone-lock-waits-" side "-per-1000-" per, true, ZL_N(side), den, \
	  "per 1000", false, 1, false }, \
	{ "zone-lock-wait-ns-" side "-per-1000-" per, true, ZL_NS(side), den, \
	  "ns per 1000", false, 1000, false }

const struct smm_figure_def smm_figure_defs[] = {
	{ "bogo-ops-per-second-real-time", true, "stress-ng's bogo-ops",
	  NG_SECONDS, "bogo-ops/s", true, 0.01, true },
	{ "bogo-ops-per-second-usr-sys-time", true, "stress-ng's bogo-ops",
	  "user + system CPU seconds", "bogo-ops/s", true, 0.01, false },
	{ "allocations-per-second", true,
	  "allocations made by the workers (records)", NG_SECONDS,
	  "allocs/s", true, 1, true },
	{ "pages-faulted-per-second", true,
	  "pages write-faulted by the workers (records)", NG_SECONDS,
	  "pages/s", true, 1, true },
	{ "kernel-ns-per-vmalloc-vfree", true,
	  "ns the kernel spent in vmalloc and vfree (records: path module's ktime)",
	  "allocations made by the workers (records)", "ns", false, 1,
	  true },
	{ "test-vmalloc-ns-per-loop", true,
	  "test_vmalloc's avg usec x 1000 of the first test run, mean over its workers",
	  "test_loop_count", "ns", false, 1, true },
	{ "movable-refills-per-1000-faults", true, MOVABLE_REFILLS, SHM_FAULTS,
	  "per 1000 faults", false, 5, true },
	{ "unmovable-refills-per-1000-faults", true, UNMOVABLE_REFILLS,
	  SHM_FAULTS, "per 1000 faults", false, 5, false },
	{ "order0-drains-per-1000-faults", true, ORDER0_DRAINS, SHM_FAULTS,
	  "per 1000 faults", false, 5, false },
	{ "zone-locked-order0-per-bogo-op", true,
	  "order-0 kmem:mm_page_alloc_zone_locked",
	  "bogo-ops of the one stressor that ran", "per bogo-op", false, 0.1,
	  false },
	{ "movable-refills-per-1000-pgfault", false, MOVABLE_REFILLS, PGFAULTS,
	  "per 1000 faults", false, 5, true },
	{ "unmovable-refills-per-1000-pgfault", false, UNMOVABLE_REFILLS,
	  PGFAULTS, "per 1000 faults", false, 5, false },
	{ "order0-drains-per-1000-pgfault", false, ORDER0_DRAINS, PGFAULTS,
	  "per 1000 faults", false, 5, false },
	{ "order2-refills-per-order2-alloc", false,
	  "order-2 kmem:mm_page_alloc_zone_locked, percpu_refill=1",
	  "order-2 kmem:mm_page_alloc", "per allocation", false, 0.02, false },
	ZL_WAITS("faults", "alloc", SHM_FAULTS),
	ZL_WAITS("faults", "free", SHM_FAULTS),
	ZL_WAITS("faults", "other", SHM_FAULTS),
	ZL_WAITS("allocs", "alloc", VMO_ALLOCS),
	ZL_WAITS("allocs", "free", VMO_ALLOCS),
	ZL_WAITS("allocs", "other", VMO_ALLOCS),
	{ "zone-lock-wait-cpu-share-pct", true, ZL_NS_ALL, ZL_CPU_TIME, "%",
	  false, 0.1, false },
	{ "zone-lock-waits-alloc-per-1000-pgfault", false, ZL_N("alloc"),
	  PGFAULTS, "per 1000 faults", false, 1, false },
	{ "zone-lock-waits-free-per-1000-pgfault", false, ZL_N("free"),
	  PGFAULTS, "per 1000 faults", false, 1, false },
	{ "zone-lock-waits-other-per-1000-pgfault", false, ZL_N("other"),
	  PGFAULTS, "per 1000 faults", false, 1, false },
	{ "zone-lock-wait-cpu-share-pct", false, ZL_NS_ALL, ZL_CPU_TIME, "%",
	  false, 0.1, false },
	{ "linux-mm-zone-locked-ratio-pct", false,
	  "order-0 kmem:mm_page_alloc_extfrag + mm_page_alloc_zone_locked",
	  "order-0 kmem:mm_page_alloc (misses bulk allocations: unbounded)",
	  "% (not a fraction)", false, 1, false },
};
/* clang-format on */
const size_t smm_nr_figure_defs =
	sizeof(smm_figure_defs) / sizeof(smm_figure_defs[0]);

const struct smm_figure_def *smm_figure_def_of(const char *name)
{
	const char *dot = strchr(name, '.');
	const char *base = dot ? dot + 1 : name;

	for (size_t i = 0; i < smm_nr_figure_defs; i++)
		if (strcmp(base, smm_figure_defs[i].name) == 0 &&
		    smm_figure_defs[i].per_stressor == (dot != NULL))
			return &smm_figure_defs[i];
	return NULL;
}

struct smm_figure *smm_figure_add(struct smm_figures *fs, const char *stressor,
				  const char *name)
{
	struct smm_figure *f;

	if (fs->n == SMM_MAX_FIGURES)
		return NULL;
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s%s%s", stressor ? stressor : "",
		 stressor ? "." : "", name);
	f->def = smm_figure_def_of(f->name);
	if (!f->def) { /* every name is a row of smm_figure_defs[] */
		fs->n--;
		return NULL;
	}
	return f;
}

void smm_figure_absent(struct smm_figure *f, const char *fmt, ...)
{
	va_list ap;

	if (!f || f->absent)
		return;
	f->absent = true;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

struct smm_figure *smm_figure_rates(struct smm_figures *fs, const char *name,
				    double ops_real, double ops_usr_sys)
{
	struct smm_figure *f;

	f = smm_figure_add(fs, name, "bogo-ops-per-second-real-time");
	if (f)
		f->value = ops_real;
	f = smm_figure_add(fs, name, "bogo-ops-per-second-usr-sys-time");
	if (f)
		f->value = ops_usr_sys;
	return f;
}

const struct smm_figure *smm_figure_get(const struct smm_figures *fs,
					const char *name)
{
	for (int i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].name, name) == 0)
			return &fs->f[i];
	return NULL;
}
