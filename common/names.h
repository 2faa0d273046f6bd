/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.h - the lists of names the front end and the plugin's glue use: the
 * vmalloc-order paths, the io-uring kinds, the churn modes, the shm
 * methods and the placements. The stressor files keep their own (their
 * method tables, the path table of core-vmalloc.c), which
 * stress-ng's option parser reads; test/20-bad-input.t checks that both
 * hold the same words, and these lists add only what upstream will not
 * take (module, test-vmalloc).
 *
 * Each list is an X-macro: X(symbol, "user-visible name"). It gives the
 * enum the code switches on, the choices of the parameter that selects it
 * (params-table.c), and wherever else the names are printed or exported
 * (the plugin methods stress_vmalloc_order_<sym>, --help, the man page, the
 * bash completion, the tests' table dump). The order of a list is the order
 * of its choices and of its enum: append, never reorder (stats files and
 * reports carry the names, not the numbers, but the environment parser
 * maps a word to its index).
 */
#ifndef SMM_NAMES_H
#define SMM_NAMES_H

/* vmalloc-order paths (core-vmalloc.c's path table; module: the row
 * plugin/vmalloc-module.h adds to it):
 * the methods of STRESS_MM_VMALLOC_ORDER_METHOD after "all". */
#define SMM_VMO_PATHS(X)        \
	X(stack, "stack")       \
	X(io_uring, "io-uring") \
	X(bpf, "bpf")           \
	X(ldt, "ldt")           \
	X(pty, "pty")           \
	X(fdtable, "fdtable")   \
	X(module, "module")

enum smm_vmo_path_id {
#define SMM_X(sym, name) SMM_VMO_PATH_##sym,
	SMM_VMO_PATHS(SMM_X)
#undef SMM_X
		SMM_VMO_NR_PATHS
};

/* STRESS_MM_VMALLOC_ORDER_IO_URING: which io_uring kinds the io-uring path
 * uses (STRESS_VMALLOC_IO_URING_* of core-vmalloc.h). */
#define SMM_IOU_KINDS(X)              \
	X(SMM_IOU_BUFFERS, "buffers") \
	X(SMM_IOU_RINGS, "rings")     \
	X(SMM_IOU_BOTH, "both")

enum smm_iou_kind {
#define SMM_X(sym, name) sym,
	SMM_IOU_KINDS(SMM_X)
#undef SMM_X
};

/*
 * STRESS_MM_SHM_PCP_MODE: what shm-pcp's companions do (stress-shm-pcp.c's
 * modes; module: the path plugin/vmalloc-module.h adds). The modes that allocate churn the
 * vmalloc-order path of the same name (module: exact-size areas of
 * STRESS_MM_SHM_PCP_CHURN_BYTES through our device); spin burns the same
 * CPU without allocating (the control); none starts no companion.
 */
#define SMM_CHURN_MODES(X)                \
	X(SMM_CHURN_STACK, "stack")       \
	X(SMM_CHURN_IO_URING, "io-uring") \
	X(SMM_CHURN_BPF, "bpf")           \
	X(SMM_CHURN_LDT, "ldt")           \
	X(SMM_CHURN_PTY, "pty")           \
	X(SMM_CHURN_SPIN, "spin")         \
	X(SMM_CHURN_NONE, "none")         \
	X(SMM_CHURN_MODULE, "module")

enum smm_churn_mode {
#define SMM_X(sym, name) sym,
	SMM_CHURN_MODES(SMM_X)
#undef SMM_X
		SMM_CHURN_NR_MODES
};

/* STRESS_MM_SHM_PCP_METHOD: how shm-pcp makes its objects
 * (stress-shm-pcp.c). */
#define SMM_SHM_METHODS(X)        \
	X(SMM_SHM_POSIX, "posix") \
	X(SMM_SHM_MEMFD, "memfd") \
	X(SMM_SHM_SYSV, "sysv")

enum smm_shm_method {
#define SMM_X(sym, name) sym,
	SMM_SHM_METHODS(SMM_X)
#undef SMM_X
		SMM_SHM_NR_METHODS
};

/* STRESS_MM_SHM_PCP_CPU: CPU placement of a worker and its companions
 * (stress-shm-pcp.c). */
#define SMM_PLACEMENTS(X)           \
	X(SMM_CPU_SAME, "same")     \
	X(SMM_CPU_SPREAD, "spread") \
	X(SMM_CPU_ANY, "any")

enum smm_placement {
#define SMM_X(sym, name) sym,
	SMM_PLACEMENTS(SMM_X)
#undef SMM_X
		SMM_CPU_NR_PLACEMENTS
};

/*
 * The word lists, NULL-terminated, in enum order: the choices of the
 * parameters above, and the names reports print (names.c).
 */
extern const char *const smm_vmo_path_names[SMM_VMO_NR_PATHS + 1];
extern const char *const smm_iou_kind_names[];
extern const char *const smm_churn_names[SMM_CHURN_NR_MODES + 1];
extern const char *const smm_shm_method_names[SMM_SHM_NR_METHODS + 1];
extern const char *const smm_placement_names[SMM_CPU_NR_PLACEMENTS + 1];

#endif /* SMM_NAMES_H */
