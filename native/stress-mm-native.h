/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stress-mm-native.h - what the stress-mm stressors built into stress-ng
 * (stress-vmalloc-order.c, stress-shm-pcp.c in this folder, copied into a
 * stress-ng tree at build time) share: their options, read through
 * stress-mm's parameter tables, and the mapping of a stressor core's
 * outcome (outcome.h) onto stress-ng's exit statuses and log.
 *
 * Compiled in stress-ng's tree, after "stress-ng.h". stress-mm-sng.h,
 * written by native/apply.sh for the tree at hand, names the few stress-ng
 * functions whose names changed between 0.19 and 0.22.
 */
#ifndef STRESS_MM_NATIVE_H
#define STRESS_MM_NATIVE_H

#include "outcome.h"
#include "params-table.h"
#include "stress-mm-sng.h"

/*
 * smm_sng_opt() - stress-ng's TYPE_ID_CALLBACK parser of every option of
 * ours: the table row whose option is @opt_name parses @opt_arg
 * (params.h grammar and range) into a uint64_t setting (bytes, the count,
 * or the index of the choice). A bad value, or a word only stress-mm's
 * front end runs (test-vmalloc), prints one line, e.g.
 *   --vmalloc-order-bytes='16KK' is not a size (...); valid range 4K..1G
 *   (4096..1073741824 bytes)
 * and ends stress-ng with status 1 through its parse-error path.
 */
void smm_sng_opt(const char *opt_name, const char *opt_arg,
		 stress_type_id_t *type_id, void *value);

/*
 * smm_sng_init() - a stressor's init(), in stress-ng's main process before
 * any worker exists: check the STRESS_MM_* variables of @table (and
 * STRESS_MM_STATS_DIR) that no option overrides; a bad one prints
 * "<stressor>: <message>" and ends stress-ng with status 1. Then map the
 * pages every worker of the run shares (notes once per run, placement
 * slots) and send the cores' lines to stress-ng's log.
 */
void smm_sng_init(const char *stressor, const struct smm_param *table, int n);

/*
 * smm_sng_params() - the value of every parameter of @table for a worker:
 * the option when given, else its STRESS_MM_* variable when set, else the
 * table's default. Checked by smm_sng_opt() and smm_sng_init() already.
 */
void smm_sng_params(const struct smm_param *table, int n, uint64_t *vals);

/*
 * smm_sng_exit() - the stressor's exit status for the outcome @o of its
 * last step, said stress-ng's way: EXIT_SUCCESS; a SKIP of no resource
 * (EXIT_NO_RESOURCE) or not implemented here (EXIT_NOT_IMPLEMENTED)
 * with pr_inf_skip "<name>: <reason>, skipping stressor"; a FAIL, or a
 * set-up that went wrong, with pr_fail "<name>: <what> errno=N (text)"
 * and EXIT_FAILURE (stress-ng then exits 2).
 */
int smm_sng_exit(stress_args_t *args, const struct smm_outcome *o);

/* smm_sng_verify() - whether --verify was given. */
bool smm_sng_verify(void);

#endif /* STRESS_MM_NATIVE_H */
