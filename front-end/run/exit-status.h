/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exit-status.h - a stressor's exit status, from its workers' records
 * (results.h, common/stats.h) and stress-ng's exit status, never from a
 * line of text; and the run's, the worst of its stressors'.
 *
 * Statuses are stress-ng's (SMM_EX_*); a stressor's is the first row that
 * matches, in this order:
 *   stress-ng exited 1 (a bad option after --)             1
 *   a record holds a crash signal                         2
 *   a record counts failed calls                          2
 *   stress-ng exited 2, another code, or was killed       2
 *   a record holds a SKIP: by its errno                   3 or 4
 *                         (smm_errno_exit_status(); errno 0: 4)
 *   stress-ng exited 3 or 4                               3 or 4
 *   the run was stopped (a signal, a start failure)       0
 *   0 bogo-ops, the records counted work: the run ended
 *     inside the first bogo-op (said, with what one is)   0
 *   0 bogo-ops, records but no work: it ended while the
 *     workers set up their paths (said)                   0
 *   0 bogo-ops, no record, and a runner whose workers keep
 *     none (built into stress-ng): stress-ng's status      its own
 *   0 bogo-ops and no record: no worker reached our code  2
 *   otherwise                                             0
 * A worker that crashed before it made its record leaves nothing: with 0
 * bogo-ops that is a failure by the last rows; stress-ng itself may still
 * exit 0 and say "successful run completed".
 */
#ifndef SMM_EXIT_STATUS_H
#define SMM_EXIT_STATUS_H

#include <stdbool.h>

#include "stats.h"

struct smm_run_cfg;
struct smm_run_result;
struct smm_stressor_result;

/*
 * smm_stressor_status() - the status of result @s of @res (a stressor, or
 * SMM_PASS_CHILD: stress-ng's own stressors) into its status and why (the
 * SKIP's or failure's reason, or the note of a short run), said on stderr
 * as "stress-mm: <name> failed: <why>", "stress-mm: <name> skipped: <why>"
 * or "stress-mm: <name>: <why>". @stopped: the run was stopped by a
 * signal or a start failure, or cut (res->cut_why), which is said once
 * for the run. Return: the status.
 */
int smm_stressor_status(const struct smm_run_cfg *cfg,
			struct smm_run_result *res, int s, bool stopped);

/*
 * smm_run_status() - every started result's exit status, then the run's
 * status into res->status: the worst of them; 2 when a stress-ng could
 * not be started (@start_failed); res->cut_status when the run was cut
 * (res->cut_why, deadline.h: said on stderr, res->interrupted set: the
 * cause's status, not that of the kill that ended it); 128 + @stop_signal when a signal stopped the run
 * (res->interrupted set). Return: res->status.
 */
int smm_run_status(const struct smm_run_cfg *cfg, struct smm_run_result *res,
		   bool start_failed, int stop_signal);

/* smm_skipped() - whether status @st is a skip (3 or 4). */
bool smm_skipped(int st);

#endif /* SMM_EXIT_STATUS_H */
