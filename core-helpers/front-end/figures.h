/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h - every figure stress-mm reports, defined once and computed in
 * one place for the terminal, the YAML report, the repeat summary and the
 * gate (stress-mm compare).
 *
 * A figure belongs to one stressor ("shm-pcp.movable-refills-per-1000-
 * faults"; for stressors passed through to stress-ng after --, their own
 * name: "shm.bogo-ops-per-second-real-time") or is system-wide (no
 * prefix), and names its numerator and denominator. One that cannot be
 * computed (a zero denominator, a skipped counter, no stats file, a skipped
 * stressor, two stressors sharing system-wide counts) is kept as absent
 * with the reason, never written as 0.
 *
 * The figures (smm_figure_defs[]; README "Figures" has the same table):
 *   <s>.bogo-ops-per-second-real-time     stress-ng's bogo-ops / its
 *                                         wall-clock seconds
 *   <s>.bogo-ops-per-second-usr-sys-time  bogo-ops / user+system seconds
 *   vmalloc-order.allocations-per-second  allocations (stats files) /
 *                                         stress-ng's wall-clock seconds
 *   vmalloc-order.kernel-ns-per-vmalloc-vfree
 *        ns the kernel spent in vmalloc and vfree (the module's ktime,
 *        stats files) / allocations (stats files): path module only, as
 *        test_vmalloc's per-loop time
 *   shm-pcp.pages-faulted-per-second      pages write-faulted (stats files)
 *                                         / stress-ng's wall-clock seconds
 *   shm-pcp.movable-refills-per-1000-faults
 *        order-0 MOVABLE kmem:mm_page_alloc_zone_locked with
 *        percpu_refill=1 (system-wide) per 1000 pages shm-pcp's workers
 *        faulted: the faults' starvation (shmem folios are MOVABLE)
 *   shm-pcp.unmovable-refills-per-1000-faults   the same, UNMOVABLE
 *   shm-pcp.order0-drains-per-1000-faults
 *        order-0 kmem:mm_page_pcpu_drain per 1000 pages faulted
 *   <s>.zone-locked-order0-per-bogo-op  order-0 zone-locked events per
 *        bogo-op; only when one stressor ran (system-wide counts cannot be
 *        split between two)
 *   movable-refills-per-1000-pgfault, unmovable-refills-per-1000-pgfault,
 *   order0-drains-per-1000-pgfault
 *        the same numerators per 1000 page faults of the whole system
 *        (/proc/vmstat pgfault): for stress-ng's own stressors, whose
 *        pages stress-mm cannot count
 *   order2-refills-per-order2-alloc
 *        order-2 zone-locked refills (percpu_refill=1) per order-2
 *        kmem:mm_page_alloc, system-wide: 1.00 when order-2 blocks never
 *        come back to the order-2 PCP lists
 *   linux-mm-zone-locked-ratio-pct
 *        (order-0 extfrag + order-0 zone_locked) / order-0 mm_page_alloc x
 *        100: the formula of the linux-mm analysis of the 60ced5818f shm
 *        regression, kept for comparability. Not a fraction and unbounded:
 *        mm_page_alloc misses pages from the bulk allocator, so it can pass
 *        100 (2186 was seen). Never a default gate figure.
 */
#ifndef SMM_FIGURES_H
#define SMM_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#define SMM_MAX_FIGURES 64

struct smm_figure_def {
	const char *name; /* after the stressor prefix, if any */
	bool per_stressor; /* named "<stressor>.<name>" */
	const char *numerator; /* what is counted, in words */
	const char *denominator; /* what it is divided by */
	const char *unit;
	bool higher_better;
	/*
	 * The smallest absolute difference that matters, in the figure's
	 * unit: the gate compares log(value + floor), so that a base of 0 is
	 * handled and a rise from 0 beyond the floor in a lower-is-better
	 * figure is a regression.
	 */
	double floor;
	bool default_gate; /* compared unless --metric chooses */
};

extern const struct smm_figure_def smm_figure_defs[];
extern const size_t smm_nr_figure_defs;

/* smm_figure_def_of() - the definition of figure @name (its part after
 * the first '.' when it has a stressor prefix), or NULL. */
const struct smm_figure_def *smm_figure_def_of(const char *name);

struct smm_figure {
	char name[96];
	const struct smm_figure_def *def;
	double value; /* valid unless absent */
	bool absent;
	char why[200]; /* when absent: the reason */
};

struct smm_figures {
	int n;
	struct smm_figure f[SMM_MAX_FIGURES];
};

/*
 * smm_figure_add() - a new figure of @fs named "<@stressor>.<@name>"
 * (@stressor NULL: system-wide), from its row of smm_figure_defs[], with
 * value 0 until set. Return: it, or NULL when @fs is full or no row has
 * that name.
 */
struct smm_figure *smm_figure_add(struct smm_figures *fs, const char *stressor,
				  const char *name);

/* smm_figure_absent() - @f is absent, with the reason; the first reason
 * given stays; NULL-safe. */
__attribute__((format(printf, 2, 3))) void
smm_figure_absent(struct smm_figure *f, const char *fmt, ...);

/*
 * smm_figure_rates() - stressor @name's two bogo-ops rates, real time and
 * user + system time. Return: the second (NULL when @fs is full).
 */
struct smm_figure *smm_figure_rates(struct smm_figures *fs, const char *name,
				    double ops_real, double ops_usr_sys);

struct smm_run_cfg;
struct smm_run_result;

/* smm_figures_compute() - every figure of one run into res->fig. */
void smm_figures_compute(const struct smm_run_cfg *cfg,
			 struct smm_run_result *res);

/* smm_figure_get() - the figure named @name, or NULL. */
const struct smm_figure *smm_figure_get(const struct smm_figures *f,
					const char *name);

/* smm_print_counters() - the counters and the figures without a stressor
 * as "stress-mm: kcntr:" lines on stderr (per-stressor figures follow as
 * "stress-mm: <stressor>:" lines). */
void smm_print_counters(const struct smm_run_result *res);

#endif /* SMM_FIGURES_H */
