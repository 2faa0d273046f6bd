/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin-env.h - what a stressor's constructor does while stress-ng loads
 * the shared object: read its parameter table from the environment, stop
 * stress-ng on the first bad value, and map the once-per-run page.
 */
#ifndef SMM_PLUGIN_ENV_H
#define SMM_PLUGIN_ENV_H

#include <stdint.h>

#include "params.h"

/*
 * smm_plugin_env_load() - parse every entry of @table into @vals, then the
 * common table (STRESS_MM_STATS_DIR). On the first bad value: print
 * "<stressor>: <message>" (params.h) on stderr and exit(1) (stress-ng's
 * usage status) before any worker exists.
 */
void smm_plugin_env_load(const char *stressor, const struct smm_param *table,
			 int n, uint64_t *vals);

/* smm_stats_dir() - STRESS_MM_STATS_DIR, or NULL when unset. */
const char *smm_stats_dir(void);

#endif /* SMM_PLUGIN_ENV_H */
