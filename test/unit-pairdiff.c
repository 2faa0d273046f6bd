// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-pairdiff.c - the k-th smallest pairwise difference (pairdiff.h)
 * against every difference formed and sorted: random samples with and
 * without ties, of 1 to 400 values a side, at every rank up to 10,000
 * differences and at the first, last, middle and random ranks beyond; and
 * the bad arguments.
 */
#include <errno.h>
#include <stdlib.h>

#include "pairdiff.h"
#include "tap.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* @n values, sorted; with @ties, drawn from 8 levels only. */
static double *draw(size_t n, int ties)
{
	double *v = malloc(n * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = ties ? (double)(random() % 8)
			    : (double)random() / RAND_MAX * 100;
	qsort(v, n, sizeof(*v), cmp_double);
	return v;
}

/* Every rank (or, past 10,000, those of interest) of m x n against the
 * sorted differences; the first disagreement into *bad_k. */
static int agree(size_t m, size_t n, int ties, uint64_t *bad_k)
{
	double *b = draw(m, ties), *c = draw(n, ties);
	double *d = malloc(m * n * sizeof(*d));
	uint64_t nd = (uint64_t)m * n, ks[24];
	int ok = 1, nk = 0, all = nd <= 10000;

	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			d[i * n + j] = c[j] - b[i];
	qsort(d, nd, sizeof(*d), cmp_double);
	ks[nk++] = 1;
	ks[nk++] = nd;
	ks[nk++] = (nd + 1) / 2;
	ks[nk++] = nd / 2 + 1;
	while (nk < 24)
		ks[nk++] = 1 + (uint64_t)random() % nd;
	for (uint64_t i = 0; ok && i < (all ? nd : (uint64_t)nk); i++) {
		uint64_t k = all ? i + 1 : ks[i];
		double x;

		if (smm_pairdiff_kth(b, m, c, n, k, &x) || x != d[k - 1]) {
			*bad_k = k;
			ok = 0;
		}
	}
	free(b);
	free(c);
	free(d);
	return ok;
}

int main(void)
{
	static const size_t sizes[][2] = {
		{ 1, 1 },   { 1, 7 },	  { 7, 1 },    { 5, 5 },    { 3, 200 },
		{ 200, 3 }, { 100, 100 }, { 70, 143 }, { 400, 250 }
	};
	const size_t ns = sizeof(sizes) / sizeof(sizes[0]);
	double b[3] = { 1, 2, 3 }, x;

	tap_plan(2 * (int)ns + 1);
	srandom(42);
	for (int ties = 0; ties < 2; ties++)
		for (size_t i = 0; i < ns; i++) {
			uint64_t bad = 0;
			int ok = agree(sizes[i][0], sizes[i][1], ties, &bad);
			char why[48] = "";

			if (!ok)
				snprintf(why, sizeof(why), "; not at rank %llu",
					 (unsigned long long)bad);
			tap_ok(ok,
			       "%zu x %zu %s: %s ranks equal the sorted differences%s",
			       sizes[i][0], sizes[i][1],
			       ties ? "with ties" : "without ties",
			       sizes[i][0] * sizes[i][1] <= 10000 ? "all"
								  : "24",
			       why);
		}
	tap_ok(smm_pairdiff_kth(b, 3, b, 3, 0, &x) == -EINVAL &&
		       smm_pairdiff_kth(b, 3, b, 3, 10, &x) == -EINVAL &&
		       smm_pairdiff_kth(b, 0, b, 3, 1, &x) == -EINVAL,
	       "rank 0, a rank past m n and an empty sample are -EINVAL");
	return tap_done();
}
