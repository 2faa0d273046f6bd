/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * supervise.h - one real stress-ng per requested stressor: started with
 * the plugin and its environment, its output relayed line by line
 * (stressor names restored) and reaped.
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

struct smm_child {
	const struct smm_stressor *st; /* NULL: stress-ng's own stressors */
	const char *name; /* for messages: the stressor, or "stress-ng" */
	pid_t pid;
	int out; /* its stdout+stderr; -1 once closed */
	char yaml[PATH_MAX]; /* its own --yaml (test-vmalloc: its log) */
	char buf[SMM_LINE_MAX];
	size_t used;
	int status; /* from waitpid() */
	bool done;
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

/* smm_child_read() - relay what the child printed: each line goes to
 * stderr, with the stressor's name in place of "plugin" in stress-ng's
 * dispatch and metrics lines; nothing in a line is read for meaning. */
void smm_child_read(struct smm_child *c, const struct smm_run_cfg *cfg);

/* smm_child_reap() - true once the child has exited and its output ended. */
bool smm_child_reap(struct smm_child *c);

#endif /* SMM_SUPERVISE_H */
