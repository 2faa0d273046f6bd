// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate.c - Mann-Whitney U with an exact null distribution, the
 * Hodges-Lehmann change and its interval, and the verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"

const char *const smm_verdict_names[] = {
	[SMM_V_NO_CHANGE] = "no change",
	[SMM_V_REGRESSION] = "regression",
	[SMM_V_IMPROVEMENT] = "improvement",
	[SMM_V_INCONCLUSIVE] = "inconclusive",
	[SMM_V_TOO_FEW] = "too few runs",
};

/*
 * The frequencies of U = 0..m*n under the null hypothesis: the
 * coefficients of the Gaussian binomial [m+n choose m]_q, built as the
 * product over i = 1..m of (1 - q^(n+i)) / (1 - q^i). Each step leaves a
 * polynomial with non-negative integer coefficients, exact in doubles
 * while they stay below 2^53 (about 25 runs a side), and accurate to the
 * last bits beyond. Returns a malloc'ed array of m*n+1 counts, or NULL.
 */
static double *u_counts(size_t m, size_t n)
{
	size_t len = m * n + 1;
	double *c = calloc(len, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t k = n + i, deg = (i - 1) * n; /* degree so far */

		/* x (1 - q^(n+i)) */
		for (size_t u = deg + k; u >= k; u--)
			if (u < len)
				c[u] -= c[u - k];
		/* / (1 - q^i): a running sum with step i */
		for (size_t u = i; u < len; u++)
			c[u] += c[u - i];
	}
	return c;
}

double smm_mwu_cdf(size_t m, size_t n, double u)
{
	double *c, below = 0, total = 0;

	if (!m || !n || m > SMM_GATE_MAX_RUNS || n > SMM_GATE_MAX_RUNS)
		return -1;
	c = u_counts(m, n);
	if (!c)
		return -1;
	for (size_t k = 0; k <= m * n; k++) {
		total += c[k];
		if ((double)k <= u)
			below += c[k];
	}
	free(c);
	return below / total;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The interval's rank: the largest k >= 1 with P(U <= k - 1) <= alpha / 2,
 * or 0 when even k = 1 is too likely (too few runs).
 */
static size_t interval_rank(const double *c, size_t len, double alpha)
{
	double total = 0, cum = 0;
	size_t k = 0;

	for (size_t u = 0; u < len; u++)
		total += c[u];
	for (size_t u = 0; u < len; u++) {
		cum += c[u];
		if (cum / total > alpha / 2)
			break;
		k = u + 1;
	}
	return k;
}

/* Runs per side (equal) at which an interval first exists. */
static size_t runs_needed(double alpha)
{
	for (size_t n = 1; n <= SMM_GATE_MAX_RUNS; n++) {
		double *c = u_counts(n, n);
		size_t k;

		if (!c)
			return 0;
		k = interval_rank(c, n * n + 1, alpha);
		free(c);
		if (k)
			return n;
	}
	return 0;
}

static double median_of(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s)), m;

	if (!s)
		return 0;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static double pct(double d)
{
	return (exp(d) - 1) * 100;
}

int smm_gate(const double *base, size_t nb, const double *cand, size_t nc,
	     bool higher_better, double fl, double threshold_pct,
	     double confidence, struct smm_gate_result *r)
{
	double alpha = 1 - confidence, u = 0, pl, ph, *d, *c;
	size_t nd = nb * nc, k;
	bool worse_sig, better_sig, beyond, worse;

	memset(r, 0, sizeof(*r));
	if (!nb || !nc || nb > SMM_GATE_MAX_RUNS || nc > SMM_GATE_MAX_RUNS ||
	    !(confidence >= 0.5 && confidence <= 0.999) || !(fl >= 0) ||
	    !(threshold_pct >= 0))
		return -EINVAL;
	for (size_t i = 0; i < nb + nc; i++) {
		double v = i < nb ? base[i] : cand[i - nb];

		if (!isfinite(v) || v < 0 || !(v + fl > 0))
			return -EDOM;
	}
	d = malloc(nd * sizeof(*d));
	c = u_counts(nb, nc);
	if (!d || !c) {
		free(d);
		free(c);
		return -ENOMEM;
	}
	/* Every candidate - base difference of ln(value + floor); U counts
	 * the pairs where the candidate is larger, ties one half. */
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nc; j++) {
			double x = log(cand[j] + fl) - log(base[i] + fl);

			d[i * nc + j] = x;
			u += x > 0 ? 1 : x == 0 ? 0.5 : 0;
		}
	qsort(d, nd, sizeof(*d), cmp_double);
	r->change_pct =
		pct(nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2);
	/* Exact two-sided p: the smaller tail, doubled. */
	pl = smm_mwu_cdf(nb, nc, ceil(u));
	ph = 1 - smm_mwu_cdf(nb, nc, floor(u) - 1);
	r->p = 2 * (pl < ph ? pl : ph);
	if (r->p > 1)
		r->p = 1;
	k = interval_rank(c, nd + 1, alpha);
	free(c);
	if (!k) {
		free(d);
		r->v = SMM_V_TOO_FEW;
		r->runs_needed = runs_needed(alpha);
		return 0;
	}
	r->lo_pct = pct(d[k - 1]);
	r->hi_pct = pct(d[nd - k]);
	free(d);
	worse = higher_better ? r->change_pct < 0 : r->change_pct > 0;
	worse_sig = higher_better ? r->hi_pct < 0 : r->lo_pct > 0;
	better_sig = higher_better ? r->lo_pct > 0 : r->hi_pct < 0;
	/* Beyond the threshold, and the medians apart by more than the
	 * floor: a rise from 0 that stays below the floor is no change. */
	beyond = fabs(r->change_pct) > threshold_pct &&
		 fabs(median_of(cand, nc) - median_of(base, nb)) > fl;
	if (!beyond)
		r->v = SMM_V_NO_CHANGE;
	else if (worse && worse_sig)
		r->v = SMM_V_REGRESSION;
	else if (!worse && better_sig)
		r->v = SMM_V_IMPROVEMENT;
	else
		r->v = SMM_V_INCONCLUSIVE;
	return 0;
}
