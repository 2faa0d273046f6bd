/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin-env.h - what a stressor's constructor does while stress-ng loads
 * the shared object: read its parameter table from the environment, stop
 * stress-ng on the first bad value, and map the pages every worker of the
 * run shares (report.h's once-per-run page, placement.h's slots).
 */
#ifndef SMM_PLUGIN_ENV_H
#define SMM_PLUGIN_ENV_H

#include <stdint.h>

#include "params.h"

/*
 * smm_plugin_env_load() - warn once per process about every STRESS_MM_*
 * variable that is none of ours ("stress-mm: warning: NAME is not a
 * stress-mm variable and is ignored; did you mean CLOSEST?", envname.h),
 * parse every entry of @table into @vals, then the common table
 * (STRESS_MM_STATS_DIR). On the first bad value, or a word only the front
 * end runs (params.h front_end_from: "...='test-vmalloc' is run by
 * stress-mm's front end only (...); valid here: all|stack|..."), print
 * "<stressor>: <message>" (params.h) on stderr and exit(1) (stress-ng's
 * usage status) before any worker exists.
 */
void smm_plugin_env_load(const char *stressor, const struct smm_param *table,
			 int n, uint64_t *vals);

#endif /* SMM_PLUGIN_ENV_H */
