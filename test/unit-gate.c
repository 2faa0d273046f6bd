// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-gate.c - the gate of stress-mm compare without stress-ng: the exact
 * Mann-Whitney distribution against hand-counted values and its symmetry
 * at 65 runs a side, the switch-over rule, two-sided p values (exact and
 * normal) against known values, the normal interval rank, the smallest
 * run counts at 95%, every verdict (regression, improvement, inconclusive,
 * no change, too few runs) in both directions, the zero base and the
 * floor, one outlier among 5 and among 7 runs, 20 to 10,000 runs a side,
 * and the errors. Each message prints the values of its own test.
 * test/96-gate-oracle.t checks p and interval against scipy.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gate.h"
#include "mwu.h"
#include "tap.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static enum smm_verdict verdict(const double *b, size_t nb, const double *c,
				size_t nc, int higher, double fl, double conf,
				struct smm_gate_result *r)
{
	if (smm_gate(b, nb, c, nc, higher, fl, 5, conf, r))
		return (enum smm_verdict) - 1;
	return r->v;
}

/* n values around 1000 with relative noise @sd, scaled by @f, in a fixed
 * shuffled order (noise quantiles of a normal, so no two are equal). */
static double *sample(size_t n, double sd, double f, unsigned int seed)
{
	double *v = malloc(n * sizeof(*v));

	srandom(seed);
	for (size_t i = 0; i < n; i++) {
		double q = ((double)i + 0.5) / (double)n;
		double z = q < 0.5 ? -smm_normal_quantile(q)
				   : smm_normal_quantile(1 - q);

		v[i] = 1000 * f * exp(sd * z);
	}
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)random() % (i + 1);
		double t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
	return v;
}

static void test_distribution(void)
{
	double a, b;

	/* m = n = 3: 20 orderings, one with U = 0; m = n = 4: 70. */
	tap_ok(near(smm_mwu_cdf(3, 3, 0), 1.0 / 20, 1e-15) &&
		       near(smm_mwu_cdf(3, 3, 1), 2.0 / 20, 1e-15) &&
		       near(smm_mwu_cdf(3, 3, 9), 1, 1e-15),
	       "exact U distribution, 3 and 3 runs");
	tap_ok(near(smm_mwu_cdf(4, 4, 1), 2.0 / 70, 1e-15) &&
		       near(smm_mwu_cdf(5, 5, 5), 19.0 / 252, 1e-15) &&
		       near(smm_mwu_cdf(3, 5, 0), 1.0 / 56, 1e-15),
	       "exact U distribution, 4/4, 5/5 (19 of 252 at U <= 5), 3/5");
	tap_ok(smm_mwu_cdf(7, 3, 10.5) == smm_mwu_cdf(3, 7, 10.5),
	       "symmetric in the two sample sizes");
	/* 65 x 65 = 4225 is odd: P(U <= 2112) = 1/2 by symmetry; the
	 * counts reach 9.5e37, far past a double's 2^53. */
	a = smm_mwu_cdf(65, 65, 2112);
	b = smm_mwu_cdf(65, 65, 2111) + smm_mwu_cdf(65, 65, 2113);
	tap_ok(a == 0.5 && near(b, 1, 1e-15),
	       "65 against 65: P(U <= 2112) = %.17g (1/2), P(U <= 2111) + P(U <= 2113) = %.17g (1)",
	       a, b);
	tap_ok(smm_mwu_exact(65, 65) && !smm_mwu_exact(66, 66) &&
		       smm_mwu_exact(8, 131072) && !smm_mwu_exact(8, 131073) &&
		       smm_mwu_exact(50, 88) && !smm_mwu_exact(50, 89) &&
		       smm_mwu_cdf(66, 66, 0) == -1,
	       "switch-over: exact to 65/65, 8/131072, 50/88; not 66/66, 8/131073, 50/89");
	tap_ok(smm_mwu_runs_needed(0.05) == 4 &&
		       smm_mwu_runs_needed(0.001) == 7,
	       "runs needed: 4 a side at 95%%, 7 at 99.9%% (%zu, %zu)",
	       smm_mwu_runs_needed(0.05), smm_mwu_runs_needed(0.001));
}

static void test_p(void)
{
	static const double base5[] = { 1000, 1010, 990, 1005, 995 };
	static const double drop5[] = { 800, 808, 792, 804, 796 };
	double b10[10], c10[10], b100[100], c100[100];
	struct smm_gate_result r;
	struct smm_mwu t;
	uint64_t k;
	int rc;

	rc = smm_gate(base5, 5, drop5, 5, 1, 0.01, 5, 0.95, &r);
	tap_ok(!rc && r.exact && near(r.p, 2.0 / 252, 1e-15),
	       "5 against 5 fully apart: exact two-sided p = 2/252 (%.6f; one-sided would be 1/252)",
	       r.p);
	for (int i = 0; i < 10; i++) {
		b10[i] = 100 + i;
		c10[i] = 200 + i;
	}
	rc = smm_gate(b10, 10, c10, 10, 1, 0.01, 5, 0.95, &r);
	tap_ok(!rc && r.exact && near(r.p, 2.0 / 184756, 1e-18),
	       "10 against 10 fully apart: p = 2/C(20,10) (%.3g)", r.p);
	/* base 1..100, candidate 51..150: 50 ties, U = 8750; scipy 1.10
	 * mannwhitneyu(method="asymptotic") gives 5.110578235277606e-20 */
	for (int i = 0; i < 100; i++) {
		b100[i] = 1 + i;
		c100[i] = 51 + i;
	}
	rc = smm_gate(b100, 100, c100, 100, 1, 0.01, 5, 0.95, &r);
	tap_ok(!rc && !r.exact && near(r.p / 5.110578235277606e-20, 1, 1e-9),
	       "100 against 100 with 50 ties: normal p %.15g (scipy 5.110578235277606e-20)",
	       r.p);
	rc = smm_mwu_test(b100, 100, c100, 100, &t);
	tap_ok(!rc && t.u == 8750 && t.tie_term == 50 * 6,
	       "  U %.1f (8750), tie term %.0f (300)", t.u, t.tie_term);
	rc = smm_mwu_rank(&t, 0.05, &k);
	tap_ok(!rc && k == 4198,
	       "  interval rank at 95%%: %llu (floor(5000.5 - 1.96 sigma) = 4198)",
	       (unsigned long long)k);
}

static void test_small(void)
{
	static const double base5[] = { 1000, 1010, 990, 1005, 995 };
	static const double drop5[] = { 800, 808, 792, 804, 796 };
	static const double rise5[] = { 1200, 1212, 1188, 1206, 1194 };
	static const double out5[] = { 800, 808, 1200, 804, 796 };
	static const double base7[] = { 1000, 1010, 990, 1005, 995, 1002, 998 };
	static const double out7[] = { 800, 808, 1200, 804, 796, 801, 799 };
	static const double same5[] = { 1001, 1009, 991, 1004, 996 };
	static const double noisy5[] = { 700, 1300, 800, 1250, 650 };
	struct smm_gate_result r;
	enum smm_verdict v;

	v = verdict(base5, 3, drop5, 3, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_TOO_FEW && r.runs_needed == 4,
	       "3 against 3 runs: too few for 95%%, 4 per side needed (%zu)",
	       r.runs_needed);
	v = verdict(base5, 3, drop5, 3, 1, 0.01, 0.80, &r);
	tap_ok(v == SMM_V_REGRESSION, "3 against 3 runs decide at 80%% (%s)",
	       smm_verdict_names[v]);
	v = verdict(base5, 4, drop5, 4, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION, "4 against 4 runs decide at 95%% (%s)",
	       smm_verdict_names[v]);
	v = verdict(base5, 3, drop5, 5, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION, "3 against 5 runs decide at 95%% (%s)",
	       smm_verdict_names[v]);
	v = verdict(base5, 5, drop5, 5, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION && r.change_pct < -19 &&
		       r.change_pct > -21 && r.hi_pct < 0 &&
		       r.lo_pct <= r.change_pct,
	       "a 20%% drop of a higher-is-better figure is a regression: %+.1f%% [%+.1f%%, %+.1f%%], p %.4f",
	       r.change_pct, r.lo_pct, r.hi_pct, r.p);
	v = verdict(base5, 5, rise5, 5, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_IMPROVEMENT,
	       "a 20%% rise of a higher-is-better figure is an improvement (%s, %+.1f%%)",
	       smm_verdict_names[v], r.change_pct);
	v = verdict(base5, 5, rise5, 5, 0, 5, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION,
	       "a 20%% rise of a lower-is-better figure is a regression (%s)",
	       smm_verdict_names[v]);
	v = verdict(base5, 5, drop5, 5, 0, 5, 0.95, &r);
	tap_ok(v == SMM_V_IMPROVEMENT,
	       "a 20%% drop of a lower-is-better figure is an improvement (%s)",
	       smm_verdict_names[v]);
	v = verdict(base5, 5, same5, 5, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_NO_CHANGE, "the same level is no change (%+.2f%%)",
	       r.change_pct);
	v = verdict(base5, 5, noisy5, 5, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_INCONCLUSIVE,
	       "beyond the threshold in noise is inconclusive (%+.1f%% [%+.1f%%, %+.1f%%])",
	       r.change_pct, r.lo_pct, r.hi_pct);
	v = verdict(base5, 5, out5, 5, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_INCONCLUSIVE,
	       "one outlier among 5 runs leaves a 20%% drop inconclusive (%s, p %.4f)",
	       smm_verdict_names[v], r.p);
	v = verdict(base7, 7, out7, 7, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION,
	       "one outlier among 7 runs does not hide a 20%% drop (%s, p %.4f)",
	       smm_verdict_names[v], r.p);
}

static void test_floor(void)
{
	static const double base5[] = { 1000, 1010, 990, 1005, 995 };
	static const double zero5[] = { 0, 0, 0, 0, 0 };
	static const double hi5[] = { 151, 193, 170, 160, 180 };
	static const double tiny5[] = { 1, 2, 1, 2, 1 };
	static const double bad[] = { 1, NAN, 2, 3 };
	struct smm_gate_result r;
	enum smm_verdict v;
	int rc, rc2;

	v = verdict(zero5, 5, hi5, 5, 0, 5, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION && r.change_pct > 100,
	       "a rise from 0 to ~170 of a lower-is-better figure is a regression (%+.0f%% of value + floor)",
	       r.change_pct);
	v = verdict(zero5, 5, tiny5, 5, 0, 5, 0.95, &r);
	tap_ok(v == SMM_V_NO_CHANGE,
	       "a rise from 0 that stays below the floor is no change (%s)",
	       smm_verdict_names[v]);
	v = verdict(zero5, 5, zero5, 5, 0, 5, 0.95, &r);
	tap_ok(v == SMM_V_NO_CHANGE && r.change_pct == 0 && r.p == 1,
	       "0 against 0 is no change (%+.2f%%, p %.4f)", r.change_pct, r.p);
	rc = smm_gate(bad, 4, base5, 4, 1, 0.01, 5, 0.95, &r);
	tap_ok(rc == -EDOM, "NaN is refused (%d, -EDOM)", rc);
	rc = smm_gate(zero5, 5, base5, 5, 1, 0, 5, 0.95, &r);
	tap_ok(rc == -EDOM, "0 with a floor of 0 is refused (%d, -EDOM)", rc);
	rc = smm_gate(base5, 0, base5, 5, 1, 0.01, 5, 0.95, &r);
	rc2 = smm_gate(base5, 5, base5, 5, 1, 0.01, 5, 1.5, &r);
	tap_ok(rc == -EINVAL && rc2 == -EINVAL,
	       "no runs, or a confidence out of range, is refused (%d, %d)", rc,
	       rc2);
}

/* @n runs a side: a 20% drop in 1% noise, and the same runs again. */
static void test_size(size_t n)
{
	double *b = sample(n, 0.01, 1, 1), *c = sample(n, 0.01, 0.8, 2);
	double *same = sample(n, 0.01, 1, 3);
	struct smm_gate_result r;
	enum smm_verdict v;

	v = verdict(b, n, c, n, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION && near(r.change_pct, -20, 0.5) &&
		       r.lo_pct <= r.change_pct && r.change_pct <= r.hi_pct &&
		       r.hi_pct < 0 && r.exact == smm_mwu_exact(n, n),
	       "%zu a side, %s: a 20%% drop is a regression: %+.2f%% [%+.2f%%, %+.2f%%], p %.3g",
	       n, r.exact ? "exact" : "normal", r.change_pct, r.lo_pct,
	       r.hi_pct, r.p);
	v = verdict(b, n, same, n, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_NO_CHANGE && r.p > 0.9 && r.lo_pct <= 0 &&
		       r.hi_pct >= 0,
	       "%zu a side: the same noise again is no change: %+.3f%% [%+.3f%%, %+.3f%%], p %.4f",
	       n, r.change_pct, r.lo_pct, r.hi_pct, r.p);
	free(b);
	free(c);
	free(same);
}

static void test_large(void)
{
	double *b = sample(100, 0.5, 1, 4), *c = sample(100, 0.5, 0.94, 5);
	double *b80 = sample(80, 0.02, 1, 6);
	struct smm_gate_result r, r65, r66;
	enum smm_verdict v;
	clock_t t0;

	/* The exact code in doubles gave this a backwards interval and a
	 * regression. */
	v = verdict(b, 100, c, 100, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_INCONCLUSIVE && r.lo_pct < 0 && r.hi_pct > 0 &&
		       r.lo_pct < r.change_pct && r.change_pct < r.hi_pct,
	       "100 a side, a 6%% drop in noise of sd 0.5 (ln): inconclusive %+.1f%% [%+.1f%%, %+.1f%%], p %.3f",
	       r.change_pct, r.lo_pct, r.hi_pct, r.p);
	v = verdict(b80, 80, b80, 80, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_NO_CHANGE && r.p > 0.9 && r.lo_pct <= 0 &&
		       r.hi_pct >= 0,
	       "80 a side, identical samples: no change, p %.4f (above 0.9), [%+.2f%%, %+.2f%%]",
	       r.p, r.lo_pct, r.hi_pct);
	/* Across the switch: 65 exact and 66 normal agree to within 0.01. */
	free(b);
	free(c);
	b = sample(66, 0.05, 1, 7);
	c = sample(66, 0.05, 0.98, 8);
	smm_gate(b, 65, c, 65, 1, 0.01, 5, 0.95, &r65);
	smm_gate(b, 66, c, 66, 1, 0.01, 5, 0.95, &r66);
	tap_ok(r65.exact && !r66.exact && near(r65.p, r66.p, 0.01) &&
		       near(r65.lo_pct, r66.lo_pct, 0.5) &&
		       near(r65.hi_pct, r66.hi_pct, 0.5),
	       "65 (exact) and 66 (normal) a side agree: p %.4f / %.4f, [%+.2f%%, %+.2f%%] / [%+.2f%%, %+.2f%%]",
	       r65.p, r66.p, r65.lo_pct, r65.hi_pct, r66.lo_pct, r66.hi_pct);
	free(b);
	free(c);
	free(b80);
	b = sample(10000, 0.05, 1, 9);
	c = sample(10000, 0.05, 0.9, 10);
	t0 = clock();
	v = verdict(b, 10000, c, 10000, 1, 0.01, 0.95, &r);
	tap_ok(v == SMM_V_REGRESSION && near(r.change_pct, -10, 0.5) &&
		       r.hi_pct < 0 && clock() - t0 < 5 * CLOCKS_PER_SEC,
	       "10,000 a side (10^8 differences, never formed): a 10%% drop, %+.2f%% [%+.2f%%, %+.2f%%], %.2f s",
	       r.change_pct, r.lo_pct, r.hi_pct,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(b);
	free(c);
}

int main(void)
{
	static const size_t sizes[] = { 8, 20, 50, 65, 66, 120, 500 };

	tap_plan(33 + 2 * (int)(sizeof(sizes) / sizeof(sizes[0])));
	test_distribution();
	test_p();
	test_small();
	test_floor();
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		test_size(sizes[i]);
	test_large();
	return tap_done();
}
