// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pairdiff.c - the k-th smallest pairwise difference by selection over
 * the implicit sorted matrix.
 */
#include <errno.h>
#include <stdlib.h>

#include "pairdiff.h"

/* Candidates left when they are gathered and sorted. */
#define GATHER_MIN 4096

struct sel {
	const double *b, *c;
	size_t m, n;
	size_t *lo, *hi; /* per row: candidates are columns [lo, hi) */
	size_t *lt, *le; /* per row: columns < pivot, <= pivot */
	uint64_t rng;
};

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double at(const struct sel *s, size_t i, size_t j)
{
	return s->c[j] - s->b[i];
}

/* lt[i], le[i] for every row, and their sums, in one walk each: b
 * ascends, so a row's boundary never moves left as i grows. */
static void count(struct sel *s, double p, uint64_t *nlt, uint64_t *nle)
{
	size_t jl = 0, je = 0;

	*nlt = *nle = 0;
	for (size_t i = 0; i < s->m; i++) {
		while (jl < s->n && at(s, i, jl) < p)
			jl++;
		while (je < s->n && at(s, i, je) <= p)
			je++;
		if (je < jl)
			je = jl;
		s->lt[i] = jl;
		s->le[i] = je;
		*nlt += jl;
		*nle += je;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The r-th (0-based) smallest of the candidates left. */
static int gather(const struct sel *s, uint64_t left, uint64_t r, double *out)
{
	double *v = malloc((size_t)left * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->m; i++)
		for (size_t j = s->lo[i]; j < s->hi[i]; j++)
			v[n++] = at(s, i, j);
	qsort(v, n, sizeof(*v), cmp_double);
	*out = v[r];
	free(v);
	return 0;
}

/* A pivot drawn uniformly from the candidates left. */
static double pivot(struct sel *s, uint64_t left)
{
	uint64_t r = next_rand(&s->rng) % left;
	size_t i = 0;

	while (r >= s->hi[i] - s->lo[i]) {
		r -= s->hi[i] - s->lo[i];
		i++;
	}
	return at(s, i, s->lo[i] + (size_t)r);
}

static int select_kth(struct sel *s, uint64_t k, double *out)
{
	uint64_t below = 0, left = (uint64_t)s->m * s->n;

	for (;;) {
		uint64_t nlt, nle;
		double p;

		if (left <= GATHER_MIN || left <= 4 * (uint64_t)(s->m + s->n))
			return gather(s, left, k - 1 - below, out);
		p = pivot(s, left);
		count(s, p, &nlt, &nle);
		if (k <= nlt) { /* the answer is below p */
			for (size_t i = 0; i < s->m; i++)
				if (s->hi[i] > s->lt[i])
					s->hi[i] = s->lt[i] > s->lo[i]
							   ? s->lt[i]
							   : s->lo[i];
		} else if (k > nle) { /* above p */
			for (size_t i = 0; i < s->m; i++)
				if (s->lo[i] < s->le[i])
					s->lo[i] = s->le[i] < s->hi[i]
							   ? s->le[i]
							   : s->hi[i];
		} else {
			*out = p;
			return 0;
		}
		below = left = 0;
		for (size_t i = 0; i < s->m; i++) {
			below += s->lo[i];
			left += s->hi[i] - s->lo[i];
		}
	}
}

int smm_pairdiff_kth(const double *b, size_t m, const double *c, size_t n,
		     uint64_t k, double *out)
{
	struct sel s = { .b = b, .c = c, .m = m, .n = n, .rng = 0x5eed };
	size_t *mem;
	int rc;

	if (!m || !n || k < 1 || k > (uint64_t)m * n)
		return -EINVAL;
	mem = calloc(4 * m, sizeof(*mem));
	if (!mem)
		return -ENOMEM;
	s.lo = mem;
	s.hi = mem + m;
	s.lt = mem + 2 * m;
	s.le = mem + 3 * m;
	for (size_t i = 0; i < m; i++)
		s.hi[i] = n;
	rc = select_kth(&s, k, out);
	free(mem);
	return rc;
}
