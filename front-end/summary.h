/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - statistics over the repeated runs of one figure: median,
 * min, max and the relative half-range ((max - min) / 2 / median, in
 * percent), the "median +- x%" kernel developers report.
 */
#ifndef SMM_SUMMARY_H
#define SMM_SUMMARY_H

#include <stddef.h>

struct smm_summary {
	size_t n;
	double median, min, max;
	double half_range_pct; /* 0 when the median is 0 */
};

/* smm_summary_of() - statistics of @n values (the array is sorted). */
void smm_summary_of(double *v, size_t n, struct smm_summary *s);

#endif /* SMM_SUMMARY_H */
