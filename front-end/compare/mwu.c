// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mwu.c - Mann-Whitney U: the statistic with its ties, the exact null
 * distribution in 128-bit integers, the normal approximation beyond, and
 * the interval rank.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "mwu.h"

typedef unsigned __int128 u128;

/* Relative slack of "a tail of alpha / 2": rounding, not statistics. */
#define TAIL_SLACK 1e-12

bool smm_mwu_exact(size_t m, size_t n)
{
	double lg;

	if (!m || !n || m > SMM_MWU_EXACT_CELLS || n > SMM_MWU_EXACT_CELLS ||
	    m * n > SMM_MWU_EXACT_CELLS)
		return false;
	lg = (lgamma((double)(m + n) + 1) - lgamma((double)m + 1) -
	      lgamma((double)n + 1)) /
	     log(2);
	return lg < SMM_MWU_EXACT_LOG2;
}

/*
 * How many of the C(m + n, m) orderings give U = 0 .. m n: the Gaussian
 * binomial [m + n choose m]_q as the product over i = 1..m of
 * (1 - q^(n+i)) / (1 - q^i). After each step the polynomial is
 * [n + i choose i]_q, whose coefficients are below C(m + n, m) < 2^128;
 * the steps in between may wrap, but the division by (1 - q^i) is exact,
 * so modulo 2^128 the result is the true count. Returns m n + 1 counts
 * (malloc'ed), or NULL. The caller checks smm_mwu_exact().
 */
static u128 *u_counts(size_t m, size_t n)
{
	size_t len, s = m < n ? m : n, l = m < n ? n : m;
	u128 *c;

	len = s * l + 1;
	c = calloc(len, sizeof(*c));
	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= s; i++) {
		size_t k = l + i, top = (i - 1) * l + k;

		if (top > len - 1)
			top = len - 1;
		for (size_t u = top; u >= k; u--)
			c[u] -= c[u - k];
		for (size_t u = i; u < len; u++)
			c[u] += c[u - i];
	}
	return c;
}

static u128 total_of(const u128 *c, size_t len)
{
	u128 t = 0;

	for (size_t u = 0; u < len; u++)
		t += c[u];
	return t;
}

/* P(U <= u) from the counts, u an integer in 0..len-1. */
static double cdf_at(const u128 *c, size_t len, u128 total, size_t u)
{
	u128 below = 0;

	for (size_t k = 0; k <= u && k < len; k++)
		below += c[k];
	return (double)below / (double)total;
}

double smm_mwu_cdf(size_t m, size_t n, double u)
{
	size_t len = m * n + 1;
	double r;
	u128 *c;

	if (!smm_mwu_exact(m, n) || !(u == u))
		return -1;
	if (u < 0)
		return 0;
	if (u >= (double)(len - 1))
		return 1;
	c = u_counts(m, n);
	if (!c)
		return -1;
	r = cdf_at(c, len, total_of(c, len), (size_t)floor(u));
	free(c);
	return r;
}

/* U and the tie term in one walk over the two sorted samples. */
static void statistic(const double *b, size_t m, const double *c, size_t n,
		      struct smm_mwu *t)
{
	size_t i = 0, j = 0, below = 0;

	t->u = 0;
	t->tie_term = 0;
	while (i < m || j < n) {
		double v = i < m && (j == n || b[i] < c[j]) ? b[i] : c[j];
		size_t tb = 0, tc = 0;
		double tt;

		while (i + tb < m && b[i + tb] == v)
			tb++;
		while (j + tc < n && c[j + tc] == v)
			tc++;
		t->u += (double)tc * (double)below +
			0.5 * (double)tc * (double)tb;
		tt = (double)(tb + tc);
		t->tie_term += tt * tt * tt - tt;
		below += tb;
		i += tb;
		j += tc;
	}
}

int smm_mwu_test(const double *base, size_t m, const double *cand, size_t n,
		 struct smm_mwu *t)
{
	double mn = (double)m * (double)n, nn = (double)(m + n), var, z;

	if (!m || !n)
		return -EINVAL;
	t->m = m;
	t->n = n;
	statistic(base, m, cand, n, t);
	var = mn / 12 * ((nn + 1) - t->tie_term / (nn * (nn - 1)));
	t->sigma = var > 0 ? sqrt(var) : 0;
	t->exact = smm_mwu_exact(m, n);
	if (t->exact) {
		size_t len = m * n + 1;
		double umax = t->u > mn - t->u ? t->u : mn - t->u;
		u128 *c = u_counts(m, n);

		if (!c)
			return -ENOMEM;
		/* P(U >= floor(umax)) = P(U <= m n - floor(umax)) */
		t->p = 2 * cdf_at(c, len, total_of(c, len),
				  len - 1 - (size_t)floor(umax));
		free(c);
	} else {
		z = fabs(t->u - mn / 2) - 0.5;
		t->p = t->sigma > 0 ? erfc(z / t->sigma / sqrt(2)) : 1;
	}
	if (t->p > 1)
		t->p = 1;
	return 0;
}

double smm_normal_quantile(double q)
{
	double lo = 0, hi = 40;

	/* P(Z > z) = erfc(z / sqrt 2) / 2 falls with z: bisect. */
	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / sqrt(2)) / 2 > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int smm_mwu_rank(const struct smm_mwu *t, double alpha, uint64_t *k)
{
	double half = alpha / 2 * (1 + TAIL_SLACK), mn;

	*k = 0;
	if (!(alpha > 0 && alpha < 1) || !t->m || !t->n)
		return -EINVAL;
	mn = (double)t->m * (double)t->n;
	if (t->exact) {
		size_t len = t->m * t->n + 1;
		u128 *c = u_counts(t->m, t->n), total, acc = 0;

		if (!c)
			return -ENOMEM;
		total = total_of(c, len);
		for (size_t u = 0; u < len; u++) {
			acc += c[u];
			if ((double)acc / (double)total > half)
				break;
			*k = u + 1;
		}
		free(c);
	} else {
		double r = floor(mn / 2 + 0.5 -
				 smm_normal_quantile(alpha / 2) * t->sigma);

		*k = r >= 1 ? (uint64_t)r : 0;
	}
	return 0;
}

size_t smm_mwu_runs_needed(double alpha)
{
	for (size_t n = 1; smm_mwu_exact(n, n); n++) {
		struct smm_mwu t = { .m = n, .n = n, .exact = true };
		uint64_t k;

		if (smm_mwu_rank(&t, alpha, &k))
			return 0;
		if (k)
			return n;
	}
	return 0;
}
