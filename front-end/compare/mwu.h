/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mwu.h - the two-sided Mann-Whitney U test of two samples, right at every
 * sample size, and the rank of its distribution-free confidence interval
 * for a shift (gate.h uses both).
 *
 * U counts the (base, candidate) pairs where the candidate is larger, ties
 * one half: 0 <= U <= m n, mean m n / 2 under the null hypothesis.
 *
 * Switch-over rule (smm_mwu_exact()): the null distribution of U is exact
 * when the number of orderings C(m + n, m) is below 2^127 and m n is at
 * most SMM_MWU_EXACT_CELLS: then every count is an integer below 2^127,
 * computed without rounding in 128-bit arithmetic (the coefficients of the
 * Gaussian binomial [m + n choose m]_q, Harding's product of
 * (1 - q^(n+i)) / (1 - q^i); the divisions are exact, so wrapping
 * arithmetic modulo 2^128 gives the true counts). In run counts: exact up
 * to 65 against 65 (66 against 66 is approximate), 50 against 88,
 * 40 against 122, 20 against 666, 10 against 30,128, and m = 1 to 8 runs
 * against up to 2^20 / m. With ties the exact p uses U with ties one half
 * against the distribution without ties (scipy.stats.mannwhitneyu's
 * method="exact" does the same): ties narrow the true distribution, so
 * this errs on the side of a larger p.
 * Beyond the rule: the normal approximation with tie and continuity
 * correction, sigma^2 = m n / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 * over the groups of t tied values of the N = m + n, z = (|U - m n / 2| -
 * 1/2) / sigma, p = erfc(z / sqrt 2) at most 1 (scipy's
 * method="asymptotic", use_continuity=True).
 *
 * Interval rank k (smm_mwu_rank()): the largest k >= 1 with
 * P(U <= k - 1) <= alpha / 2, exactly; beyond the rule,
 * k = floor(m n / 2 + 1/2 - z(alpha / 2) sigma), sigma tie-corrected as
 * above. The interval for the shift is then [D(k), D(m n + 1 - k)], the
 * k-th smallest and k-th largest of the m n candidate - base differences
 * (pairdiff.h). k = 0: no interval exists at this confidence (too few
 * runs). A tail within 1e-12 (relative) of alpha / 2 counts as within.
 */
#ifndef SMM_MWU_H
#define SMM_MWU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMM_MWU_EXACT_LOG2 127 /* C(m + n, m) below 2^127 */
#define SMM_MWU_EXACT_CELLS (1u << 20) /* m n at most */

struct smm_mwu {
	size_t m, n; /* base and candidate sample sizes */
	double u; /* candidate > base pairs, ties one half */
	double tie_term; /* sum of t^3 - t over groups of t tied values */
	double sigma; /* sd of U under the null, tie-corrected */
	bool exact; /* smm_mwu_exact(m, n) */
	double p; /* two-sided */
};

/* smm_mwu_exact() - the switch-over rule above, for @m and @n >= 1. */
bool smm_mwu_exact(size_t m, size_t n);

/*
 * smm_mwu_test() - U and its two-sided p for @base (@m values) and @cand
 * (@n values), both sorted ascending and free of NaN.
 * Return: 0, -EINVAL (an empty sample), -ENOMEM.
 */
int smm_mwu_test(const double *base, size_t m, const double *cand, size_t n,
		 struct smm_mwu *t);

/*
 * smm_mwu_rank() - the interval rank k of @t at confidence 1 - @alpha
 * (0 < @alpha < 1) into *k; 0 when no interval exists.
 * Return: 0, -EINVAL, -ENOMEM.
 */
int smm_mwu_rank(const struct smm_mwu *t, double alpha, uint64_t *k);

/*
 * smm_mwu_cdf() - P(U <= @u) without ties, exactly, for samples of @m and
 * @n values within the rule. Returns -1 outside it or on bad arguments.
 */
double smm_mwu_cdf(size_t m, size_t n, double u);

/*
 * smm_mwu_runs_needed() - the smallest equal run count per side at which
 * an interval exists at confidence 1 - @alpha (95%: 4). 0 on error.
 */
size_t smm_mwu_runs_needed(double alpha);

/* smm_normal_quantile() - z with P(Z > z) = @q, 0 < @q <= 0.5. */
double smm_normal_quantile(double q);

#endif /* SMM_MWU_H */
