// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-env.c - constructor-time parameter loading.
 */
#include <stdio.h>
#include <stdlib.h>

#include "params-table.h"
#include "plugin-env.h"
#include "report.h"
#include "stats.h"

static void load(const char *stressor, const struct smm_param *table, int n,
		 uint64_t *vals)
{
	char err[512];

	for (int i = 0; i < n; i++) {
		if (smm_param_from_env(&table[i], &vals[i], err, sizeof(err)) !=
		    0) {
			fprintf(stderr, "%s: %s\n", stressor, err);
			exit(EXIT_FAILURE);
		}
	}
}

void smm_plugin_env_load(const char *stressor, const struct smm_param *table,
			 int n, uint64_t *vals)
{
	uint64_t common[SMM_COMMON_NR_PARAMS];

	load(stressor, table, n, vals);
	/* Shared by both stressors: named after neither. */
	load("stress-mm", smm_common_params, SMM_COMMON_NR_PARAMS, common);
	smm_report_init();
}

const char *smm_stats_dir(void)
{
	const char *d = getenv(SMM_STATS_ENV);

	return d && d[0] ? d : NULL;
}
