/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin/compat.h - what the plugin's glue (plugin/vmalloc-order.c,
 * plugin/shm-pcp.c) adds around the stressor files, on top of the
 * stress-ng API of plugin/compat/stress-ng.h: where stress-ng's core would
 * parse options, keep the worker's counters and stop it, the plugin has
 * these.
 *
 * Settings: stress_setting_get() answers from the STRESS_MM_* variables,
 * read once by smm_compat_settings_load() from each stressor's own option
 * rows (opts[]) while stress-ng loads the shared object.
 *
 * Lines: pr_inf() prints "<stressor>: <text>" once per run (report.h's
 * once-page; only instance 0 says most notes, and a re-forked instance 0
 * would repeat them), pr_fail() prints "<stressor>: FAIL: <line>" and
 * counts the failure in the current record with the line as its reason
 * (smm_fail(); an errno the line names stays in its text), pr_inf_skip()
 * prints nothing: the glue ends the stressor
 * with the reason kept here (smm_skip(): record, one line, SIGALRM to
 * stress-ng's stressor process, _exit(0)).
 */
#ifndef SMM_PLUGIN_COMPAT_H
#define SMM_PLUGIN_COMPAT_H

#include "stress-ng.h"

#include "stats.h"

/* A word a CHOICE option takes in the front end but not in the plugin
 * (test-vmalloc): refused with the line that names the front end's
 * option. The stressor's own words are its name function's. */
struct smm_compat_words {
	const char *option; /* "vmalloc-order-method" */
	const char *front_end;
};

/*
 * smm_compat_settings_load() - for every row of @opts, read
 * STRESS_MM_<OPTION NAME, upper case, '-' as '_'>: unset leaves the
 * stressor's default; a size (TYPE_ID_SIZE_T_BYTES_VM) or count
 * (TYPE_ID_SIZE_T) within the row's min..max, a word of the row's name
 * function (TYPE_ID_SIZE_T_METHOD). A bad value, or a word of @words, prints
 * "<stressor>: <VAR>='<value>' ...; valid range ..." (params.h) and
 * exit(1)s: stress-ng is still loading the object, no worker exists.
 */
void smm_compat_settings_load(const char *stressor, const stress_opt_t *opts,
			      const struct smm_compat_words *words, size_t n);

/*
 * smm_compat_warn_unknown() - one warning on stderr per STRESS_MM_* name in
 * the environment that is none of ours, naming the closest (envname.h).
 */
void smm_compat_warn_unknown(void);

/*
 * smm_compat_load_common() - once per load: warn about STRESS_MM_* names
 * that are none of ours (envname.h, "did you mean"), check
 * STRESS_MM_STATS_DIR (exit(1) when it cannot take a record), map the
 * pages every worker of the run shares (report.h, the instances).
 */
void smm_compat_load_common(void);

/*
 * smm_compat_args_init() - @args for a worker of @name in the calling
 * process: its instance is its place among the run's workers of @name
 * (a page shared by the run; the lowest free one, or the one of a dead
 * worker: a worker stress-ng re-forks takes over the instance, and so the
 * CPU, of the one it replaces), 0 when there is no page; no bogo-op limit
 * (stress-ng's loop counts).
 */
void smm_compat_args_init(stress_args_t *args, const char *name);

/*
 * smm_compat_begin() - the lines of one call of a method go to @rec (may
 * be NULL) under @args->name; forget the last skip reason and failures.
 */
void smm_compat_begin(stress_args_t *args, struct smm_stats_file *rec);

/*
 * smm_compat_end() - a method's EXIT_* other than EXIT_SUCCESS, for the
 * worker of the last smm_compat_begin(): EXIT_NO_RESOURCE and
 * EXIT_NOT_IMPLEMENTED run @deinit, then end the stressor as a SKIP
 * (report.h smm_skip(), no return) with the last pr_inf_skip() text since
 * smm_compat_begin() (without "<stressor>: " and ", skipping stressor")
 * and the errno the stressor's context kept, @skip_err, when that sorts as
 * @rc does (stats.h smm_errno_exit_status()), else ENOMEM for
 * EXIT_NO_RESOURCE and EOPNOTSUPP for EXIT_NOT_IMPLEMENTED; any other
 * status is a failure: a FAIL line unless pr_fail() said one since
 * smm_compat_begin(), @deinit, and -1 (stress-ng forks a new worker).
 */
int smm_compat_end(int rc, int skip_err, void (*deinit)(void));

/*
 * smm_compat_stop_install() - once per worker: SIGALRM, SIGINT and SIGTERM
 * (stress-ng's stop signals) clear stress_continue_flag(); in the worker
 * that installed it, @on_stop (async-signal-safe) runs next and then what
 * handled the signal before (stress-ng's handler, which ends the worker).
 * Processes forked by the worker (companions, parked children) inherit
 * it: they only see the flag, leave their loops and tear down. The worker
 * also gets SIGALRM when its parent, stress-ng's stressor process, dies
 * (PR_SET_PDEATHSIG; at once when it died already): stress-ng then ends
 * the run, and a worker left behind would run on, orphaned, until
 * stress-mm's deadline.
 */
void smm_compat_stop_install(void (*on_stop)(void));

#endif /* SMM_PLUGIN_COMPAT_H */
