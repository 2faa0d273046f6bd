/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - what a stressor tells the user: notes, FAIL and SKIP lines, and
 * "once per run" across all workers of a run.
 *
 * Lines are for people: the front end relays them and reads the worker's
 * record (stats.h) for what happened; smm_fail() and smm_skip() write both.
 * They go to stderr in one write(2) each, as "<stressor>: <text>\n", so
 * lines of concurrent workers never interleave:
 *   <stressor>: SKIP: <reason>
 *   <stressor>: FAIL: <what> errno=<N> (<strerror>)
 *
 * Once per run: smm_report_init() maps one shared anonymous page (MAP_SHARED,
 * so every process forked afterwards sees the same page). The plugin calls
 * it from its constructor, i.e. in stress-ng's main process while stress-ng
 * parses --plugin-so, before any worker is forked; all workers of that run
 * then share it. Without it (unit tests, a failed mmap) "once" falls back to
 * once per process.
 */
#ifndef SMM_REPORT_H
#define SMM_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

#define SMM_PRINTF(a, b) __attribute__((format(printf, a, b)))

enum smm_line_kind { SMM_LINE_NOTE, SMM_LINE_FAIL, SMM_LINE_SKIP };

/* Where lines go instead of stderr: @text without the stressor or tag. */
typedef void (*smm_line_sink)(enum smm_line_kind kind, const char *stressor,
			      const char *text);

/*
 * smm_report_sink() - hand every line to @sink from now on (NULL: stderr,
 * the default): the stressors built into stress-ng log through stress-ng.
 * "Once per run" and the FAIL limit still apply.
 */
void smm_report_sink(smm_line_sink sink);

/*
 * smm_report_init() - map the shared once-page (4096 bits).
 * Return: 0, or -errno of mmap(2) (the fallback then stays in force).
 * Calling it again keeps the existing page.
 */
int smm_report_init(void);

/*
 * smm_report_reset() - unmap the page and forget every "once": the state a
 * test starts from. Not for use while workers run.
 */
void smm_report_reset(void);

/*
 * smm_once() - true for the first caller with this @key in the run (all
 * processes that share the page), false afterwards. Keys are hashed into
 * 4096 bits; a collision can only suppress a repeated note, never a FAIL.
 */
bool smm_once(const char *key);

/*
 * smm_note_once() - "<stressor>: <text>" on stderr, the first time @key is
 * seen in the run for this @stressor. @key: NULL means "the formatted text
 * itself".
 */
void smm_note_once(const char *key, const char *stressor, const char *fmt, ...)
	SMM_PRINTF(3, 4);

/*
 * smm_fail() - count a failure of positive errno @err (0: no call failed,
 * e.g. a companion killed) in the record @rec (NULL: none) with what
 * failed as its reason, and print
 * "<stressor>: FAIL: <what> errno=<err> (<strerror(err)>)" (without the
 * errno when it is 0). Every call is
 * counted; up to 32 lines per run are printed (a failing plugin method is
 * re-forked by stress-ng without a rate limit), the 32nd saying that
 * further failures are not. The caller decides what the failure ends.
 */
void smm_fail(struct smm_stats_file *rec, const char *stressor, int err,
	      const char *fmt, ...) SMM_PRINTF(4, 5);

/* smm_fail_count() - smm_fail() calls so far in the run. */
uint64_t smm_fail_count(void);

/*
 * smm_skip() - end this stressor the way stress-ng's own timeout does:
 * record the SKIP (positive errno @err, 0 if none, and the reason) in @rec
 * (NULL: none), print the SKIP line (once per run), send SIGALRM to the
 * parent (stress-ng's stressor process, which then stops re-forking this
 * worker; only when the parent's comm says stress-ng, never to a process
 * that adopted an orphan) and _exit(0). stress-ng then reports 0 bogo-ops
 * for the group, other groups run on, and --plugin-ops runs without -t
 * return (stress-ng 0.15.06).
 */
__attribute__((noreturn)) void smm_skip(struct smm_stats_file *rec,
					const char *stressor, int err,
					const char *fmt, ...) SMM_PRINTF(4, 5);

#endif /* SMM_REPORT_H */
