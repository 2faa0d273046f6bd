// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * params-table.c - the parameter tables. The plugin parses the environment
 * with them; --help, the man page and the tests read them too. The range
 * and default of a size or count, and the words of a choice, are the
 * stressor file's own (its opts[] row's MIN_, MAX_ and DEFAULT_ macros,
 * or the table its name function returns from: stressor-opts.h, generated
 * by scripts/stressor-opts); what stress-ng has no field for (the
 * variable, the unit, what the help[] line has no room for, the default
 * word) and the words only stress-mm takes are written here; an option's
 * help is its help[] line.
 */
#include "params-table.h"
#include "stressor-opts.h"

/* clang-format off: tables read better as written */
static const char *const vmo_methods[] = {
	SMM_OPT_VMALLOC_ORDER_METHOD_WORDS,
	"module", /* the path the plugin adds (plugin/vmalloc-module.h) */
	"test-vmalloc", /* the kernel's own test, run by the front end */
	NULL,
};

static const char *const vmo_io_uring[] = {
	SMM_OPT_VMALLOC_ORDER_IO_URING_WORDS,
	NULL,
};

static const char *const shm_methods[] = {
	SMM_OPT_SHM_PCP_METHOD_WORDS,
	NULL,
};

static const char *const shm_modes[] = {
	SMM_OPT_SHM_PCP_MODE_WORDS,
	"module", /* the path the plugin adds (plugin/vmalloc-module.h) */
	NULL,
};

static const char *const shm_cpus[] = {
	SMM_OPT_SHM_PCP_CPU_WORDS,
	NULL,
};

const struct smm_param smm_vmo_params[SMM_VMO_NR_PARAMS] = {
	[SMM_VMO_P_BYTES] = {
		.option = "vmalloc-order-bytes",
		.env = "STRESS_MM_VMALLOC_ORDER_BYTES",
		.type = SMM_P_SIZE,
		.unit = "bytes",
		.min = SMM_OPT_VMALLOC_ORDER_BYTES_MIN,
		.max = SMM_OPT_VMALLOC_ORDER_BYTES_MAX,
		.def = SMM_OPT_VMALLOC_ORDER_BYTES_DEF,
		.help = SMM_OPT_VMALLOC_ORDER_BYTES_HELP,
		.more = "the run says which size each path took",
	},
	[SMM_VMO_P_BATCH] = {
		.option = "vmalloc-order-batch",
		.env = "STRESS_MM_VMALLOC_ORDER_BATCH",
		.type = SMM_P_COUNT,
		.unit = "allocations",
		.min = SMM_OPT_VMALLOC_ORDER_BATCH_MIN,
		.max = SMM_OPT_VMALLOC_ORDER_BATCH_MAX,
		.def = SMM_OPT_VMALLOC_ORDER_BATCH_DEF,
		.help = SMM_OPT_VMALLOC_ORDER_BATCH_HELP,
		.more = "1 recycles pages through the per-CPU lists, large "
			"batches force the buddy allocator; the limits: "
			"threads-max, pid_max, kernel.pty.max, RLIMIT_NOFILE "
			"and RLIMIT_MEMLOCK",
	},
	[SMM_VMO_P_METHOD] = {
		.option = "vmalloc-order-method",
		.env = "STRESS_MM_VMALLOC_ORDER_METHOD",
		.type = SMM_P_CHOICE,
		.def = "all",
		.choices = vmo_methods,
		.front_end_from = SMM_OPT_VMALLOC_ORDER_METHOD_NWORDS + 1, /* test-vmalloc */
		.help = SMM_OPT_VMALLOC_ORDER_METHOD_HELP,
		.more = "all cycles through the paths this kernel backs; "
			"module (exact sizes from our kernel module) is taken "
			"only by name; test-vmalloc runs the kernel's "
			"test_vmalloc module instead (stress-mm only, as root)",
	},
	[SMM_VMO_P_IO_URING] = {
		.option = "vmalloc-order-io-uring",
		.env = "STRESS_MM_VMALLOC_ORDER_IO_URING",
		.type = SMM_P_CHOICE,
		.def = "both",
		.choices = vmo_io_uring,
		.help = SMM_OPT_VMALLOC_ORDER_IO_URING_HELP,
		.more = "registered buffers' page tables are vmalloc'ed when "
			"large enough and RLIMIT_MEMLOCK allows; provided-buffer "
			"rings are vmap areas over user memory",
	},
};

const struct smm_param smm_shm_params[SMM_SHM_NR_PARAMS] = {
	[SMM_SHM_P_BYTES] = {
		.option = "shm-pcp-bytes",
		.env = "STRESS_MM_SHM_PCP_BYTES",
		.type = SMM_P_SIZE,
		.unit = "bytes",
		.min = SMM_OPT_SHM_PCP_BYTES_MIN,
		.max = SMM_OPT_SHM_PCP_BYTES_MAX,
		.def = SMM_OPT_SHM_PCP_BYTES_DEF,
		.help = SMM_OPT_SHM_PCP_BYTES_HELP,
		.more = NULL,
	},
	[SMM_SHM_P_METHOD] = {
		.option = "shm-pcp-method",
		.env = "STRESS_MM_SHM_PCP_METHOD",
		.type = SMM_P_CHOICE,
		.def = "posix",
		.choices = shm_methods,
		.help = SMM_OPT_SHM_PCP_METHOD_HELP,
		.more = "POSIX shm_open, memfd_create or SysV shmget; all "
			"takes the three in turn, one per bogo-op",
	},
	[SMM_SHM_P_MODE] = {
		.option = "shm-pcp-mode",
		.env = "STRESS_MM_SHM_PCP_MODE",
		.type = SMM_P_CHOICE,
		.def = "stack",
		.choices = shm_modes,
		.help = SMM_OPT_SHM_PCP_MODE_HELP,
		.more = "a path churns the vmalloc-order path of that name; "
			"module: exact-size areas of shm-pcp-churn-bytes "
			"through /dev/stress-mm-vmalloc; spin: the same CPU, "
			"no allocation (the control); none: no companion",
	},
	[SMM_SHM_P_CHURN_BYTES] = {
		.option = "shm-pcp-churn-bytes",
		.env = "STRESS_MM_SHM_PCP_CHURN_BYTES",
		.type = SMM_P_SIZE,
		.unit = "bytes",
		.min = SMM_OPT_SHM_PCP_CHURN_BYTES_MIN,
		.max = SMM_OPT_SHM_PCP_CHURN_BYTES_MAX,
		.def = SMM_OPT_SHM_PCP_CHURN_BYTES_DEF,
		.help = SMM_OPT_SHM_PCP_CHURN_BYTES_HELP,
		.more = "churn module takes any page count",
	},
	[SMM_SHM_P_CHURN_BATCH] = {
		.option = "shm-pcp-churn-batch",
		.env = "STRESS_MM_SHM_PCP_CHURN_BATCH",
		.type = SMM_P_COUNT,
		.unit = "allocations",
		.min = SMM_OPT_SHM_PCP_CHURN_BATCH_MIN,
		.max = SMM_OPT_SHM_PCP_CHURN_BATCH_MAX,
		.def = SMM_OPT_SHM_PCP_CHURN_BATCH_DEF,
		.help = SMM_OPT_SHM_PCP_CHURN_BATCH_HELP,
		.more = NULL,
	},
	[SMM_SHM_P_CHURN_PROCS] = {
		.option = "shm-pcp-churn-procs",
		.env = "STRESS_MM_SHM_PCP_CHURN_PROCS",
		.type = SMM_P_COUNT,
		.unit = "processes",
		.min = SMM_OPT_SHM_PCP_CHURN_PROCS_MIN,
		.max = SMM_OPT_SHM_PCP_CHURN_PROCS_MAX,
		.def = SMM_OPT_SHM_PCP_CHURN_PROCS_DEF,
		.help = SMM_OPT_SHM_PCP_CHURN_PROCS_HELP,
		.more = NULL,
	},
	[SMM_SHM_P_CPU] = {
		.option = "shm-pcp-cpu",
		.env = "STRESS_MM_SHM_PCP_CPU",
		.type = SMM_P_CHOICE,
		.def = "same",
		.choices = shm_cpus,
		.help = SMM_OPT_SHM_PCP_CPU_HELP,
		.more = "same: pinned to the CPU the worker first runs on; "
			"spread: companions on other CPUs; any: no pinning",
	},
};

const struct smm_param smm_common_params[SMM_COMMON_NR_PARAMS] = {
	[SMM_COMMON_P_STATS_DIR] = {
		.option = "stats-dir",
		.env = "STRESS_MM_STATS_DIR",
		.type = SMM_P_DIR,
		.def = "unset (off)",
		.help = "directory where every worker keeps its counters in "
			"<stressor>.<pid>.stats (common/stats.h)",
	},
};
/* clang-format on */
