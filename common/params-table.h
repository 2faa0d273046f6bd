/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params-table.h - every stressor parameter, defined once (see params.h).
 */
#ifndef SMM_PARAMS_TABLE_H
#define SMM_PARAMS_TABLE_H

#include "params.h"

/* vmalloc-order, in the order --help lists them. */
enum smm_vmo_param {
	SMM_VMO_P_BYTES, /* bytes: size of one allocation */
	SMM_VMO_P_BATCH, /* allocations alive at once per bogo-op */
	SMM_VMO_P_METHOD, /* index of the stressor's method words, then
			   * module (the plugin's), test-vmalloc (the
			   * front end's) */
	SMM_VMO_P_IO_URING, /* index of the stressor's words */
	SMM_VMO_NR_PARAMS
};

extern const struct smm_param smm_vmo_params[SMM_VMO_NR_PARAMS];

/* shm-pcp, in the order --help lists them. */
enum smm_shm_param {
	SMM_SHM_P_BYTES, /* bytes: size of one shared-memory object */
	SMM_SHM_P_METHOD, /* index of the stressor's words */
	SMM_SHM_P_MODE, /* index of the stressor's words, then module */
	SMM_SHM_P_CHURN_BYTES, /* bytes; 0 = the churn path's natural size */
	SMM_SHM_P_CHURN_BATCH, /* allocations alive at once per churn batch */
	SMM_SHM_P_CHURN_PROCS, /* companions per worker */
	SMM_SHM_P_CPU, /* index of the stressor's words */
	SMM_SHM_NR_PARAMS
};

extern const struct smm_param smm_shm_params[SMM_SHM_NR_PARAMS];

/* Parameters of every stressor. */
enum smm_common_param {
	SMM_COMMON_P_STATS_DIR, /* 1 when set: per-worker stats files */
	SMM_COMMON_NR_PARAMS
};

extern const struct smm_param smm_common_params[SMM_COMMON_NR_PARAMS];

#endif /* SMM_PARAMS_TABLE_H */
