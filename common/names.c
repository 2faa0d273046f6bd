// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names.c - the word lists of names.h.
 */
#include <stddef.h>

#include "names.h"

const char *const smm_vmo_path_names[SMM_VMO_NR_PATHS + 1] = {
#define SMM_X(sym, name) name,
	SMM_VMO_PATHS(SMM_X)
#undef SMM_X
		NULL,
};

const char *const smm_iou_kind_names[] = {
#define SMM_X(sym, name) name,
	SMM_IOU_KINDS(SMM_X)
#undef SMM_X
		NULL,
};

const char *const smm_churn_names[SMM_CHURN_NR_MODES + 1] = {
#define SMM_X(sym, name) name,
	SMM_CHURN_MODES(SMM_X)
#undef SMM_X
		NULL,
};

const char *const smm_shm_method_names[SMM_SHM_NR_METHODS + 1] = {
#define SMM_X(sym, name) name,
	SMM_SHM_METHODS(SMM_X)
#undef SMM_X
		NULL,
};

const char *const smm_placement_names[SMM_CPU_NR_PLACEMENTS + 1] = {
#define SMM_X(sym, name) name,
	SMM_PLACEMENTS(SMM_X)
#undef SMM_X
		NULL,
};
