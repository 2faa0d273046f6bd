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
	SMM_VMO_P_METHOD, /* index: 0 = all, i + 1 = smm_vmpaths[i] */
	SMM_VMO_P_IO_URING, /* index: enum smm_iou_mode (vmpath.h) */
	SMM_VMO_NR_PARAMS
};

extern const struct smm_param smm_vmo_params[SMM_VMO_NR_PARAMS];

#endif /* SMM_PARAMS_TABLE_H */
