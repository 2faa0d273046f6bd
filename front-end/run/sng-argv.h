/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sng-argv.h - stress-ng's command line, built in the forked child that
 * execs it (runner.h): a runner adds its stressor's options, then the
 * tail every stress-ng of a run shares.
 */
#ifndef SMM_SNG_ARGV_H
#define SMM_SNG_ARGV_H

#include "options.h"

struct smm_argv {
	char *v[SMM_MAX_PASS + 32];
	int n;
	char num[8][32]; /* the text of numbers added */
	int nnum;
};

/* smm_argv_add() - append @arg (kept as given, not copied). */
void smm_argv_add(struct smm_argv *a, const char *arg);

/* smm_argv_addu() - append @v as text followed by @suffix ("": none). */
void smm_argv_addu(struct smm_argv *a, unsigned long long v,
		   const char *suffix);

/*
 * smm_sng_tail() - append what every stress-ng of a run gets after its
 * stressor's options: -t T when -t was given, --metrics (--metrics-brief
 * when only that was asked; the lines are filtered when neither was),
 * --times when asked, --yaml @yaml, then the arguments after --.
 */
void smm_sng_tail(struct smm_argv *a, const struct smm_run_cfg *cfg,
		  const char *yaml);

/*
 * smm_sng_exec() - exec @sng with @a as its arguments (argv[0] is @sng);
 * when exec fails, one line on stderr and _exit(127). The stop signals
 * are at their defaults already (supervise.h).
 */
__attribute__((noreturn)) void smm_sng_exec(const char *sng,
					    struct smm_argv *a);

#endif /* SMM_SNG_ARGV_H */
