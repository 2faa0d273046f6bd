// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate.c - figure definitions and verdicts.
 */
#include <stdlib.h>
#include <string.h>

#include "gate.h"

/* clang-format off */
const struct smm_metric_def smm_metric_defs[] = {
	{ "bogo-ops-per-second-real-time", true, "bogo-ops/s" },
	{ "bogo-ops-per-second-usr-sys-time", true, "bogo-ops/s" },
	{ "pages-faulted-per-second", true, "pages/s" },
	{ "allocations-per-second", true, "allocs/s" },
	{ "zone-locked-order0-per-1000-pages", false, "per 1000 pages" },
	{ "linux-mm-zone-locked-ratio-pct", false, "%" },
};
/* clang-format on */
const size_t smm_nr_metric_defs =
	sizeof(smm_metric_defs) / sizeof(smm_metric_defs[0]);

const char *const smm_verdict_names[] = {
	[SMM_V_NO_CHANGE] = "no change",     [SMM_V_REGRESSION] = "regression",
	[SMM_V_IMPROVEMENT] = "improvement", [SMM_V_NOISY] = "noisy",
	[SMM_V_UNREPEATED] = "unrepeated",
};

const struct smm_metric_def *smm_metric_def_of(const char *name)
{
	const char *dot = strchr(name, '.');
	const char *base = dot ? dot + 1 : name;

	for (size_t i = 0; i < smm_nr_metric_defs; i++)
		if (strcmp(base, smm_metric_defs[i].name) == 0)
			return &smm_metric_defs[i];
	return NULL;
}

enum smm_verdict smm_verdict(const struct smm_summary *base,
			     const struct smm_summary *cand, bool higher_better,
			     double threshold_pct, double *change_pct)
{
	double change = 0;
	bool worse, overlap;

	if (base->median != 0)
		change = (cand->median - base->median) / base->median * 100;
	*change_pct = change;
	if (base->n < SMM_MIN_RUNS || cand->n < SMM_MIN_RUNS)
		return SMM_V_UNREPEATED;
	if (change <= threshold_pct && change >= -threshold_pct)
		return SMM_V_NO_CHANGE;
	overlap = base->min <= cand->max && cand->min <= base->max;
	if (overlap)
		return SMM_V_NOISY;
	worse = higher_better ? change < 0 : change > 0;
	return worse ? SMM_V_REGRESSION : SMM_V_IMPROVEMENT;
}
