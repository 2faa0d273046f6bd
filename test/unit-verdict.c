// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-verdict.c - a stressor's exit status in the front end
 * (supervise.h smm_child_verdict()) without stress-ng: the stats files'
 * errno decides a SKIP's status whatever the words of the SKIP line
 * ("RLIMIT_NPROC" in a seccomp EPERM skip is 4, not 3); without stats
 * files no word of a line decides (a SKIP line after status 0 is 4); a
 * worker's counted failure is 2; stress-ng's own 3 and 4 stay skips; 0 bogo-ops
 * with work done is a run cut inside the first bogo-op (0), without work
 * a failure (2), after a stop signal nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "stats.h"
#include "supervise.h"
#include "tap.h"

/* A child that exited with @code and printed @line (NULL: nothing). */
static void child(struct smm_child *c, int code, const char *line)
{
	memset(c, 0, sizeof(*c));
	c->name = "vmalloc-order";
	c->status = code << 8; /* as waitpid() reports exit(code) */
	if (line) {
		c->skipped = strstr(line, ": SKIP: ") != NULL;
		if (c->skipped)
			snprintf(c->skip_reason, sizeof(c->skip_reason), "%s",
				 strstr(line, ": SKIP: ") + 8);
	}
}

static int verdict(int code, const char *line, int stats_status, uint64_t ops,
		   uint64_t work, bool stopped)
{
	struct smm_child c;
	struct smm_child_facts f = {
		.bogo_ops = ops,
		.work = work,
		.stats_status = stats_status,
		.skip_reason = stats_status >= 0 ? "from the stats file" : "",
		.failures = stats_status == SMM_EX_FAIL ? 3 : 0,
		.fail_errno = stats_status == SMM_EX_FAIL ? EIO : 0,
	};

	child(&c, code, line);
	return smm_child_verdict(&c, &f, stopped);
}

int main(void)
{
	static const char nproc_eperm[] =
		"vmalloc-order: SKIP: stack: cannot create a thread with clone(2) (RLIMIT_NPROC 4): errno=1 (Operation not permitted)";
	static const char eagain[] =
		"vmalloc-order: SKIP: stack: cannot create a thread with clone(2) (RLIMIT_NPROC 4): errno=11 (Resource temporarily unavailable)";
	static const char etimedout[] =
		"vmalloc-order: SKIP: io-uring: setup: errno=110 (Connection timed out)";
	struct smm_child c;
	struct smm_child_facts f = { .bogo_ops = 5, .stats_status = 0 };

	tap_plan(15);
	tap_ok(verdict(0, NULL, 0, 10, 100, false) == SMM_EX_OK,
	       "bogo-ops, no skip, no failure: 0");
	tap_ok(verdict(4, nproc_eperm, smm_errno_exit_status(EPERM), 0, 0,
		       false) == SMM_EX_NOTIMPL,
	       "a SKIP whose stats file says EPERM is 4, though its line names RLIMIT_NPROC");
	tap_ok(verdict(0, eagain, smm_errno_exit_status(EAGAIN), 0, 0, false) ==
		       SMM_EX_NORES,
	       "a SKIP whose stats file says EAGAIN is 3, whatever stress-ng exited with");
	tap_ok(verdict(0, etimedout, -1, 0, 0, false) == SMM_EX_NOTIMPL,
	       "without stats files, a SKIP line (errno=110) after status 0: 4");
	tap_ok(verdict(0, eagain, -1, 0, 0, false) == SMM_EX_NOTIMPL,
	       "without stats files no word decides: errno=11 in a SKIP line after status 0 is still 4 (cause unknown)");
	tap_ok(verdict(0, "vmalloc-order: SKIP: RLIMIT_MEMLOCK too low", -1, 0,
		       0, false) == SMM_EX_NOTIMPL,
	       "without stats files and without errno=, the words decide nothing: 4");
	tap_ok(verdict(0, NULL, SMM_EX_FAIL, 10, 100, false) == SMM_EX_FAIL,
	       "a failure counted in a stats file is 2 though stress-ng exited 0");
	tap_ok(verdict(3, NULL, -1, 0, 0, false) == SMM_EX_NORES,
	       "stress-ng's own 3 without a SKIP line stays 3");
	tap_ok(verdict(2, NULL, 0, 10, 100, false) == SMM_EX_FAIL,
	       "stress-ng's own 2 is 2");
	tap_ok(verdict(0, NULL, 0, 0, 119296, false) == SMM_EX_OK,
	       "0 bogo-ops with pages faulted: the run ended inside the first bogo-op, 0");
	tap_ok(verdict(0, NULL, -1, 0, 0, false) == SMM_EX_FAIL,
	       "0 bogo-ops, no stats file (no worker reached the plugin), no SKIP: 2");
	f.stats_files = 1;
	f.bogo_ops = 0;
	child(&c, 0, NULL);
	tap_ok(smm_child_verdict(&c, &f, false) == SMM_EX_OK,
	       "0 bogo-ops, a worker's stats file but no work: ended during set-up, 0");
	f.stats_files = 0;
	f.bogo_ops = 5;
	tap_ok(verdict(0, NULL, 0, 0, 0, true) == SMM_EX_OK,
	       "0 bogo-ops after a stop signal: 0");
	child(&c, 0, NULL);
	c.crashed = true; /* stress-ng printed "Caught unexpected signal" */
	tap_ok(smm_child_verdict(&c, &f, false) == SMM_EX_FAIL,
	       "a crashed worker is 2 though stress-ng exited 0");
	child(&c, 0, NULL);
	c.status = SIGKILL; /* killed, as waitpid() reports it */
	tap_ok(smm_child_verdict(&c, &f, false) == SMM_EX_FAIL &&
		       strstr(c.fail_line, "status 137"),
	       "stress-ng killed by SIGKILL: 2, named as status 137 (%s)",
	       c.fail_line);
	return tap_done();
}
