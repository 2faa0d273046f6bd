/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * owner.h - stress-mm owns its run: whatever ends it (a normal end,
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE, or SIGKILL, which no handler sees),
 * nothing of it is left running or mounted or on disk.
 *
 * The run's state lives in a temporary directory, stress-mm.XXXXXX under
 * $TMPDIR or /tmp (disk-space.h), its record files made with their blocks (a
 * run that cannot record its owner does not start):
 *   owner    the pid of the stress-mm that made it
 *   pgids    the process groups it started (each stress-ng runs in a
 *            process group of its own, with PR_SET_PDEATHSIG; its stressor
 *            processes, workers and their companions join that group)
 *   mounted  the tracefs mount point, when stress-mm mounted it
 *   module   our kernel module's name, when stress-mm loaded it
 *            (kmodule.h)
 *   stats/   the workers' records (common/stats.h)
 * A watchdog process, forked when the directory is made, in a session of
 * its own (a kill of stress-mm's process group does not reach it), waits
 * on a pipe whose only writer is stress-mm. When stress-mm ends without
 * saying "done" (the pipe reaches EOF: it died, SIGKILL included), the
 * watchdog kills every recorded process group with SIGKILL, waits for
 * them (up to 2 s), unmounts what stress-mm mounted, removes the module it
 * loaded, sweeps shm-pcp
 * leftovers (front-end/host/shm.h) and removes the directory. When even the
 * watchdog was killed, the next stress-mm finds the directory of a dead
 * owner and does the same, naming what it cleaned.
 */
#ifndef SMM_OWNER_H
#define SMM_OWNER_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct smm_owner {
	char dir[PATH_MAX]; /* $TMPDIR or /tmp, /stress-mm.XXXXXX */
	char records[PATH_MAX + 8]; /* dir/stats: the workers' records */
	int wd_fd; /* write end of the watchdog's pipe; -1 when none */
	pid_t watchdog;
};

/*
 * smm_owner_start() - make the run's directory (under @tmpdir; NULL:
 * /tmp), record this process as its owner and start the watchdog.
 * Return: 0, or -errno of mkdtemp(3), open(2), pipe2(2) or fork(2)
 * (nothing is left behind then).
 */
int smm_owner_start(struct smm_owner *o, const char *tmpdir);

/* smm_owner_add_group() - record process group @pgid (before it can run
 * anything: call it right after fork). */
void smm_owner_add_group(struct smm_owner *o, pid_t pgid);

/*
 * smm_owner_kill_groups() - SIGKILL what is left of the recorded process
 * groups: only members named as the run's processes are ("stress-ng*",
 * "smm-*"), since a group id can be reused by the time this runs.
 */
void smm_owner_kill_groups(const struct smm_owner *o);

/* smm_owner_forget_groups() - the recorded groups are gone (between the
 * runs of --repeat). */
void smm_owner_forget_groups(struct smm_owner *o);

/* smm_owner_note_mount() - record that this run mounted @path. */
void smm_owner_note_mount(struct smm_owner *o, const char *path);

/* smm_owner_note_module() - record that this run loaded module @name;
 * smm_owner_forget_module() - it was removed. */
void smm_owner_note_module(struct smm_owner *o, const char *name);
void smm_owner_forget_module(struct smm_owner *o);

/*
 * smm_owner_finish() - the run ends here: tell the watchdog it has nothing
 * to do, wait for it, remove the directory. Return: 0, or -errno when the
 * directory could not be removed (said on stderr).
 */
int smm_owner_finish(struct smm_owner *o);

/*
 * smm_owner_clean_stale() - clean the directories of owners that died
 * with their watchdog (under @tmpdir; NULL: /tmp): their process groups,
 * their tracefs mount, the directory. One "stress-mm: info:" line per
 * directory names what was cleaned. Return: how many were cleaned.
 */
int smm_owner_clean_stale(const char *tmpdir);

#endif /* SMM_OWNER_H */
