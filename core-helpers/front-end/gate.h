/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gate.h - the figures a gate reads and the regression verdicts of
 * `stress-mm compare`.
 *
 * Statistics over the runs of one metric: median, min, max and the relative
 * half-range ((max - min) / 2 / median, in percent), the figure kernel
 * developers report as "median ± x%".
 *
 * Verdicts, candidate against base, for a metric that knows whether higher
 * is better and a threshold in percent:
 *   unrepeated   either side has fewer than SMM_MIN_RUNS runs: no range,
 *                so no regression verdict
 *   no change    |%change| <= threshold
 *   regression   worse by more than the threshold, ranges [min, max] apart
 *   improvement  better by more than the threshold, ranges apart
 *   noisy        beyond the threshold but the ranges overlap
 */
#ifndef SMM_GATE_H
#define SMM_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "summary.h"

#define SMM_MIN_RUNS 3

struct smm_metric_def {
	const char *name; /* key in runs[].metrics, e.g. "linux-mm-ratio" */
	bool higher_better;
	const char *unit; /* for the table */
};

/* Every metric the front end records per run. Per-stressor metrics carry
 * the stressor as a prefix: "<stressor>.bogo-ops-per-second-real-time". */
extern const struct smm_metric_def smm_metric_defs[];
extern const size_t smm_nr_metric_defs;

/* smm_metric_def_of() - the definition of @name (its part after the first
 * '.' for per-stressor metrics), or NULL. */
const struct smm_metric_def *smm_metric_def_of(const char *name);

enum smm_verdict {
	SMM_V_NO_CHANGE,
	SMM_V_REGRESSION,
	SMM_V_IMPROVEMENT,
	SMM_V_NOISY,
	SMM_V_UNREPEATED,
};

extern const char *const smm_verdict_names[];

/*
 * smm_verdict() - the verdict for @cand against @base.
 * @change_pct: set to (cand.median - base.median) / base.median x 100
 * (0 when the base median is 0).
 */
enum smm_verdict smm_verdict(const struct smm_summary *base,
			     const struct smm_summary *cand, bool higher_better,
			     double threshold_pct, double *change_pct);

#endif /* SMM_GATE_H */
