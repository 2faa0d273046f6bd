// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate.c - the Hodges-Lehmann change of ln(value + floor), its interval,
 * the U test's p and the verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "mwu.h"
#include "pairdiff.h"

const char *const smm_verdict_names[] = {
	[SMM_V_NO_CHANGE] = "no change",
	[SMM_V_REGRESSION] = "regression",
	[SMM_V_IMPROVEMENT] = "improvement",
	[SMM_V_INCONCLUSIVE] = "inconclusive",
	[SMM_V_TOO_FEW] = "too few runs",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of a sorted array of @n >= 1 values. */
static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* ln(v + fl) of every value, sorted, and the values' median; NULL on
 * ENOMEM. */
static double *logs_sorted(const double *v, size_t n, double fl, double *med)
{
	double *y = malloc(n * sizeof(*y));

	if (!y)
		return NULL;
	memcpy(y, v, n * sizeof(*y));
	qsort(y, n, sizeof(*y), cmp_double);
	*med = median_sorted(y, n);
	for (size_t i = 0; i < n; i++)
		y[i] = log(y[i] + fl);
	qsort(y, n, sizeof(*y), cmp_double);
	return y;
}

static double pct(double d)
{
	return (exp(d) - 1) * 100;
}

/* The median and the interval ends of the differences, in percent. */
static int change(const double *yb, size_t nb, const double *yc, size_t nc,
		  struct smm_gate_result *r)
{
	uint64_t nd = (uint64_t)nb * nc;
	double a, b;
	int rc;

	rc = smm_pairdiff_kth(yb, nb, yc, nc, (nd + 1) / 2, &a);
	if (!rc && nd % 2 == 0)
		rc = smm_pairdiff_kth(yb, nb, yc, nc, nd / 2 + 1, &b);
	else
		b = a;
	if (rc)
		return rc;
	r->change_pct = pct((a + b) / 2);
	if (!r->k)
		return 0;
	rc = smm_pairdiff_kth(yb, nb, yc, nc, r->k, &a);
	if (!rc)
		rc = smm_pairdiff_kth(yb, nb, yc, nc, nd + 1 - r->k, &b);
	r->lo_pct = pct(a);
	r->hi_pct = pct(b);
	return rc;
}

static enum smm_verdict decide(const struct smm_gate_result *r,
			       bool higher_better, double threshold_pct,
			       double median_gap, double fl)
{
	bool worse = higher_better ? r->change_pct < 0 : r->change_pct > 0;
	bool worse_sig = higher_better ? r->hi_pct < 0 : r->lo_pct > 0;
	bool better_sig = higher_better ? r->lo_pct > 0 : r->hi_pct < 0;

	/* Beyond the threshold, and the medians apart by more than the
	 * floor: a rise from 0 that stays below the floor is no change. */
	if (!(fabs(r->change_pct) > threshold_pct && median_gap > fl))
		return SMM_V_NO_CHANGE;
	if (worse && worse_sig)
		return SMM_V_REGRESSION;
	if (!worse && better_sig)
		return SMM_V_IMPROVEMENT;
	return SMM_V_INCONCLUSIVE;
}

static int check(const double *v, size_t n, double fl)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] < 0 || !(v[i] + fl > 0))
			return -EDOM;
	return 0;
}

int smm_gate(const double *base, size_t nb, const double *cand, size_t nc,
	     bool higher_better, double fl, double threshold_pct,
	     double confidence, struct smm_gate_result *r)
{
	double alpha = 1 - confidence, *yb, *yc, mb = 0, mc = 0;
	struct smm_mwu t;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!nb || !nc || !(confidence >= 0.5 && confidence <= 0.999) ||
	    !(fl >= 0) || !isfinite(fl) || !(threshold_pct >= 0))
		return -EINVAL;
	rc = check(base, nb, fl);
	if (!rc)
		rc = check(cand, nc, fl);
	if (rc)
		return rc;
	yb = logs_sorted(base, nb, fl, &mb);
	yc = logs_sorted(cand, nc, fl, &mc);
	rc = yb && yc ? 0 : -ENOMEM;
	if (!rc)
		rc = smm_mwu_test(yb, nb, yc, nc, &t);
	if (!rc)
		rc = smm_mwu_rank(&t, alpha, &r->k);
	if (!rc) {
		r->p = t.p;
		r->exact = t.exact;
		rc = change(yb, nb, yc, nc, r);
	}
	free(yb);
	free(yc);
	if (rc)
		return rc;
	if (!r->k) {
		r->v = SMM_V_TOO_FEW;
		r->runs_needed = smm_mwu_runs_needed(alpha);
		return 0;
	}
	r->v = decide(r, higher_better, threshold_pct, fabs(mc - mb), fl);
	return 0;
}
