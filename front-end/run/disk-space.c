// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disk-space.c - the disk space a run needs on its filesystems, checked
 * before it starts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "errors.h"
#include "options-check.h"
#include "options.h"
#include "params-table.h"
#include "disk-space.h"
#include "stats.h"

const char *smm_tmpdir(char *err, size_t len)
{
	const char *t = getenv("TMPDIR"), *why = NULL;
	struct stat st;

	if (!t || !t[0])
		return "/tmp";
	if (t[0] != '/')
		why = "not absolute";
	else if (stat(t, &st) == 0 && !S_ISDIR(st.st_mode))
		why = "not a directory";
	else if (access(t, W_OK | X_OK) < 0) /* also when stat() failed */
		why = strerror(errno);
	if (!why)
		return t;
	smm_errmsg(
		err, len,
		"TMPDIR='%s' is not usable (%s); valid: an absolute path to a writable directory, or unset (/tmp)",
		t, why);
	return NULL;
}

/* Bytes @path's filesystem has for this user; -1 when unknown. */
static long long avail(const char *path)
{
	struct statvfs v;

	if (statvfs(path, &v) < 0)
		return -1;
	return (long long)(geteuid() ? v.f_bavail : v.f_bfree) *
	       (long long)v.f_frsize;
}

/* @path's filesystem (@what) has @bytes for @use, or -ENOSPC said in @err */
static int need(const char *path, const char *what, long long bytes,
		const char *use, char *err, size_t len)
{
	long long have = avail(path);

	if (have < 0 || have >= bytes)
		return 0;
	smm_errmsg(
		err, len,
		"%s (%s) has %lld KiB free, the run needs %lld KiB for %s: no room",
		path, what, have / 1024, bytes / 1024, use);
	return -ENOSPC;
}

/* shm-pcp's POSIX objects: workers x bytes; 0 when it does not run so. */
static long long shm_need(const struct smm_run_cfg *cfg)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_stressor *st = &smm_stressors[s];
		const char *m =
			smm_param_word(st, &cfg->st[s], "shm-pcp-method");
		int b = smm_param_index(st, "shm-pcp-bytes");

		if (cfg->st[s].workers < 0 || !m || strcmp(m, "posix") != 0 ||
		    b < 0)
			continue;
		return (long long)cfg->st[s].val[b] *
		       (long long)smm_workers(cfg, s);
	}
	return 0;
}

int smm_space_check(const struct smm_run_cfg *cfg, const char *tmpdir,
		    char *err, size_t len)
{
	long long workers = 0, shm = shm_need(cfg);

	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (cfg->st[s].workers >= 0)
			workers += smm_workers(cfg, s);
	if (need(tmpdir, "the run's directory goes there",
		 SMM_SPACE_DIR_BASE +
			 2 * workers * (long long)sizeof(struct smm_stats_file),
		 "its files and the workers' records", err, len))
		return -ENOSPC;
	if (shm && need("/dev/shm", "POSIX shared memory", shm,
			"one shm-pcp object per worker", err, len))
		return -ENOSPC;
	return 0;
}
