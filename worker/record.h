/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - a worker's record (common/stats.h), opened the same way by
 * every integration that runs worker code (the plugin's methods, a
 * stressor built into stress-ng): in STRESS_MM_STATS_DIR, which the front
 * end sets and stress-ng's workers inherit.
 *
 * A crash is recorded too: smm_record_open() puts a handler in front of
 * whatever handles SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP and
 * SIGSYS in the worker (stress-ng's plugin stressor counts them and
 * _exit()s; its core does the same for its own stressors). The handler
 * stores the signal in the record's crash_signal, then calls the handler it
 * replaced, or takes the default action. Churn companions forked later
 * inherit it and the mapping, so their crashes land in the worker's record.
 */
#ifndef SMM_RECORD_H
#define SMM_RECORD_H

#include "stats.h"

/* smm_stats_dir() - STRESS_MM_STATS_DIR, or NULL when unset or empty. */
const char *smm_stats_dir(void);

/*
 * smm_record_open() - this process's record for @stressor
 * (smm_stats_open() in smm_stats_dir()) with the crash handler installed.
 * Return: the mapping, or NULL when records are off or cannot be made
 * (the worker then runs without one; a worker that leaves no record is
 * judged by stress-ng's status and bogo-ops alone).
 */
struct smm_stats_file *smm_record_open(const char *stressor);

/*
 * smm_record_left_out() - record that path or kind @name could not run
 * here (positive errno @err, @reason). NULL-safe; the first record of a
 * name wins.
 */
void smm_record_left_out(struct smm_stats_file *s, const char *name, int err,
			 const char *reason);

#endif /* SMM_RECORD_H */
