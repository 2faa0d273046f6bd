// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exit-status.c - the status table over records and stress-ng's status.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "options.h"
#include "results.h"
#include "runner.h"
#include "stats.h"
#include "exit-status.h"

/* What a row reads: one result, stress-ng's code, how the run ended. */
struct facts {
	const struct smm_stressor_result *r;
	int code; /* exit status, 128 + signal when killed */
	bool stopped;
	const char *hint; /* what one bogo-op is, or NULL */
};

/* A row: when it matches, the status and why. */
struct row {
	bool (*when)(const struct facts *f);
	int (*status)(const struct facts *f);
	void (*why)(const struct facts *f, char *buf, size_t len);
};

static bool usage(const struct facts *f)
{
	return f->code == SMM_EX_USAGE;
}

static bool crashed(const struct facts *f)
{
	return f->r->crash_signal != 0;
}

static bool failed_calls(const struct facts *f)
{
	return f->r->failures != 0;
}

static bool ng_failed(const struct facts *f)
{
	return f->code == SMM_EX_FAIL || f->code < 0 || f->code > 4;
}

static bool record_skip(const struct facts *f)
{
	return f->r->record_status == SMM_EX_NORES ||
	       f->r->record_status == SMM_EX_NOTIMPL;
}

static bool ng_skip(const struct facts *f)
{
	return f->code == SMM_EX_NORES || f->code == SMM_EX_NOTIMPL;
}

static bool stopped(const struct facts *f)
{
	return f->stopped;
}

static bool no_ops(const struct facts *f)
{
	return f->r->bogo_ops == 0;
}

static bool cut_in_first_op(const struct facts *f)
{
	return no_ops(f) && f->r->pages + f->r->allocs > 0;
}

static bool cut_in_setup(const struct facts *f)
{
	return no_ops(f) && f->r->nrecords > 0;
}

/* 0 bogo-ops from a runner whose workers keep no record: nothing here
 * tells a SKIP from a run that never started; stress-ng's status stands. */
static bool no_ops_no_record(const struct facts *f)
{
	return no_ops(f) && !f->r->nrecords && f->r->runner &&
	       f->r->runner->no_record;
}

static bool always(const struct facts *f)
{
	(void)f;
	return true;
}

static int ok(const struct facts *f)
{
	(void)f;
	return SMM_EX_OK;
}

static int fail(const struct facts *f)
{
	(void)f;
	return SMM_EX_FAIL;
}

static int code(const struct facts *f)
{
	return f->code;
}

static int skip_class(const struct facts *f)
{
	return f->r->record_status;
}

static void why_code(const struct facts *f, char *buf, size_t len)
{
	int sig = f->code - 128;

	if (sig > 0 && sig < NSIG)
		snprintf(
			buf, len,
			"stress-ng was killed by signal %d (%s) (the cause, when the run was cut, is said above)",
			sig, strsignal(sig));
	else
		snprintf(
			buf, len,
			"stress-ng exited with status %d (see its messages above)",
			f->code);
}

static void why_ng_skip(const struct facts *f, char *buf, size_t len)
{
	(void)f;
	snprintf(buf, len,
		 "stress-ng exited with this status (see its messages above)");
}

static void why_crash(const struct facts *f, char *buf, size_t len)
{
	snprintf(buf, len, "a worker crashed with signal %d (%s)",
		 f->r->crash_signal, strsignal(f->r->crash_signal));
}

static void why_failures(const struct facts *f, char *buf, size_t len)
{
	char errtext[80] = "";

	if (f->r->fail_errno)
		snprintf(errtext, sizeof(errtext), " errno=%d (%s)",
			 f->r->fail_errno, strerror(f->r->fail_errno));
	snprintf(buf, len,
		 "the workers counted %llu failed calls, the last: %s%s",
		 (unsigned long long)f->r->failures, f->r->fail_reason,
		 errtext);
}

static void why_skip(const struct facts *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s", f->r->skip_reason);
}

static void why_none(const struct facts *f, char *buf, size_t len)
{
	(void)f;
	if (len)
		buf[0] = '\0';
}

static void why_first_op(const struct facts *f, char *buf, size_t len)
{
	uint64_t work = f->r->pages + f->r->allocs;

	snprintf(
		buf, len,
		"the run ended inside the first bogo-op (%llu pages faulted or allocations made, 0 bogo-ops%s%s): lengthen -t or make the bogo-op smaller",
		(unsigned long long)work, f->hint ? ", " : "",
		f->hint ? f->hint : "");
}

static void why_setup(const struct facts *f, char *buf, size_t len)
{
	snprintf(
		buf, len,
		"the run ended while its %d worker(s) set up their paths (proofs and probes take about a second; 0 bogo-ops%s%s): lengthen -t",
		f->r->nrecords, f->hint ? ", " : "", f->hint ? f->hint : "");
}

static void why_no_record(const struct facts *f, char *buf, size_t len)
{
	snprintf(
		buf, len,
		"0 bogo-ops; %s, so stress-ng's status %d stands (its log says whether the stressor skipped, and why)",
		f->r->runner->no_record, f->code);
}

static void why_no_worker(const struct facts *f, char *buf, size_t len)
{
	(void)f;
	snprintf(buf, len,
		 "0 bogo-ops, no worker reached our stressor code, no SKIP");
}

/* The table exit-status.h lists, in its order. */
static const struct row rows[] = {
	{ usage, code, why_code },
	{ crashed, fail, why_crash },
	{ failed_calls, fail, why_failures },
	{ ng_failed, fail, why_code },
	{ record_skip, skip_class, why_skip },
	{ ng_skip, code, why_ng_skip },
	{ stopped, ok, why_none },
	{ cut_in_first_op, ok, why_first_op },
	{ cut_in_setup, ok, why_setup },
	{ no_ops_no_record, code, why_no_record },
	{ no_ops, fail, why_no_worker },
	{ always, ok, why_none },
};

/* "--shm-pcp-bytes 8M per bogo-op, -t 60 s"; the value that ran when
 * the workers' records say it (results.h), else the one asked. */
static void bogo_op_hint(const struct smm_run_cfg *cfg,
			 const struct smm_stressor_result *r, int s, char *buf,
			 size_t len)
{
	const struct smm_stressor *st = &smm_stressors[s];
	int p = st->bogo_op_param;
	char dur[32], lo[24], hi[24], val[56];

	snprintf(dur, sizeof(dur), "-t %llu s",
		 (unsigned long long)cfg->timeout_s);
	if (r->nran && p == st->ran_bytes_param) {
		smm_param_format(&st->params[p], r->bytes_min, lo, sizeof(lo));
		smm_param_format(&st->params[p], r->bytes_max, hi, sizeof(hi));
		snprintf(val, sizeof(val), "%s%s%s", lo,
			 r->bytes_min != r->bytes_max ? ".." : "",
			 r->bytes_min != r->bytes_max ? hi : "");
	} else {
		smm_param_text(st, &cfg->st[s], p, val, sizeof(val));
	}
	snprintf(buf, len, "--%s %s per bogo-op, %s", st->params[p].option, val,
		 cfg->timeout_s ? dur : "stress-ng's own -t");
}

int smm_stressor_status(const struct smm_run_cfg *cfg,
			struct smm_run_result *res, int s, bool stopped_run)
{
	struct smm_stressor_result *r = &res->st[s];
	const char *name =
		s < SMM_NR_STRESSORS ? smm_stressors[s].name : "stress-ng";
	int ws = r->wait_status;
	char hint[200];
	struct facts f = {
		.r = r,
		.code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws),
		.stopped = stopped_run,
		.hint = NULL,
	};
	const struct row *row = rows;

	if (s < SMM_NR_STRESSORS) {
		bogo_op_hint(cfg, r, s, hint, sizeof(hint));
		f.hint = hint;
	}
	while (!row->when(&f))
		row++;
	r->status = row->status(&f);
	row->why(&f, r->why, sizeof(r->why));
	if (r->status == SMM_EX_FAIL || r->status == SMM_EX_USAGE)
		fprintf(stderr, "stress-mm: %s failed: %s\n", name, r->why);
	else if (smm_skipped(r->status))
		fprintf(stderr, "stress-mm: %s skipped: %s\n", name, r->why);
	else if (r->why[0])
		fprintf(stderr, "stress-mm: %s: %s\n", name, r->why);
	return r->status;
}

int smm_run_status(const struct smm_run_cfg *cfg, struct smm_run_result *res,
		   bool start_failed, int stop_signal)
{
	/* a run that was stopped or cut says why once: no stressor's advice
	 * on a run that ended inside its first bogo-op */
	bool stopped_run = start_failed || stop_signal || res->cut_why[0];

	/* first: the stressors' lines that follow refer to it ("said above") */
	if (res->cut_why[0] && !stop_signal)
		fprintf(stderr, "stress-mm: the run was cut: %s\n",
			res->cut_why);
	res->status = SMM_EX_OK;
	for (int s = 0; s <= SMM_NR_STRESSORS; s++)
		if (res->st[s].asked)
			res->status = smm_worse_status(
				res->status,
				smm_stressor_status(cfg, res, s, stopped_run));
	if (start_failed)
		res->status = SMM_EX_FAIL;
	if (res->cut_why[0] && !stop_signal)
		res->status = res->cut_status; /* the cause's, not the kill's */
	res->interrupted = stop_signal != 0 || res->cut_why[0];
	if (stop_signal)
		res->status = 128 + stop_signal;
	return res->status;
}

bool smm_skipped(int st)
{
	return st == SMM_EX_NORES || st == SMM_EX_NOTIMPL;
}
