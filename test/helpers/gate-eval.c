// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate-eval - the gate of stress-mm compare (gate.h) on values from stdin,
 * for the scipy oracle (test/96-gate-oracle.t).
 *
 *   gate-eval M N FLOOR CONFIDENCE < M base values, then N candidate values
 *
 * Prints key value lines with 17 significant digits: exact (1 or 0), p,
 * k (the interval rank), change, lo, hi (percent) and the verdict.
 * Exit 0, or 1 on bad input or an error of the gate.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gate.h"

int main(int argc, char **argv)
{
	struct smm_gate_result r;
	size_t m, n;
	double *v, fl, conf;

	if (argc != 5) {
		fprintf(stderr,
			"usage: gate-eval M N FLOOR CONFIDENCE < values\n");
		return 1;
	}
	m = strtoul(argv[1], NULL, 10);
	n = strtoul(argv[2], NULL, 10);
	fl = strtod(argv[3], NULL);
	conf = strtod(argv[4], NULL);
	v = malloc((m + n + 1) * sizeof(*v));
	if (!v || !m || !n)
		return 1;
	for (size_t i = 0; i < m + n; i++)
		if (scanf("%lf", &v[i]) != 1)
			return 1;
	if (smm_gate(v, m, v + m, n, true, fl, 5, conf, &r))
		return 1;
	printf("exact %d\np %.17g\nk %llu\nchange %.17g\nlo %.17g\nhi %.17g\nverdict %s\n",
	       r.exact, r.p, (unsigned long long)r.k, r.change_pct, r.lo_pct,
	       r.hi_pct, smm_verdict_names[r.v]);
	free(v);
	return 0;
}
