/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h - every figure stress-mm reports, computed in one place for the
 * terminal, the YAML report and the repeat summary.
 *
 * A figure names its numerator and its denominator. One that cannot be
 * computed (a zero denominator, a skipped counter, no stats file, a
 * skipped stressor) is kept as absent with the reason, never written as 0.
 * Per-stressor figures carry the stressor as a prefix
 * ("shm-pcp.pages-faulted-per-second"); system-wide ones none.
 */
#ifndef SMM_FIGURES_H
#define SMM_FIGURES_H

#include <stdbool.h>

#define SMM_MAX_FIGURES 48

struct smm_figure {
	char name[80];
	double value; /* valid unless absent */
	bool absent;
	char why[160]; /* when absent: the reason */
	const char *numerator; /* what is counted, in words */
	const char *denominator; /* what it is divided by */
	bool gate; /* recorded per run for stress-mm compare */
};

struct smm_figures {
	int n;
	struct smm_figure f[SMM_MAX_FIGURES];
};

struct smm_run_cfg;
struct smm_run_result;

/* smm_figures_compute() - every figure of one run into res->fig. */
void smm_figures_compute(const struct smm_run_cfg *cfg,
			 struct smm_run_result *res);

/* smm_figure_get() - the figure named @name, or NULL. */
const struct smm_figure *smm_figure_get(const struct smm_figures *f,
					const char *name);

/* smm_print_counters() - the counters and figures as "stress-mm: kcntr:"
 * lines on stderr. */
void smm_print_counters(const struct smm_run_result *res);

#endif /* SMM_FIGURES_H */
