// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm-core.c - the shm-pcp stressor core.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "names.h"
#include "report.h"
#include "shm-core.h"
#include "shm-cycle.h"

static int skip(struct smm_shm *s, struct smm_outcome *o)
{
	smm_stats_skip(s->stats.s, o->err, o->text);
	smm_churn_stop(&s->churn);
	s->started = false;
	return SMM_OUT_SKIP;
}

static int fail(struct smm_shm *s, struct smm_outcome *o)
{
	smm_stats_fail(s->stats.s, o->err, o->text);
	smm_churn_stop(&s->churn);
	s->started = false;
	return SMM_OUT_FAIL;
}

/* " (batch N)" of the companions as they run, " (batch N of M asked)"
 * after a clamp in their set-up; "" when they allocate nothing (spin,
 * none). */
static void batch_text(uint64_t ran, uint64_t asked, char *buf, size_t len)
{
	if (!ran)
		snprintf(buf, len, "%s", "");
	else if (ran == asked)
		snprintf(buf, len, " (batch %llu)", (unsigned long long)ran);
	else
		snprintf(buf, len, " (batch %llu of %llu asked)",
			 (unsigned long long)ran, (unsigned long long)asked);
}

int smm_shm_start(struct smm_shm *s, const struct smm_shm_cfg *cfg,
		  struct smm_outcome *o)
{
	const uint64_t *param = cfg->param;
	enum smm_churn_kind kind = (enum smm_churn_kind)param[SMM_SHM_P_MODE];
	unsigned int procs = (unsigned int)param[SMM_SHM_P_CHURN_PROCS];
	struct smm_churn_cfg cc = {
		.stressor = cfg->stressor,
		.batch_var = cfg->batch_var,
		.kind = kind,
		.bytes = param[SMM_SHM_P_CHURN_BYTES],
		.batch = param[SMM_SHM_P_CHURN_BATCH],
		.plan = &s->plan,
	};
	char why[600], batch[64];
	int rc;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->pid = getpid();
	rc = smm_worker_stats_open(&s->stats, cfg->stressor);
	if (rc)
		return smm_outcome_skip(o, -rc, "no memory for the record");
	cc.stats = s->stats.s;
	if (kind == SMM_CHURN_NONE)
		procs = 0;
	rc = smm_placement_plan((enum smm_placement)param[SMM_SHM_P_CPU], procs,
				&s->plan);
	if (rc) {
		smm_outcome_skip(o, -rc, "placement: errno=%d (%s)", -rc,
				 strerror(-rc));
		return skip(s, o);
	}
	rc = smm_churn_start(&s->churn, &cc, why, sizeof(why));
	if (rc == -EINTR) {
		smm_outcome_stopped(o, "%s", why);
		s->started = false;
		return SMM_OUT_STOPPED;
	}
	if (rc) {
		smm_outcome_skip(o, -rc, "%s", why);
		return skip(s, o);
	}
	smm_stats_place(s->stats.s, s->plan.worker_cpu, s->plan.slot,
			s->plan.companion_cpu, s->plan.companions);
	batch_text(s->churn.batch, param[SMM_SHM_P_CHURN_BATCH], batch,
		   sizeof(batch));
	smm_note_once(
		"placement", cfg->stressor,
		"%s object of %llu bytes per bogo-op, churn %s x %u%s, placement %s",
		smm_shm_params[SMM_SHM_P_METHOD]
			.choices[param[SMM_SHM_P_METHOD]],
		(unsigned long long)param[SMM_SHM_P_BYTES],
		smm_churn_names[kind], procs, batch, s->plan.text);
	s->started = true;
	return smm_outcome_ok(o);
}

/* A companion ended under a running worker: a failure, by its signal or
 * its exit status (no errno: nothing failed in a call); or no resource
 * when it found none left mid-run and said so in the record (exit
 * SMM_EX_NORES). Return: @o->kind. */
static int companion_gone(struct smm_outcome *o, pid_t pid, int ws,
			  const struct smm_stats_file *rec)
{
	if (ws != -1 && WIFEXITED(ws) && WEXITSTATUS(ws) == SMM_EX_NORES &&
	    rec && __atomic_load_n(&rec->skipped, __ATOMIC_ACQUIRE))
		return smm_outcome_skip(o, rec->skip_errno, "%.255s",
					rec->skip_reason);
	if (ws != -1 && WIFSIGNALED(ws))
		smm_outcome_fail(
			o, 0, "churn companion %d was killed by signal %d (%s)",
			(int)pid, WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else if (ws != -1)
		smm_outcome_fail(o, 0,
				 "churn companion %d exited with status %d",
				 (int)pid, WEXITSTATUS(ws));
	else
		smm_outcome_fail(o, ECHILD,
				 "churn companion %d ended, reaped elsewhere",
				 (int)pid);
	return o->kind;
}

int smm_shm_op(struct smm_shm *s, struct smm_outcome *o)
{
	uint64_t m = s->cfg.param[SMM_SHM_P_METHOD];
	enum smm_shm_method method;
	char what[256];
	pid_t gone;
	long pages;
	int ws;

	if (s->seq % SMM_SHM_ALIVE_CHECK_EVERY == 0 &&
	    (gone = smm_churn_alive(&s->churn, &ws)) != 0)
		return companion_gone(o, gone, ws, s->stats.s) == SMM_OUT_SKIP
			       ? skip(s, o)
			       : fail(s, o);
	method = m == SMM_SHM_METHOD_ALL
			 ? (enum smm_shm_method)(s->seq % SMM_SHM_NR_METHODS)
			 : (enum smm_shm_method)m;
	pages = smm_shm_cycle(method, s->cfg.param[SMM_SHM_P_BYTES], s->seq++,
			      s->cfg.verify, s->stats.s, what, sizeof(what));
	if (pages == -ENOSPC || pages == -ENOMEM) {
		/* no resource: exit 3 */
		smm_outcome_skip(o, (int)-pages, "%s", what);
		return skip(s, o);
	}
	if (pages < 0) {
		smm_outcome_fail(o, (int)-pages, "%s", what);
		return fail(s, o);
	}
	if (s->cfg.verify)
		smm_note_once(
			"verify", s->cfg.stressor,
			"verify: every page read back held the word written to it (%ld pages per object)",
			pages);
	smm_stats_add(s->stats.s, calls, 1);
	return smm_outcome_ok(o);
}

uint64_t smm_shm_pages(const struct smm_shm *s)
{
	return s->stats.s
		       ? __atomic_load_n(&s->stats.s->pages, __ATOMIC_RELAXED)
		       : 0;
}

uint64_t smm_shm_churn_allocs(const struct smm_shm *s)
{
	return s->stats.s ? __atomic_load_n(&s->stats.s->churn_allocs,
					    __ATOMIC_RELAXED)
			  : 0;
}

void smm_shm_stop(struct smm_shm *s)
{
	smm_churn_stop(&s->churn);
	s->started = false;
	smm_worker_stats_close(&s->stats);
}
