// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-exit-status.c - every status smm_stressor_status() (exit-status.h) can give, from
 * records that forked workers write through the workers' own API
 * (stats.h, record.h) and read back by the front end's reader (results.h),
 * with stress-ng's exit status: each row of the table, the rows' order
 * where two match (a failure over a SKIP, a record's SKIP over stress-ng's
 * 4, stress-ng's 2 over a record's SKIP), a real SIGSEGV caught by the
 * record's crash handler in front of a stress-ng-like one, a record of
 * another version not counted, and the run's status (the worst stressor,
 * a start failure, a stop signal).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "options.h"
#include "record.h"
#include "results.h"
#include "stats.h"
#include "tap.h"
#include "exit-status.h"

#define SHM 1 /* shm-pcp's index in smm_stressors[] */

static char dir[] = "/tmp/unit-exit-status.XXXXXX";
static struct smm_run_cfg cfg;
static struct smm_run_result res;

/* What one forked worker does with its record before it exits. */
typedef void (*work_fn)(struct smm_stats_file *s);

static void worker(work_fn fn)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct smm_stats_file *s = smm_stats_open(dir, "shm-pcp");

		if (s && fn)
			fn(s);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void ran(struct smm_stats_file *s)
{
	smm_stats_add(s, calls, 10);
	smm_stats_add(s, pages, 20480);
}

static void skip_eperm(struct smm_stats_file *s)
{
	smm_stats_skip(
		s, EPERM,
		"stack: cannot create a thread with clone(2) (RLIMIT_NPROC 4): errno=1 (Operation not permitted)");
}

static void skip_eagain(struct smm_stats_file *s)
{
	smm_stats_skip(s, EAGAIN, "stack: clone(2): errno=11");
}

static void skip_no_errno(struct smm_stats_file *s)
{
	smm_stats_skip(s, 0, "a skip without a cause");
}

static void fail_eio(struct smm_stats_file *s)
{
	ran(s);
	smm_stats_fail(s, EIO, "write of page 3");
}

static void fail_and_skip(struct smm_stats_file *s)
{
	smm_stats_fail(s, EIO, "write of page 3");
	smm_stats_skip(s, EAGAIN, "then a skip");
}

static void set_up_only(struct smm_stats_file *s)
{
	(void)s;
}

static void cut_first_op(struct smm_stats_file *s)
{
	smm_stats_add(s, pages, 119296);
}

/* stress-ng's plugin stressor: count the signal and _exit(1). */
static void ng_handler(int sig)
{
	(void)sig;
	_exit(1);
}

/* A worker that really faults, with stress-ng's handler installed first
 * and the record's in front of it. */
static void crashing_worker(void)
{
	static volatile int *volatile nowhere;
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, ng_handler);
		setenv(SMM_STATS_ENV, dir, 1);
		if (!smm_record_open("shm-pcp"))
			_exit(3);
		*nowhere = 1;
		_exit(4);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 1,
	       "a real SIGSEGV reached stress-ng's handler after the record's (exit %d)",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Read the records of the workers so far, then the exit status of shm-pcp
 * with stress-ng's @code (-SIG: killed) and @ops bogo-ops. */
static int status_of(int code, uint64_t ops, bool stopped)
{
	struct smm_stressor_result *r = &res.st[SHM];

	memset(&res, 0, sizeof(res));
	smm_read_records(dir, &res);
	r->asked = true;
	r->wait_status = code < 0 ? -code : code << 8;
	r->bogo_ops = ops;
	return smm_stressor_status(&cfg, &res, SHM, stopped);
}

static void rows(void)
{
	worker(ran);
	tap_ok(status_of(0, 10, false) == SMM_EX_OK && !res.st[SHM].why[0],
	       "bogo-ops, records without skip or failure: 0");
	worker(ran);
	worker(skip_eperm);
	tap_ok(status_of(4, 0, false) == SMM_EX_NOTIMPL,
	       "a record's EPERM SKIP is 4, though its reason names RLIMIT_NPROC");
	worker(skip_eagain);
	tap_ok(status_of(0, 0, false) == SMM_EX_NORES &&
		       !strcmp(res.st[SHM].why, "stack: clone(2): errno=11"),
	       "a record's EAGAIN SKIP is 3 though stress-ng exited 0; why is its reason");
	worker(skip_no_errno);
	tap_ok(status_of(0, 0, false) == SMM_EX_NOTIMPL,
	       "a record's SKIP without an errno is 4");
	worker(skip_eagain);
	tap_ok(status_of(4, 0, false) == SMM_EX_NORES,
	       "the record's class decides over stress-ng's own 4: 3");
	worker(fail_eio);
	tap_ok(status_of(0, 10, false) == SMM_EX_FAIL &&
		       strstr(res.st[SHM].why,
			      "1 failed calls, the last: write of page 3 errno=5"),
	       "a failure counted in a record is 2 though stress-ng exited 0 (%s)",
	       res.st[SHM].why);
	worker(fail_and_skip);
	tap_ok(status_of(0, 0, false) == SMM_EX_FAIL,
	       "a failure wins over a SKIP in the records: 2");
	crashing_worker();
	tap_ok(status_of(0, 10, false) == SMM_EX_FAIL &&
		       strstr(res.st[SHM].why, "crashed with signal 11"),
	       "the crash is in the record: 2 though stress-ng exited 0 (%s)",
	       res.st[SHM].why);
	worker(skip_eagain);
	tap_ok(status_of(1, 0, false) == SMM_EX_USAGE,
	       "stress-ng's usage status 1 wins over a record's SKIP");
	worker(ran);
	tap_ok(status_of(2, 10, false) == SMM_EX_FAIL,
	       "stress-ng's own 2 is 2");
	worker(skip_eagain);
	tap_ok(status_of(2, 0, false) == SMM_EX_FAIL,
	       "stress-ng's 2 wins over a record's SKIP");
	worker(ran);
	tap_ok(status_of(-SIGKILL, 10, false) == SMM_EX_FAIL &&
		       strstr(res.st[SHM].why, "killed by signal 9 (Killed)"),
	       "stress-ng killed by SIGKILL: 2, the signal named (%s)",
	       res.st[SHM].why);
	tap_ok(status_of(3, 0, false) == SMM_EX_NORES,
	       "stress-ng's own 3 without any record stays 3");
	tap_ok(status_of(4, 0, false) == SMM_EX_NOTIMPL,
	       "stress-ng's own 4 without any record stays 4");
}

static void zero_ops(void)
{
	worker(cut_first_op);
	tap_ok(status_of(0, 0, false) == SMM_EX_OK &&
		       strstr(res.st[SHM].why,
			      "the run ended inside the first bogo-op (119296 pages") &&
		       strstr(res.st[SHM].why,
			      "--shm-pcp-bytes 8M per bogo-op, -t 5 s"),
	       "0 bogo-ops with pages faulted: the run ended inside the first bogo-op, 0 (%s)",
	       res.st[SHM].why);
	worker(set_up_only);
	tap_ok(status_of(0, 0, false) == SMM_EX_OK &&
		       strstr(res.st[SHM].why, "set up their paths"),
	       "0 bogo-ops, a record but no work: ended during set-up, 0");
	tap_ok(status_of(0, 0, false) == SMM_EX_FAIL &&
		       strstr(res.st[SHM].why, "no worker reached"),
	       "0 bogo-ops and no record: 2");
	tap_ok(status_of(0, 0, true) == SMM_EX_OK,
	       "0 bogo-ops and no record after a stop signal: 0");
	{
		struct smm_stats_file bad = { .magic = "SMMSTATS",
					      .version = 3 };
		char path[300];
		FILE *f;

		snprintf(path, sizeof(path), "%s/shm-pcp.1.stats", dir);
		f = fopen(path, "w");
		if (f) {
			fwrite(&bad, 632, 1, f);
			fclose(f);
		}
	}
	tap_ok(status_of(0, 0, false) == SMM_EX_FAIL &&
		       res.st[SHM].records_bad == 1,
	       "a record of another version is not counted: 0 bogo-ops without a record, 2");
}

static void run_status(void)
{
	memset(&res, 0, sizeof(res));
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		res.st[s].asked = true;
		res.st[s].record_status = -1;
		res.st[s].bogo_ops = 5;
		res.st[s].wait_status = (s ? SMM_EX_NOTIMPL : SMM_EX_NORES)
					<< 8;
	}
	tap_ok(smm_run_status(&cfg, &res, false, 0) == SMM_EX_NORES,
	       "the run: a 3 and a 4 give 3");
	res.st[1].wait_status = SMM_EX_FAIL << 8;
	tap_ok(smm_run_status(&cfg, &res, false, 0) == SMM_EX_FAIL,
	       "the run: a 3 and a 2 give 2");
	res.st[1].wait_status = 0;
	res.st[0].wait_status = 0;
	tap_ok(smm_run_status(&cfg, &res, true, 0) == SMM_EX_FAIL,
	       "the run: a stress-ng that could not start is 2");
	tap_ok(smm_run_status(&cfg, &res, false, SIGINT) == 128 + SIGINT &&
		       res.interrupted,
	       "the run: stopped by SIGINT is 130, interrupted");
}

int main(void)
{
	char *args[] = { "stress-mm", "--shm-pcp", "1", "-t", "5", NULL };
	char err[256];

	tap_plan(24);
	if (!mkdtemp(dir) || smm_opts_parse(5, args, &cfg, err, sizeof(err))) {
		tap_diag("set-up: %s", err);
		return 1;
	}
	rows();
	zero_ops();
	run_status();
	rmdir(dir);
	return tap_done();
}
