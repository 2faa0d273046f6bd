// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runner-native.c - the runner of our stressors built into stress-ng
 * (runner.h; native/, doc/native.md): when the stress-ng the run execs
 * has them (sng-pick.h, cfg->native),
 *   stress-ng --NAME N [--NAME-ops N] [--OPTION VALUE]... <tail>
 * each parameter given to the front end passed as the stressor's own
 * option with the same name and value (stress-ng's parser checks it once
 * more). The built-in stressors are the upstream ones (doc/upstream.md):
 * they read no STRESS_MM_* variable and keep no record (stats.h), so the
 * figures that need the workers' counts are absent, saying so.
 */
#include <stdio.h>
#include <stdlib.h>

#include "results.h"
#include "runner.h"
#include "sng-argv.h"

static bool native_takes(const struct smm_run_cfg *cfg, int s)
{
	return s < SMM_NR_STRESSORS && cfg->native;
}

static __attribute__((noreturn)) void
native_start(const struct smm_run_cfg *cfg, int s,
	     const struct smm_exec_env *env, const char *out)
{
	static char opt[SMM_MAX_STRESSOR_PARAMS + 2][80];
	static char val[SMM_MAX_STRESSOR_PARAMS][64];
	const struct smm_stressor *st = &smm_stressors[s];
	const struct smm_stressor_cfg *sc = &cfg->st[s];
	struct smm_argv a = { .n = 0 };

	for (int o = 0; o < SMM_NR_STRESSORS; o++)
		for (int p = 0; p < smm_stressors[o].nparams; p++)
			unsetenv(smm_stressors[o].params[p].env);
	snprintf(opt[0], sizeof(opt[0]), "--%s", st->name);
	smm_argv_add(&a, opt[0]);
	smm_argv_addu(&a, (unsigned long long)sc->workers, "");
	if (sc->ops) {
		snprintf(opt[1], sizeof(opt[1]), "--%s-ops", st->name);
		smm_argv_add(&a, opt[1]);
		smm_argv_addu(&a, (unsigned long long)sc->ops, "");
	}
	for (int p = 0; p < st->nparams; p++) {
		if (!sc->given[p])
			continue;
		snprintf(opt[p + 2], sizeof(opt[p + 2]), "--%s",
			 st->params[p].option);
		smm_argv_add(&a, opt[p + 2]);
		smm_argv_add(&a,
			     smm_param_text(st, sc, p, val[p], sizeof(val[p])));
	}
	smm_sng_tail(&a, cfg, out);
	smm_sng_exec(env->sng, &a);
}

static void native_collect(const struct smm_run_cfg *cfg,
			   struct smm_run_result *res, int s)
{
	(void)cfg;
	smm_read_ng_yaml(res->st[s].out_path, smm_stressors[s].name,
			 &res->st[s], NULL);
}

const struct smm_runner smm_runner_native = {
	.name = "native",
	.takes = native_takes,
	.out_ext = "yaml",
	.ng_yaml = true,
	.ng_name = NULL, /* stress-ng calls it by its name */
	.no_record =
		"built into stress-ng, the stressor keeps no record (its own metrics are in stress-ng's YAML)",
	.start = native_start,
	.collect = native_collect,
};
