// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-summary.c - the repeat summary (median, min, max, relative
 * half-range) on known sets, odd and even, unsorted, with ties and zeros.
 */
#include <math.h>
#include <string.h>

#include "summary.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

int main(void)
{
	struct smm_summary s;
	double odd[] = { 3, 1, 2 };
	double even[] = { 10, 40, 20, 30 };
	double one[] = { 7 };
	double zeros[] = { 0, 0, 0 };
	double ties[] = { 5, 5, 1, 5, 9 };

	tap_plan(6);
	smm_summary_of(odd, 3, &s);
	tap_ok(s.n == 3 && near(s.median, 2) && near(s.min, 1) &&
		       near(s.max, 3) && near(s.half_range_pct, 50),
	       "odd: median 2, range [1, 3], half-range 50%% (%g %g %g %g)",
	       s.median, s.min, s.max, s.half_range_pct);
	tap_ok(odd[0] == 1 && odd[2] == 3, "the values come back sorted");
	smm_summary_of(even, 4, &s);
	tap_ok(near(s.median, 25) && near(s.half_range_pct, 60),
	       "even: median is the mean of the middle two (%g), half-range %g%%",
	       s.median, s.half_range_pct);
	smm_summary_of(one, 1, &s);
	tap_ok(s.n == 1 && near(s.median, 7) && near(s.half_range_pct, 0),
	       "one run: its value, no range");
	smm_summary_of(zeros, 3, &s);
	tap_ok(near(s.median, 0) && s.half_range_pct == 0,
	       "all zero: median 0, half-range 0 (no division by 0)");
	smm_summary_of(ties, 5, &s);
	tap_ok(near(s.median, 5) && near(s.min, 1) && near(s.max, 9),
	       "ties: median 5, range [1, 9]");
	return tap_done();
}
