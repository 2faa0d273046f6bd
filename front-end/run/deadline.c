// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * deadline.c - the causes of a run cut by its deadline or cut short.
 */
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "deadline.h"
#include "options.h"
#include "results.h"
#include "runner.h"
#include "stats.h"
#include "exit-status.h"

double smm_deadline_grace(uint64_t timeout_s)
{
	return 10.0 + (double)timeout_s / 10.0;
}

double smm_deadline_s(uint64_t timeout_s)
{
	return (double)timeout_s + smm_deadline_grace(timeout_s);
}

/* State and process group of @pid from /proc/PID/stat; 0, or -1 when it
 * is gone. The name may hold ')' and spaces: the fields follow the last
 * ')'. */
static int proc_state(const char *pid, char *state, pid_t *pgrp)
{
	char path[64], buf[512], *p;
	FILE *f;
	int pg, n;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	n = sscanf(p + 1, " %c %*d %d", state, &pg);
	*pgrp = pg;
	return n == 2 ? 0 : -1;
}

static bool in_groups(pid_t pg, const pid_t *pgids, int n)
{
	for (int i = 0; i < n; i++)
		if (pgids[i] == pg)
			return true;
	return false;
}

/* The first stopped member of the groups, or 0. */
static long stopped_member(const pid_t *pgids, int n, char *state)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		pid_t pg;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (proc_state(e->d_name, state, &pg) == 0 &&
		    (*state == 'T' || *state == 't') && in_groups(pg, pgids, n))
			found = strtol(e->d_name, NULL, 10);
	}
	closedir(d);
	return found;
}

/* Whether any worker left its record in @dir. */
static bool any_record(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool any = false;

	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = strstr(e->d_name, ".stats") != NULL;
	closedir(d);
	return any;
}

int smm_deadline_cause(const pid_t *pgids, int n, const char *stats_dir,
		       double after_s, char *why, size_t len)
{
	struct rlimit nproc;
	char state = '?';
	long pid = stopped_member(pgids, n, &state);

	if (pid) {
		snprintf(
			why, len,
			"a process of the run was stopped (pid %ld, state %c: SIGSTOP or a tracer) %.0f s after it started",
			pid, state, after_s);
		return SMM_EX_FAIL;
	}
	if (!any_record(stats_dir)) {
		getrlimit(RLIMIT_NPROC, &nproc);
		if (nproc.rlim_cur == RLIM_INFINITY)
			snprintf(
				why, len,
				"no worker could start in %.0f s (no worker record; fork refused?)",
				after_s);
		else
			snprintf(
				why, len,
				"no worker could start in %.0f s (no worker record; RLIMIT_NPROC is %llu)",
				after_s, (unsigned long long)nproc.rlim_cur);
		return SMM_EX_NORES;
	}
	snprintf(why, len,
		 "stress-ng was still running %.0f s after it started",
		 after_s);
	return SMM_EX_FAIL;
}

/* A cause for stressor @s, or false. */
static bool cut_short(const struct smm_run_cfg *cfg,
		      const struct smm_stressor_result *r, int s, char *why,
		      size_t len)
{
	int ws = r->wait_status;
	/* stress-ng's own time; without it (no metrics: its stressor
	 * process was killed) ours, for a stress-ng that said success */
	const double wall = r->wall_s > 0			? r->wall_s
			    : WIFEXITED(ws) && !WEXITSTATUS(ws) ? r->ran_s
								: 0;

	if (WIFSIGNALED(ws)) {
		snprintf(why, len,
			 "stress-ng for %s was killed by signal %d (%s)",
			 smm_stressors[s].name, WTERMSIG(ws),
			 strsignal(WTERMSIG(ws)));
		return true;
	}
	if (!cfg->timeout_s || cfg->st[s].ops || wall <= 0 ||
	    smm_skipped(r->record_status) ||
	    wall + 0.5 >= (double)cfg->timeout_s)
		return false;
	/* Built into stress-ng, with no record: a stressor that skipped
	 * ends early with 0 bogo-ops, and nothing here says it did. */
	if (!r->bogo_ops && !r->nrecords && r->runner && r->runner->no_record)
		return false;
	snprintf(
		why, len,
		"stress-ng for %s ended after %.1f s of -t %llu s (stopped by a signal from outside the run)",
		smm_stressors[s].name, wall,
		(unsigned long long)cfg->timeout_s);
	return true;
}

void smm_deadline_early(const struct smm_run_cfg *cfg,
			struct smm_run_result *res)
{
	for (int s = 0; s < SMM_NR_STRESSORS && !res->cut_why[0]; s++)
		if (res->st[s].asked &&
		    cut_short(cfg, &res->st[s], s, res->cut_why,
			      sizeof(res->cut_why)))
			res->cut_status = SMM_EX_FAIL;
}
