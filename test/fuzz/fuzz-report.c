// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-report - a libFuzzer target for the reports stress-mm compare
 * reads: the bytes are a report (compare-load.h); when it is read, it is
 * one side and a copy of it the other, and the comparison runs as compare
 * runs it: the differences, the figures collected, the gate and the
 * summary of each. Built by `make fuzz` (clang -fsanitize=fuzzer) and,
 * for the corpus replay in make check, with test/fuzz/replay.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compare-sides.h"
#include "gate.h"
#include "summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void compare_with_itself(struct smm_side *a, struct smm_side *b)
{
	struct smm_cmp_figures fs;
	char err[900];

	if (smm_run_set_diff(&a->r[0], &b->r[0], SMM_DIFF_SIDES, NULL) != 0)
		return;
	if (smm_cmp_collect(a, b, NULL, 0, &fs, err, sizeof(err)))
		return;
	for (size_t i = 0; i < fs.n; i++) {
		struct smm_cmp_figure *f = &fs.f[i];
		struct smm_gate_result g;
		struct smm_summary s;

		smm_gate(f->v[0], f->n[0], f->v[1], f->n[1],
			 f->def->higher_better, f->def->floor, 5, 0.95, &g);
		smm_summary_of(f->v[0], f->n[0], &s);
	}
	smm_cmp_figures_free(&fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smm_side a, b;
	char err[900];

	if (size > SMM_REPORT_MAX_BYTES)
		return 0;
	memset(&a, 0, sizeof(a));
	if (smm_run_set_parse(&a.r[0], "a", data, size, err, sizeof(err)))
		return 0;
	a.arg = "a";
	a.n = 1;
	a.nruns = a.r[0].nruns;
	memset(&b, 0, sizeof(b));
	if (!smm_run_set_parse(&b.r[0], "b", data, size, err, sizeof(err))) {
		b.arg = "b";
		b.n = 1;
		b.nruns = b.r[0].nruns;
		compare_with_itself(&a, &b);
		smm_side_free(&b);
	}
	smm_side_free(&a);
	return 0;
}
