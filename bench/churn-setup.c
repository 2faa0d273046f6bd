// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * churn-setup - how long a shm-pcp worker waits for its churn companions
 * to be ready (smm_churn_start(): fork, pin, the path's whole set-up, the
 * "ready" message), per churn kind, ROUNDS times each, interleaved. Not a
 * test: nothing fails on a timing. The time is the worker's wall clock
 * from the call to its return; stop and reap are not in it.
 *
 *   build/bench/churn-setup [ROUNDS [COMPANIONS [BATCH]]]
 *
 * Prints per kind: "churn KIND: median M ms, range [MIN, MAX] ms over N
 * (COMPANIONS companion(s), batch BATCH)", or the kind's SKIP reason.
 * Defaults: 10 rounds, 1 companion, batch 64 (shm-pcp's default churn).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "churn.h"
#include "placement.h"
#include "report.h"

#define MAX_ROUNDS 100

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const enum smm_churn_kind kinds[] = {
		SMM_CHURN_STACK, SMM_CHURN_LDT, SMM_CHURN_PTY, SMM_CHURN_SPIN
	};
	enum { NK = sizeof(kinds) / sizeof(kinds[0]) };
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	unsigned int procs = argc > 2 ? (unsigned int)atoi(argv[2]) : 1;
	uint64_t batch = argc > 3 ? strtoull(argv[3], NULL, 10) : 64;
	static double ms[NK][MAX_ROUNDS];
	char skip[NK][700];
	struct smm_plan plan;

	if (rounds < 1 || rounds > MAX_ROUNDS || procs < 1 ||
	    procs > SMM_MAX_COMPANIONS || batch < 1) {
		fprintf(stderr,
			"usage: churn-setup [ROUNDS 1..%d [COMPANIONS 1..%d [BATCH]]]\n",
			MAX_ROUNDS, SMM_MAX_COMPANIONS);
		return 2;
	}
	memset(skip, 0, sizeof(skip));
	smm_report_init();
	smm_placement_init();
	if (smm_placement_plan(SMM_CPU_SAME, procs, &plan)) {
		fprintf(stderr, "churn-setup: placement failed\n");
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < NK; k++) {
			struct smm_churn_cfg cfg = {
				.stressor = "shm-pcp",
				.batch_var = "--shm-pcp-churn-batch",
				.kind = kinds[k],
				.batch = batch,
				.plan = &plan,
			};
			struct smm_churn c;
			char why[600];
			double t0 = now_ms();
			int rc = smm_churn_start(&c, &cfg, why, sizeof(why));

			ms[k][r] = now_ms() - t0;
			smm_churn_stop(&c);
			if (rc)
				snprintf(skip[k], sizeof(skip[k]),
					 "%.600s errno=%d", why, -rc);
		}
	}
	for (int k = 0; k < NK; k++) {
		if (skip[k][0]) {
			printf("churn %s: SKIP: %s\n",
			       smm_churn_names[kinds[k]], skip[k]);
			continue;
		}
		qsort(ms[k], (size_t)rounds, sizeof(double), cmp);
		printf("churn %s: median %.1f ms, range [%.1f, %.1f] ms over %d (%u companion(s), batch %llu)\n",
		       smm_churn_names[kinds[k]],
		       rounds % 2
			       ? ms[k][rounds / 2]
			       : (ms[k][rounds / 2 - 1] + ms[k][rounds / 2]) /
					 2,
		       ms[k][0], ms[k][rounds - 1], rounds, procs,
		       (unsigned long long)batch);
	}
	return 0;
}
