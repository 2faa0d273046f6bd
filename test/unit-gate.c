// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-gate.c - the gate of stress-mm compare without stress-ng: the exact
 * Mann-Whitney distribution against hand-counted values, the smallest run
 * counts at 95%, every verdict (regression, improvement, inconclusive, no
 * change, too few runs) in both directions, the zero base and the floor,
 * one outlier among 5 and among 7 runs, and the errors.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "gate.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static enum smm_verdict verdict(const double *b, size_t nb, const double *c,
				size_t nc, int higher, double fl, double conf,
				struct smm_gate_result *r)
{
	if (smm_gate(b, nb, c, nc, higher, fl, 5, conf, r))
		return (enum smm_verdict) - 1;
	return r->v;
}

int main(void)
{
	static const double base5[] = { 1000, 1010, 990, 1005, 995 };
	static const double drop5[] = { 800, 808, 792, 804, 796 };
	static const double rise5[] = { 1200, 1212, 1188, 1206, 1194 };
	static const double out5[] = { 800, 808, 1200, 804, 796 };
	static const double base7[] = { 1000, 1010, 990, 1005, 995, 1002, 998 };
	static const double out7[] = { 800, 808, 1200, 804, 796, 801, 799 };
	static const double same5[] = { 1001, 1009, 991, 1004, 996 };
	static const double noisy5[] = { 700, 1300, 800, 1250, 650 };
	static const double zero5[] = { 0, 0, 0, 0, 0 };
	static const double hi5[] = { 151, 193, 170, 160, 180 };
	static const double tiny5[] = { 1, 2, 1, 2, 1 };
	static const double bad[] = { 1, NAN, 2, 3 };
	struct smm_gate_result r;

	tap_plan(22);
	/* m = n = 3: 20 orderings, one with U = 0; m = n = 4: 70. */
	tap_ok(near(smm_mwu_cdf(3, 3, 0), 1.0 / 20) &&
		       near(smm_mwu_cdf(3, 3, 1), 2.0 / 20) &&
		       near(smm_mwu_cdf(3, 3, 9), 1),
	       "exact U distribution, 3 and 3 runs");
	tap_ok(near(smm_mwu_cdf(4, 4, 1), 2.0 / 70) &&
		       near(smm_mwu_cdf(5, 5, 5), 19.0 / 252) &&
		       near(smm_mwu_cdf(3, 5, 0), 1.0 / 56),
	       "exact U distribution, 4/4, 5/5 (19 of 252 at U <= 5), 3/5");
	tap_ok(near(smm_mwu_cdf(7, 3, 10.5), smm_mwu_cdf(3, 7, 10.5)),
	       "symmetric in the two sample sizes");
	tap_ok(verdict(base5, 3, drop5, 3, 1, 0.01, 0.95, &r) ==
			       SMM_V_TOO_FEW &&
		       r.runs_needed == 4,
	       "3 against 3 runs: too few for 95%%, 4 per side needed (%zu)",
	       r.runs_needed);
	tap_ok(verdict(base5, 3, drop5, 3, 1, 0.01, 0.80, &r) ==
		       SMM_V_REGRESSION,
	       "3 against 3 runs decide at 80%%");
	tap_ok(verdict(base5, 4, drop5, 4, 1, 0.01, 0.95, &r) ==
		       SMM_V_REGRESSION,
	       "4 against 4 runs decide at 95%%");
	tap_ok(verdict(base5, 3, drop5, 5, 1, 0.01, 0.95, &r) ==
		       SMM_V_REGRESSION,
	       "3 against 5 runs decide at 95%%");
	tap_ok(verdict(base5, 5, drop5, 5, 1, 0.01, 0.95, &r) ==
			       SMM_V_REGRESSION &&
		       r.change_pct < -19 && r.change_pct > -21 &&
		       r.hi_pct < 0 && r.lo_pct <= r.change_pct,
	       "a 20%% drop of a higher-is-better figure is a regression: %+.1f%% [%+.1f%%, %+.1f%%], p %.4f",
	       r.change_pct, r.lo_pct, r.hi_pct, r.p);
	tap_ok(r.p < 0.05, "  and its exact p is below 0.05 (%.4f)", r.p);
	tap_ok(verdict(base5, 5, rise5, 5, 1, 0.01, 0.95, &r) ==
		       SMM_V_IMPROVEMENT,
	       "a 20%% rise of a higher-is-better figure is an improvement");
	tap_ok(verdict(base5, 5, rise5, 5, 0, 5, 0.95, &r) == SMM_V_REGRESSION,
	       "a 20%% rise of a lower-is-better figure is a regression");
	tap_ok(verdict(base5, 5, drop5, 5, 0, 5, 0.95, &r) == SMM_V_IMPROVEMENT,
	       "a 20%% drop of a lower-is-better figure is an improvement");
	tap_ok(verdict(base5, 5, same5, 5, 1, 0.01, 0.95, &r) ==
		       SMM_V_NO_CHANGE,
	       "the same level is no change (%+.2f%%)", r.change_pct);
	tap_ok(verdict(base5, 5, noisy5, 5, 1, 0.01, 0.95, &r) ==
		       SMM_V_INCONCLUSIVE,
	       "beyond the threshold in noise is inconclusive (%+.1f%% [%+.1f%%, %+.1f%%])",
	       r.change_pct, r.lo_pct, r.hi_pct);
	tap_ok(verdict(base5, 5, out5, 5, 1, 0.01, 0.95, &r) ==
		       SMM_V_INCONCLUSIVE,
	       "one outlier among 5 runs leaves a 20%% drop inconclusive");
	tap_ok(verdict(base7, 7, out7, 7, 1, 0.01, 0.95, &r) ==
		       SMM_V_REGRESSION,
	       "one outlier among 7 runs does not hide a 20%% drop (p %.4f)",
	       r.p);
	tap_ok(verdict(zero5, 5, hi5, 5, 0, 5, 0.95, &r) == SMM_V_REGRESSION &&
		       r.change_pct > 100,
	       "a rise from 0 to ~170 of a lower-is-better figure is a regression (%+.0f%% of value + floor)",
	       r.change_pct);
	tap_ok(verdict(zero5, 5, tiny5, 5, 0, 5, 0.95, &r) == SMM_V_NO_CHANGE,
	       "a rise from 0 that stays below the floor is no change");
	tap_ok(verdict(zero5, 5, zero5, 5, 0, 5, 0.95, &r) == SMM_V_NO_CHANGE &&
		       near(r.change_pct, 0),
	       "0 against 0 is no change");
	tap_ok(smm_gate(bad, 4, base5, 4, 1, 0.01, 5, 0.95, &r) == -EDOM,
	       "NaN is refused (-EDOM)");
	tap_ok(smm_gate(zero5, 5, base5, 5, 1, 0, 5, 0.95, &r) == -EDOM,
	       "0 with a floor of 0 is refused (-EDOM)");
	tap_ok(smm_gate(base5, 0, base5, 5, 1, 0.01, 5, 0.95, &r) == -EINVAL &&
		       smm_gate(base5, 5, base5, 5, 1, 0.01, 5, 1.5, &r) ==
			       -EINVAL,
	       "no runs, or a confidence out of range, is refused (-EINVAL)");
	return tap_done();
}
