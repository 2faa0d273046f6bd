/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outcome.h - what one step of a stressor core (vmo-core.h, shm-core.h)
 * came to, for the two adapters over it to say in their own world: the
 * plugin methods (plugin/vmalloc-order.c, plugin/shm-pcp.c: SKIP and FAIL
 * lines, smm_skip(), a non-zero return) and the stressors built into
 * stress-ng (native/: pr_inf_skip or pr_fail, and an EXIT_* status).
 *
 * The core has already recorded the outcome in the worker's stats
 * (stats.h) and printed its notes; the adapter only reports and ends.
 */
#ifndef SMM_OUTCOME_H
#define SMM_OUTCOME_H

#include "report.h"

enum smm_outcome_kind {
	SMM_OUT_OK, /* the step (setup, a bogo-op) was done */
	SMM_OUT_SKIP, /* this stressor cannot run as asked here */
	SMM_OUT_FAIL, /* the kernel or the system did something wrong */
	/* the run ended (a stop signal: stress-ng's timeout) before the
	 * step was done; nothing failed: the adapter ends as at a timeout */
	SMM_OUT_STOPPED,
};

struct smm_outcome {
	enum smm_outcome_kind kind;
	int err; /* positive errno: the SKIP's cause (0: none), the FAIL's */
	char text[600]; /* SKIP: the reason; FAIL: what failed, no errno */
};

/* smm_outcome_ok() - clear @o to SMM_OUT_OK. Return: SMM_OUT_OK. */
int smm_outcome_ok(struct smm_outcome *o);

/*
 * smm_outcome_skip() - @o becomes a SKIP of positive errno @err (0: no
 * cause) with the formatted reason, to which " errno=N (text)" is added
 * when @err is set and the reason does not already give one.
 * Return: SMM_OUT_SKIP.
 */
int smm_outcome_skip(struct smm_outcome *o, int err, const char *fmt, ...)
	SMM_PRINTF(3, 4);

/*
 * smm_outcome_fail() - @o becomes a FAIL of positive errno @err with the
 * formatted description of what failed. Return: SMM_OUT_FAIL.
 */
int smm_outcome_fail(struct smm_outcome *o, int err, const char *fmt, ...)
	SMM_PRINTF(3, 4);

/*
 * smm_outcome_stopped() - @o becomes SMM_OUT_STOPPED with the formatted
 * note of what the stop cut short. Return: SMM_OUT_STOPPED.
 */
int smm_outcome_stopped(struct smm_outcome *o, const char *fmt, ...)
	SMM_PRINTF(2, 3);

/*
 * smm_outcome_status() - stress-ng's exit status for @o, as stress-ng and
 * stats.h sort errors: 0 for OK and STOPPED; 2 for a FAIL; for a SKIP 4 (not
 * implemented) when the errno is 0, else smm_errno_exit_status(): 4 for
 * ENOSYS, EPERM, EOPNOTSUPP, EACCES, 3 (no resource) for ENOMEM, ENOSPC,
 * EAGAIN, EMFILE, ENFILE, 2 for any other errno (a set-up that went wrong
 * is a failure, whichever integration ran it).
 */
int smm_outcome_status(const struct smm_outcome *o);

#endif /* SMM_OUTCOME_H */
