// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rlimits.c - raising the limits the paths need.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "options-check.h"
#include "rlimits.h"

static void raise_limit(int res, const char *name, uint64_t need,
			const char *why)
{
	struct rlimit rl, nl;

	if (!need || getrlimit(res, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= need)
		return;
	nl.rlim_cur = need;
	nl.rlim_max = need > rl.rlim_max ? need : rl.rlim_max;
	if (setrlimit(res, &nl) == 0) {
		fprintf(stderr,
			"stress-mm: info: raised %s from %llu to %llu for this run (%s)\n",
			name, (unsigned long long)rl.rlim_cur,
			(unsigned long long)need, why);
		return;
	}
	fprintf(stderr,
		"stress-mm: info: %s is %llu, below the %llu that %s needs; raising it needs CAP_SYS_RESOURCE: errno=%d (%s)\n",
		name, (unsigned long long)rl.rlim_cur, (unsigned long long)need,
		why, errno, strerror(errno));
}

void smm_raise_limits(const struct smm_run_cfg *cfg)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		struct smm_limit_need need = { 0 };

		if (cfg->st[s].workers < 0 || !smm_stressors[s].limits)
			continue;
		smm_stressors[s].limits(&cfg->st[s],
					(uint64_t)smm_workers(cfg, s), &need);
		raise_limit(RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK",
			    need.memlock_bytes, need.memlock_why);
		raise_limit(RLIMIT_NOFILE, "RLIMIT_NOFILE", need.nofile,
			    need.nofile_why);
	}
}
