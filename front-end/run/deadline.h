/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deadline.h - a run is done by its -t plus a grace, or it is ended: its
 * process groups get SIGKILL, the run is reported interrupted with the
 * cause, and it exits non-zero. And a stress-ng that ends early, killed or
 * cut short by a signal, is never a success.
 *
 * Causes, read from /proc/PID/stat of the run's process groups and from
 * the workers' records (common/stats.h) when the deadline passes:
 *   a member stopped (state T or t: SIGSTOP, a tracer)    exit 2
 *   no record in the stats directory: no worker started   exit 3
 *     (fork(2) refused: RLIMIT_NPROC, pid or memory limits)
 *   otherwise: still running past the deadline            exit 2
 * After the children are reaped (smm_deadline_early()):
 *   stress-ng killed by a signal                          exit 2
 *   stress-ng's own wall-clock time short of -t by more than 0.5 s with
 *     no --NAME-ops limit and no SKIP (stress-ng catches SIGTERM and
 *     calls the run successful)                           exit 2
 */
#ifndef SMM_DEADLINE_H
#define SMM_DEADLINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct smm_run_cfg;
struct smm_run_result;

/* smm_deadline_grace() - seconds a run may take past -t @timeout_s:
 * stress-ng's start, its workers' end and the records: 10 s plus a tenth
 * of -t. */
double smm_deadline_grace(uint64_t timeout_s);

/* smm_deadline_s() - @timeout_s plus its grace: when a run is ended. */
double smm_deadline_s(uint64_t timeout_s);

/*
 * smm_deadline_cause() - why the processes of the @n process groups
 * @pgids are still there at the deadline, into @why (said as "the run
 * was ended at its deadline, ...: <why>"); @stats_dir holds the workers'
 * records. Return: the exit status of that cause (SMM_EX_FAIL or
 * SMM_EX_NORES).
 */
int smm_deadline_cause(const pid_t *pgids, int n, const char *stats_dir,
		       double after_s, char *why, size_t len);

/*
 * smm_deadline_early() - for each stressor of @res whose stress-ng ended
 * killed by a signal or early (see above), the cause into res->cut_why
 * and res->cut_status (unless a cause is set already). Call it after the
 * runners' collect() and before the exit status.
 */
void smm_deadline_early(const struct smm_run_cfg *cfg,
			struct smm_run_result *res);

#endif /* SMM_DEADLINE_H */
