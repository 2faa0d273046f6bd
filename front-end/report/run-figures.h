/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run-figures.h - the figures (figures.h) of one run, from its results
 * (results.h): per stressor from its workers' records over stress-ng's
 * wall-clock time, or from its runner's own figures (runner.h); a skipped
 * stressor's absent with its SKIP; per-bogo-op figures only when one
 * stressor ran (system-wide counts cannot be split); the system-wide
 * figures absent when no stressor ran.
 */
#ifndef SMM_RUN_FIGURES_H
#define SMM_RUN_FIGURES_H

struct smm_run_cfg;
struct smm_run_result;

/* smm_figures_compute() - every figure of one run into res->fig. */
void smm_figures_compute(const struct smm_run_cfg *cfg,
			 struct smm_run_result *res);

/* smm_print_counters() - the counters as "stress-mm: kcntr:" lines and
 * the figures (but the bogo-ops rates, which stress-ng's metrics lines
 * show) as "stress-mm: figure:" lines, each with what it divides or why
 * it is absent, on stderr. */
void smm_print_counters(const struct smm_run_result *res);

#endif /* SMM_RUN_FIGURES_H */
