// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runner.c - the table of runners.
 */
#include <stddef.h>

#include "results.h"
#include "runner.h"

/* In order: the first that takes a stressor runs it. */
static const struct smm_runner *const runners[] = {
	&smm_runner_stress_ng,
	&smm_runner_test_vmalloc,
	&smm_runner_native,
	&smm_runner_plugin,
};

const struct smm_runner *smm_runner_for(const struct smm_run_cfg *cfg, int s)
{
	for (size_t i = 0; i < sizeof(runners) / sizeof(runners[0]); i++)
		if (runners[i]->takes(cfg, s))
			return runners[i];
	return &smm_runner_plugin;
}
