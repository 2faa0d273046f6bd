// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-env.c - constructor-time parameter loading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "envname.h"
#include "params-table.h"
#include "placement.h"
#include "plugin-env.h"
#include "report.h"

static void load(const char *stressor, const struct smm_param *table, int n,
		 uint64_t *vals)
{
	char err[512];

	for (int i = 0; i < n; i++) {
		if (smm_param_parse_stressor(&table[i], getenv(table[i].env),
					     &vals[i], err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", stressor, err);
			exit(EXIT_FAILURE);
		}
	}
}

/* Once per process: one warning per STRESS_MM_* variable that is not ours. */
static void warn_unknown(void)
{
	static int done;
	const char *closest;

	if (done++)
		return;
	for (char **e = environ; e && *e; e++)
		if (smm_env_unknown(*e, &closest))
			fprintf(stderr,
				"stress-mm: warning: %.*s is not a stress-mm variable and is ignored%s%s%s\n",
				(int)strcspn(*e, "="), *e,
				closest ? "; did you mean " : "",
				closest ? closest : "", closest ? "?" : "");
}

void smm_plugin_env_load(const char *stressor, const struct smm_param *table,
			 int n, uint64_t *vals)
{
	uint64_t common[SMM_COMMON_NR_PARAMS];

	warn_unknown();
	load(stressor, table, n, vals);
	/* Shared by both stressors: named after neither. */
	load("stress-mm", smm_common_params, SMM_COMMON_NR_PARAMS, common);
	smm_report_init();
	smm_placement_init();
}
