// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate-sim - the error rates of stress-mm compare's gate (gate.h) on real
 * run-to-run noise: from N measured runs of one configuration (one value
 * per line on stdin), draw S random disjoint splits of K base and K
 * candidate runs.
 *   A/A: how often the gate calls a regression or an improvement when
 *        nothing changed (its false-positive rate).
 *   shift: scale the candidate runs by (1 - d) for d = 0.5%, 1%, ... and
 *        report how often the gate calls the regression (its power); the
 *        smallest d detected in at least 80% and 50% of the splits.
 *
 *   gate-sim K SPLITS THRESHOLD_PCT CONFIDENCE_PCT FLOOR < values
 * Output: key: value lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gate.h"

#define MAX_VALUES 1000

static void draw(const double *v, size_t n, size_t k, double *b, double *c)
{
	size_t idx[MAX_VALUES];

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = 0; i < 2 * k; i++) { /* partial Fisher-Yates */
		size_t j = i + (size_t)random() % (n - i), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
	for (size_t i = 0; i < k; i++) {
		b[i] = v[idx[i]];
		c[i] = v[idx[k + i]];
	}
}

int main(int argc, char **argv)
{
	static double v[MAX_VALUES], b[MAX_VALUES / 2], c[MAX_VALUES / 2];
	double thr, conf, fl, d80 = -1, d50 = -1;
	size_t n = 0, k, splits, fp = 0, inc = 0;
	struct smm_gate_result r;

	if (argc != 6) {
		fprintf(stderr,
			"usage: gate-sim K SPLITS THRESHOLD_PCT CONFIDENCE_PCT FLOOR < values\n");
		return 1;
	}
	k = strtoul(argv[1], NULL, 10);
	splits = strtoul(argv[2], NULL, 10);
	thr = strtod(argv[3], NULL);
	conf = strtod(argv[4], NULL) / 100;
	fl = strtod(argv[5], NULL);
	while (n < MAX_VALUES && scanf("%lf", &v[n]) == 1)
		n++;
	if (k < 1 || 2 * k > n || !splits) {
		fprintf(stderr, "gate-sim: need at least 2K values (have %zu)\n",
			n);
		return 1;
	}
	srandom(1);
	for (size_t s = 0; s < splits; s++) {
		draw(v, n, k, b, c);
		if (smm_gate(b, k, c, k, 1, fl, thr, conf, &r))
			return 1;
		fp += r.v == SMM_V_REGRESSION || r.v == SMM_V_IMPROVEMENT;
		inc += r.v == SMM_V_INCONCLUSIVE;
	}
	printf("values: %zu\nruns-per-side: %zu\nsplits: %zu\n", n, k, splits);
	printf("aa-false-positive-pct: %.2f\naa-inconclusive-pct: %.2f\n",
	       100.0 * (double)fp / (double)splits,
	       100.0 * (double)inc / (double)splits);
	for (int step = 1; step <= 100 && d80 < 0; step++) {
		double d = step * 0.5, hit = 0;

		for (size_t s = 0; s < splits; s++) {
			draw(v, n, k, b, c);
			for (size_t i = 0; i < k; i++)
				c[i] *= 1 - d / 100;
			if (smm_gate(b, k, c, k, 1, fl, thr, conf, &r))
				return 1;
			hit += r.v == SMM_V_REGRESSION;
		}
		if (d50 < 0 && hit >= 0.5 * (double)splits)
			d50 = d;
		if (hit >= 0.8 * (double)splits)
			d80 = d;
	}
	printf("shift-detected-50pct: %.1f\nshift-detected-80pct: %.1f\n", d50,
	       d80);
	return 0;
}
