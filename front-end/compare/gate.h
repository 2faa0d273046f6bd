/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gate.h - the verdict of stress-mm compare for one figure: candidate runs
 * against base runs, with a stated confidence, right at every run count.
 *
 * The test: two-sided Mann-Whitney U (mwu.h): the exact null distribution
 * while C(m + n, m) < 2^127 and m n <= 2^20 (up to 65 runs against 65),
 * the normal approximation with tie and continuity correction beyond. It
 * assumes nothing of the shape of the run-to-run noise, and one outlier
 * run moves it by one rank, not by its size. The figure is compared as
 * y = ln(value + floor): a ratio, so the change is in percent, and the
 * per-figure absolute floor (figures.h) handles a base of 0 (a rise from 0
 * beyond the floor is a change like any other) and keeps changes far below
 * it from counting.
 *
 * The change: the Hodges-Lehmann estimate (the median of all m n
 * candidate minus base differences of y), as a percentage of
 * (value + floor), and its distribution-free confidence interval
 * [D(k), D(m n + 1 - k)] between the k-th smallest and k-th largest
 * difference, k from the exact U distribution or its normal approximation
 * (mwu.h, smm_mwu_rank()). The differences are selected, never formed
 * (pairdiff.h): memory O(m + n) at any run count.
 *
 * Verdicts:
 *   too few runs  at this confidence no interval exists: the smallest
 *                 two-sided p of these run counts is above
 *                 1 - confidence (95%: at least 4 runs per side, or 3
 *                 against 5); never silent, the gate cannot decide
 *   regression    the interval lies on the worse side of 0, the change is
 *                 worse than the threshold, and the medians are further
 *                 apart than the floor
 *   improvement   the same, better
 *   inconclusive  the change is beyond the threshold but the interval
 *                 includes 0: more runs, or less noise, would decide
 *   no change     the change is within the threshold, or the medians are
 *                 within the floor of each other
 */
#ifndef SMM_GATE_H
#define SMM_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum smm_verdict {
	SMM_V_NO_CHANGE,
	SMM_V_REGRESSION,
	SMM_V_IMPROVEMENT,
	SMM_V_INCONCLUSIVE,
	SMM_V_TOO_FEW,
};

extern const char *const smm_verdict_names[];

struct smm_gate_result {
	enum smm_verdict v;
	double change_pct; /* Hodges-Lehmann change of (value + floor), % */
	double lo_pct, hi_pct; /* its confidence interval, % (not TOO_FEW) */
	double p; /* two-sided p of the U test */
	bool exact; /* p and interval from the exact distribution */
	uint64_t k; /* the interval's rank (0: TOO_FEW) */
	size_t runs_needed; /* TOO_FEW: runs per side that would do */
};

/*
 * smm_gate() - the verdict for @cand (@nc runs) against @base (@nb runs).
 * @higher_better: the figure's direction; @fl: its absolute floor (>= 0,
 * in the figure's unit); @threshold_pct: the smallest change that matters,
 * in percent (>= 0); @confidence: e.g. 0.95 (0.5..0.999).
 * Values must be finite and >= 0 (value + floor > 0 is required: a figure
 * with floor 0 and a 0 value gives -EDOM).
 * Return: 0, or -EINVAL (a count of 0, a confidence out of range), -EDOM
 * (a value that is not finite or not positive after the floor), -ENOMEM.
 */
int smm_gate(const double *base, size_t nb, const double *cand, size_t nc,
	     bool higher_better, double fl, double threshold_pct,
	     double confidence, struct smm_gate_result *r);

#endif /* SMM_GATE_H */
