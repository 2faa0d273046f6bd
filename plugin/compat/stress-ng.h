/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin/compat/stress-ng.h - the part of stress-ng that the stressor files
 * (stress-vmalloc-order.c, stress-shm-pcp.c, core-vmalloc.c) use, for the
 * plugin, which compiles those very files: plugin/vmalloc-order.c is
 * `#include "../stress-vmalloc-order.c"` built with -Iplugin/compat first,
 * so that their `#include "stress-ng.h"` lands here.
 *
 * Written for the plugin, with stress-ng master's names and signatures and
 * nothing else: a name the files do not use is not here (grep them). The
 * functions are in plugin/compat.c; what the plugin's glue adds (settings
 * from STRESS_MM_* variables, the record, the stop signals) is in
 * plugin/compat.h.
 *
 * HAVE_* as stress-ng's config.h would say them on Linux with glibc: the
 * headers by __has_include, HAVE_LINUX_FUTEX_H and HAVE_MODIFY_LDT from our
 * own probes ($(BUILD)/config.h, Makefile.config).
 */
#ifndef SMM_COMPAT_STRESS_NG_H
#define SMM_COMPAT_STRESS_NG_H

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#if defined(__linux__) && defined(__GLIBC__)
#define HAVE_CLONE 1
#define HAVE_CPU_SET_T 1
#define HAVE_LIB_PTHREAD 1
#define HAVE_LIB_RT 1
#define HAVE_MEMFD_CREATE 1
#define HAVE_POSIX_OPENPT 1
#define HAVE_SCHED_GETAFFINITY 1
#define HAVE_SCHED_SETAFFINITY 1
#define HAVE_SHM_OPEN 1
#define HAVE_SHM_SYSV 1
#define HAVE_SHM_UNLINK 1
#endif
#if __has_include(<asm/ldt.h>)
#define HAVE_ASM_LDT_H 1
#endif
#if __has_include(<linux/filter.h>)
#define HAVE_LINUX_FILTER_H 1
#endif
#if __has_include(<linux/io_uring.h>)
#define HAVE_LINUX_IO_URING_H 1
#endif
#if __has_include(<sys/ipc.h>)
#define HAVE_SYS_IPC_H 1
#endif
#if __has_include(<sys/shm.h>)
#define HAVE_SYS_SHM_H 1
#endif

/* attributes */
#define ALWAYS_INLINE __attribute__((always_inline))
#define FORMAT(func, a, b) __attribute__((format(func, a, b)))
#define NORETURN __attribute__((noreturn))
#define MLOCKED_TEXT
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define KB (1ULL << 10)
#define MB (1ULL << 20)
#define GB (1ULL << 30)
#define SIZEOF_ARRAY(a) (sizeof(a) / sizeof((a)[0]))
#define STRESS_MINIMUM(a, b) (((a) < (b)) ? (a) : (b))
#define STRESS_MAXIMUM(a, b) (((a) > (b)) ? (a) : (b))

/* EXIT_SUCCESS and EXIT_FAILURE come from stdlib.h */
#define EXIT_NO_RESOURCE 3
#define EXIT_NOT_IMPLEMENTED 4

#define STRESS_STATE_RUN 2
#define STRESS_STATE_SYNC_WAIT 3
#define STRESS_STATE_DEINIT 4

#define CLASS_OS (1UL << 13)
#define CLASS_VM (1UL << 23)

#define STRESS_METRIC_GEOMETRIC_MEAN 1

#define OPT_FLAGS_VERIFY (1ULL << 5)
#define OPT_FLAGS_MINIMIZE (1ULL << 9)
#define OPT_FLAGS_MAXIMIZE (1ULL << 10)

/* The options of the two stressors (stress-ng: core-opts.h). */
enum {
	OPT_shm_pcp_bytes = 0x4000,
	OPT_shm_pcp_churn_batch,
	OPT_shm_pcp_churn_bytes,
	OPT_shm_pcp_churn_procs,
	OPT_shm_pcp_cpu,
	OPT_shm_pcp_method,
	OPT_shm_pcp_mode,
	OPT_vmalloc_order_batch,
	OPT_vmalloc_order_bytes,
	OPT_vmalloc_order_io_uring,
	OPT_vmalloc_order_method,
};

/* the option types the stressors' rows use (plugin/compat.c parses them) */
typedef enum {
	TYPE_ID_UNDEFINED = 0,
	TYPE_ID_SIZE_T,
	TYPE_ID_SIZE_T_BYTES_VM,
	TYPE_ID_SIZE_T_METHOD,
} stress_type_id_t;

typedef struct {
	const int opt;
	const char *opt_name;
	stress_type_id_t type_id;
	uint64_t min;
	uint64_t max;
	void *data; /* TYPE_ID_SIZE_T_METHOD: const char *(*)(const size_t) */
} stress_opt_t;

#define END_OPT                                                            \
	{                                                                  \
		0, NULL, TYPE_ID_UNDEFINED, (uint64_t)0, (uint64_t)0, NULL \
	}

typedef struct {
	const char *opt_s;
	const char *opt_l;
	const char *description;
} stress_help_t;

typedef enum {
	STRESS_EX_TYPE_FEATURE = 0,
	STRESS_EX_TYPE_LIBRARY,
	STRESS_EX_TYPE_SYSCALL,
	STRESS_EX_TYPE_END,
} stress_exercise_type_t;

typedef struct {
	stress_exercise_type_t type;
	const char *name;
} stress_exercises_t;

#define STRESS_EX_FEATURE(name)              \
	{                                    \
		STRESS_EX_TYPE_FEATURE, name \
	}
#define STRESS_EX_LIBRARY(name)              \
	{                                    \
		STRESS_EX_TYPE_LIBRARY, name \
	}
#define STRESS_EX_SYSCALL(name)              \
	{                                    \
		STRESS_EX_TYPE_SYSCALL, name \
	}
#define STRESS_EX_END                    \
	{                                \
		STRESS_EX_TYPE_END, NULL \
	}

typedef uint32_t stress_class_t;

typedef enum {
	VERIFY_OPTIONAL = 1,
} stress_verify_t;

/* A worker as the stressor sees it; the glue fills one in per worker. */
typedef struct {
	struct {
		volatile uint64_t max_ops;
		struct {
			uint64_t counter;
			bool counter_ready;
		} count;
	} bogo;
	const char *name; /* "vmalloc-order", "shm-pcp" */
	uint32_t instance; /* the worker's place in the run (compat.c) */
	uint32_t instances; /* workers of the stressor (compat.c) */
	size_t page_size;
} stress_args_t;

typedef struct stressor_info {
	int (*stressor)(stress_args_t *args);
	const stress_opt_t *opts;
	const stress_help_t *help;
	const stress_exercises_t *exercises;
	const stress_class_t classifier;
	const stress_verify_t verify;
	const char *unimplemented_reason;
} stressor_info_t;

typedef struct {
	pid_t pid;
} stress_pid_t;

/* 0 in the plugin: stress-ng does not tell a plugin about --verify. */
extern uint64_t g_opt_flags;

/* false once a stop signal reached this process (plugin/compat.h) */
extern volatile bool g_stress_continue_flag;

static inline bool ALWAYS_INLINE stress_continue_flag(void)
{
	return g_stress_continue_flag;
}

static inline void ALWAYS_INLINE stress_asm_mb(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static inline void ALWAYS_INLINE stress_bogo_inc(stress_args_t *args)
{
	args->bogo.count.counter_ready = false;
	stress_asm_mb();
	args->bogo.count.counter++;
	stress_asm_mb();
	args->bogo.count.counter_ready = true;
}

#define stress_continue(args)            \
	LIKELY(stress_continue_flag() && \
	       (args)->bogo.count.counter < (args)->bogo.max_ops)

static inline bool ALWAYS_INLINE stress_instance_zero(stress_args_t *args)
{
	return args->instance == 0;
}

/* Lines: pr_inf once per run (identical text), pr_inf_skip kept for the
 * glue's SKIP, pr_fail a FAIL line and a failure in the record. */
extern void pr_inf(const char *fmt, ...) FORMAT(printf, 1, 2);
extern void pr_inf_skip(const char *fmt, ...) FORMAT(printf, 1, 2);
extern void pr_fail(const char *fmt, ...) FORMAT(printf, 1, 2);

extern bool stress_setting_get(const char *name, void *value);
extern void stress_metrics_set(stress_args_t *args, const char *description,
			       const double value, const int mean_type);
extern double stress_time_now(void);
extern void stress_proc_state_set(const char *name, const int state);
extern void stress_sync_start_wait(stress_args_t *args);
extern void stress_parent_died_alarm(void);
extern int32_t stress_cpus_online_get(void);
extern int stress_unimplemented(stress_args_t *args);

extern int shim_futex_wake(const void *futex, const int n);
extern int shim_futex_wait(const void *futex, const int val,
			   const struct timespec *timeout);
extern int shim_madvise(void *addr, size_t length, int advice);
extern int shim_memfd_create(const char *name, unsigned int flags);
extern int shim_modify_ldt(int func, void *ptr, unsigned long int bytecount);
extern ssize_t shim_strscpy(char *dst, const char *src, size_t len);
extern int shim_usleep(uint64_t usec);
extern pid_t shim_waitpid(pid_t pid, int *wstatus, int options);

#endif /* SMM_COMPAT_STRESS_NG_H */
