// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-churn.c - the churn companions' start (worker/churn.h) with real
 * processes: companions of each allocating kind start and stop; a stop
 * signal that reaches the worker while its companions set up (stress-ng's
 * timeout in a run shorter than the set-up: -t 1 --shm-pcp 4) ends the
 * start with -EINTR and says so, never the "died before it was ready"
 * failure; a companion that dies on its own during set-up is still that
 * failure.
 *
 * The "worker" is a forked child with a SIGALRM handler of its own that
 * only sets a flag, as stress-ng's built-in workers have; an interval
 * timer sends SIGALRM 1 ms into smm_churn_start(), within the companions'
 * set-up (5-30 ms here, bench/churn-setup).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "churn.h"
#include "placement.h"
#include "report.h"
#include "tap.h"

#define TRIES 10

static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

struct result {
	int rc;
	int alarmed; /* the signal came before smm_churn_start() returned */
	char why[600];
};

/* In a forked worker: start @procs companions of @kind, SIGALRM after
 * @alarm_us (0: none); the result through a pipe. */
static int start_in_worker(enum smm_churn_kind kind, unsigned int procs,
			   long alarm_us, struct result *res)
{
	int fds[2];
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct itimerval it = { { 0, 0 }, { 0, alarm_us } };
		struct smm_plan plan;
		struct smm_churn c;
		struct smm_churn_cfg cfg = {
			.stressor = "shm-pcp",
			.batch_var = "--shm-pcp-churn-batch",
			.kind = kind,
			.batch = 64,
			.plan = &plan,
		};
		struct result r;

		close(fds[0]);
		memset(&r, 0, sizeof(r));
		signal(SIGALRM, on_alarm);
		if (smm_placement_plan(SMM_CPU_ANY, procs, &plan))
			_exit(1);
		if (alarm_us)
			setitimer(ITIMER_REAL, &it, NULL);
		r.rc = smm_churn_start(&c, &cfg, r.why, sizeof(r.why));
		r.alarmed = alarmed;
		smm_churn_stop(&c);
		if (write(fds[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], res, sizeof(*res)) != sizeof(*res))
		res->rc = -1000;
	close(fds[0]);
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return 0;
}

int main(void)
{
	static const enum smm_churn_kind kinds[] = { SMM_CHURN_STACK,
						     SMM_CHURN_LDT,
						     SMM_CHURN_PTY };
	struct result r;

	tap_plan(4);
	smm_report_init();
	smm_placement_init();

	{
		int good = 1;

		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			start_in_worker(kinds[k], 2, 0, &r);
			if (r.rc != 0 && r.rc != -EOPNOTSUPP) {
				tap_diag("churn %s: rc %d: %s",
					 smm_churn_names[kinds[k]], r.rc,
					 r.why);
				good = 0;
			}
		}
		tap_ok(good,
		       "2 companions of stack, ldt and pty start and stop");
	}

	/* The stop during set-up: every try that the signal reached in time
	 * is -EINTR with the reason; a try whose companions were ready
	 * before it does not count. */
	{
		int cut = 0, wrong = 0;
		char last[600] = "";

		for (int i = 0; i < TRIES; i++) {
			start_in_worker(SMM_CHURN_LDT, 2, 1000, &r);
			if (r.rc == 0 && !r.alarmed)
				continue;
			if (r.rc == 0)
				continue; /* ready before the signal */
			cut++;
			if (r.rc != -EINTR ||
			    !strstr(r.why, "the run ended while")) {
				wrong++;
				tap_diag("try %d: rc %d: %s", i, r.rc, r.why);
			}
			snprintf(last, sizeof(last), "%s", r.why);
		}
		tap_ok(cut > 0,
		       "SIGALRM 1 ms in cut the set-up in %d of %d tries", cut,
		       TRIES);
		tap_ok(cut > 0 && wrong == 0,
		       "each cut set-up ended with -EINTR, not a failure (%s)",
		       last);
	}

	/* Without a stop signal a companion that cannot set up is still
	 * its path's SKIP or failure: the module kind where our module is
	 * not loaded. */
	if (access("/dev/stress-mm-vmalloc", F_OK) == 0) {
		tap_skip(
			"a companion that cannot set up is no stop",
			"/dev/stress-mm-vmalloc exists: the module kind sets up");
	} else {
		start_in_worker(SMM_CHURN_MODULE, 1, 0, &r);
		tap_ok(r.rc != 0 && r.rc != -EINTR && !strstr(r.why, "ended"),
		       "a companion that cannot set up is no stop: rc %d (%s)",
		       r.rc, r.why);
	}
	return tap_done();
}
