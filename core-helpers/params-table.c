// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * params-table.c - the parameter tables. The plugin parses the environment
 * with them; --help, the man page and the tests read them too.
 */
#include "params-table.h"
#include "vmpath.h"

/* clang-format off: tables read better as written */
static const char *const vmo_methods[] = {
	"all",
#define SMM_X(sym, name) name,
	SMM_VMO_PATHS(SMM_X)
#undef SMM_X
		NULL,
};

/* Order: enum smm_iou_mode (vmpath.h). */
static const char *const vmo_io_uring[] = { "buffers", "rings", "both", NULL };

const struct smm_param smm_vmo_params[SMM_VMO_NR_PARAMS] = {
	[SMM_VMO_P_BYTES] = {
		.option = "vmalloc-order-bytes",
		.env = "STRESS_MM_VMALLOC_ORDER_BYTES",
		.type = SMM_P_SIZE,
		.unit = "bytes",
		.min = 4096,
		.max = 1ULL << 30,
		.def = "16K",
		.help = "size of each vmalloc-backed allocation; each path maps "
			"it to the nearest size it can reach and says so",
	},
	[SMM_VMO_P_BATCH] = {
		.option = "vmalloc-order-batch",
		.env = "STRESS_MM_VMALLOC_ORDER_BATCH",
		.type = SMM_P_COUNT,
		.unit = "allocations",
		.min = 1,
		.max = 4096,
		.def = "16",
		.help = "allocations alive at once in one bogo-op; 1 recycles "
			"pages through the per-CPU lists, large batches force "
			"the buddy allocator; clamped to threads-max, pid_max, "
			"kernel.pty.max, RLIMIT_NOFILE and RLIMIT_MEMLOCK",
	},
	[SMM_VMO_P_METHOD] = {
		.option = "vmalloc-order-method",
		.env = "STRESS_MM_VMALLOC_ORDER_METHOD",
		.type = SMM_P_CHOICE,
		.def = "all",
		.choices = vmo_methods,
		.help = "path of the vmalloc_order method; all cycles through "
			"the paths this kernel backs",
	},
	[SMM_VMO_P_IO_URING] = {
		.option = "vmalloc-order-io-uring",
		.env = "STRESS_MM_VMALLOC_ORDER_IO_URING",
		.type = SMM_P_CHOICE,
		.def = "both",
		.choices = vmo_io_uring,
		.help = "io-uring path: registered buffers (their page tables, "
			"vmalloc when large enough and RLIMIT_MEMLOCK allows), "
			"provided-buffer rings in user memory (vmap), or both",
	},
};
/* clang-format on */
