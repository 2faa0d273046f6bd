// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary.c - median, min, max and relative half-range.
 */
#include <stdlib.h>
#include <string.h>

#include "summary.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void smm_summary_of(double *v, size_t n, struct smm_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	if (s->median != 0)
		s->half_range_pct = (s->max - s->min) / 2 / s->median * 100;
}
