/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * supervise.h - one real stress-ng per requested stressor: started with
 * the plugin and its environment, its output read line by line (stressor
 * names restored, SKIP/FAIL/crash lines noted), reaped, and its exit
 * status turned into stress-ng's table (0 ok, 1 usage, 2 failure, 3 no
 * resource, 4 not implemented).
 */
#ifndef SMM_SUPERVISE_H
#define SMM_SUPERVISE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "options.h"

#define SMM_LINE_MAX 1024

enum { SMM_EX_OK, SMM_EX_USAGE, SMM_EX_FAIL, SMM_EX_NORES, SMM_EX_NOTIMPL };

struct smm_child {
	const struct smm_stressor *st; /* NULL: stress-ng's own stressors */
	const char *name; /* for messages: the stressor, or "stress-ng" */
	pid_t pid;
	int out; /* its stdout+stderr; -1 once closed */
	char yaml[PATH_MAX]; /* its own --yaml (test-vmalloc: its log) */
	char buf[SMM_LINE_MAX];
	size_t used;
	int status; /* from waitpid() */
	bool done, failed, skipped, skip_noresource, crashed;
	char skip_reason[512];
	char fail_line[512];
};

/*
 * What the workers' stats files say about one stressor's run, for
 * smm_child_verdict(); stats_status -1 when no file was read.
 */
struct smm_child_facts {
	uint64_t bogo_ops; /* stress-ng's count */
	uint64_t work; /* pages faulted plus allocations (stats files) */
	int stats_status; /* smm_stats_exit_status(), worst worker; or -1 */
	const char *skip_reason; /* that worker's reason, or "" */
	uint64_t failures; /* failed calls counted by the workers */
	int fail_errno; /* errno of a failing worker's last failure */
	int stats_files; /* workers that reached the plugin method */
	const char *short_hint; /* what a bogo-op is, for "the run ended
				 * inside the first bogo-op"; NULL: none */
};

/*
 * smm_find_stress_ng() - @given when it is an executable file, else
 * stress-ng from PATH. Return: the path, or NULL with one line in @err.
 */
const char *smm_find_stress_ng(const char *given, char *err, size_t len);

/* smm_plugin_path() - stress-mm.so next to this executable. */
void smm_plugin_path(char *buf, size_t len);

/*
 * smm_child_start() - fork and exec stress-ng for stressor @s of @cfg:
 * --plugin N --plugin-so @so --plugin-method M [--plugin-ops N] [-t T]
 * --metrics[-brief] [--times] --yaml @tmp/<name>.yaml, then the arguments
 * after --, with the stressor's parameters in the environment. @s ==
 * SMM_NR_STRESSORS runs only the arguments after -- (stress-ng's own
 * stressors, counted around but never as ours), with -t and the metrics
 * and YAML options. vmalloc-order with method test-vmalloc runs no
 * stress-ng: the child runs the kernel's test_vmalloc (tv-run.h) and
 * writes its log lines to @tmp/<name>.tvlog. The child runs in a process group of its own (its
 * pid) and dies with the caller (PR_SET_PDEATHSIG, SIGKILL).
 * Return: 0, or -errno of pipe2(2)/fork(2) (nothing started).
 */
int smm_child_start(struct smm_child *c, const struct smm_run_cfg *cfg, int s,
		    const char *sng, const char *so, const char *tmp);

/* smm_child_read() - consume what the child printed; each line goes to
 * stderr with the stressor's name in place of "plugin". */
void smm_child_read(struct smm_child *c, const struct smm_run_cfg *cfg);

/* smm_child_reap() - true once the child has exited and its output ended. */
bool smm_child_reap(struct smm_child *c);

/*
 * smm_child_verdict() - the stressor's exit status (SMM_EX_*), from
 * stress-ng's own exit status (its table: 1 usage, 2 failure, 3 no
 * resource, 4 not implemented; a signal or another code is 2) and the
 * workers' stats files (@f), which decide over it: a counted failure is
 * 2, a SKIP 3 or 4 by the SKIP's errno (common/stats.h
 * smm_errno_exit_status()). No line's words decide a SKIP's class:
 * without any stats file (@f->stats_status -1) a SKIP line after status
 * 0 is 4, the cause unknown. One exception: stress-ng's own report of a
 * crashed worker ("Caught unexpected signal", "Segmentation", "double
 * free") is a failure, since the worker left no record and stress-ng 0.15
 * may exit 0. 0 bogo-ops with status 0 is a failure unless the run was
 * @stopped by a signal or the workers did work (@f->work > 0: the run
 * ended inside the first bogo-op, said on stderr with @f->short_hint,
 * status 0; or workers with stats files but no work: the run ended while
 * they set up their paths, said so, status 0). The lines the child printed only explain the status
 * (fail_line, skip_reason), on stderr.
 */
int smm_child_verdict(struct smm_child *c, const struct smm_child_facts *f,
		      bool stopped);

/* smm_worse_status() - the worse of two exit statuses (failure, then no
 * resource, then not implemented). */
int smm_worse_status(int a, int b);

#endif /* SMM_SUPERVISE_H */
