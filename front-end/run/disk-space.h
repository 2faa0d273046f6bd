/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disk-space.h - the disk space a run needs, checked before anything
 * starts: on the filesystem of its run directory (TMPDIR, else /tmp:
 * the owner's files, each worker's record, stress-ng's YAML and output)
 * and, for shm-pcp with POSIX objects, on /dev/shm (one object per
 * worker at a time). A tmpfs that fills up under a worker would end it
 * with SIGBUS: refused here instead, with exit 3 (no resource).
 */
#ifndef SMM_DISK_SPACE_H
#define SMM_DISK_SPACE_H

#include <stddef.h>

struct smm_run_cfg;

/* Bytes a run may write into its directory besides the records. */
#define SMM_SPACE_DIR_BASE (1024LL * 1024)

/*
 * smm_tmpdir() - where the run's directory goes: $TMPDIR when set (it
 * must be an absolute path to a directory), else /tmp. NULL with the
 * reason in @err when TMPDIR is set but unusable.
 */
const char *smm_tmpdir(char *err, size_t len);

/*
 * smm_space_check() - whether @tmpdir and, when @cfg runs shm-pcp with
 * POSIX objects, /dev/shm have the room @cfg needs (statvfs(3): blocks
 * available to this user; records are 2 per worker, for re-forks). 0, or
 * -ENOSPC with one line in @err naming the filesystem, what it has and
 * what the run needs.
 */
int smm_space_check(const struct smm_run_cfg *cfg, const char *tmpdir,
		    char *err, size_t len);

#endif /* SMM_DISK_SPACE_H */
