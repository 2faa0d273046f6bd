// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmpath.c - the table of vmalloc-order paths.
 */
#include "vmpath.h"
#include "path-bpf.h"
#include "path-fdtable.h"
#include "path-io-uring.h"
#include "path-ldt.h"
#include "path-pty.h"
#include "path-stack.h"

const struct smm_vmpath *const smm_vmpaths[SMM_VMO_NR_PATHS] = {
	[SMM_VMO_PATH_stack] = &smm_vmpath_stack,
	[SMM_VMO_PATH_io_uring] = &smm_vmpath_io_uring,
	[SMM_VMO_PATH_bpf] = &smm_vmpath_bpf,
	[SMM_VMO_PATH_ldt] = &smm_vmpath_ldt,
	[SMM_VMO_PATH_pty] = &smm_vmpath_pty,
	[SMM_VMO_PATH_fdtable] = &smm_vmpath_fdtable,
};
