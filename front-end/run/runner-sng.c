// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runner-sng.c - the runners that exec stress-ng: with our plugin, and
 * stress-ng's own stressors alone (runner.h).
 */
#include <stdlib.h>

#include "results.h"
#include "runner.h"
#include "sng-argv.h"

static bool plugin_takes(const struct smm_run_cfg *cfg, int s)
{
	(void)cfg;
	return s < SMM_NR_STRESSORS;
}

/* stress-ng --plugin N --plugin-so SO --plugin-method M [--plugin-ops N],
 * the stressor's parameters in the environment the plugin's constructor
 * reads. */
static __attribute__((noreturn)) void
plugin_start(const struct smm_run_cfg *cfg, int s,
	     const struct smm_exec_env *env, const char *out)
{
	const struct smm_stressor *st = &smm_stressors[s];
	const struct smm_stressor_cfg *sc = &cfg->st[s];
	struct smm_argv a = { .n = 0 };
	char val[64];

	/* Its own parameters the options or variables gave, as text of the
	 * values parsed then; none of another stressor's (the constructor
	 * checks every table). */
	for (int o = 0; o < SMM_NR_STRESSORS; o++)
		for (int p = 0; p < smm_stressors[o].nparams; p++)
			if (o == s && sc->given[p])
				setenv(st->params[p].env,
				       smm_param_text(st, sc, p, val,
						      sizeof(val)),
				       1);
			else
				unsetenv(smm_stressors[o].params[p].env);
	smm_argv_add(&a, "--plugin");
	smm_argv_addu(&a, (unsigned long long)sc->workers, "");
	smm_argv_add(&a, "--plugin-so");
	smm_argv_add(&a, env->so);
	smm_argv_add(&a, "--plugin-method");
	smm_argv_add(&a, st->method);
	if (sc->ops) {
		smm_argv_add(&a, "--plugin-ops");
		smm_argv_addu(&a, (unsigned long long)sc->ops, "");
	}
	smm_sng_tail(&a, cfg, out);
	smm_sng_exec(env->sng, &a);
}

static void plugin_collect(const struct smm_run_cfg *cfg,
			   struct smm_run_result *res, int s)
{
	(void)cfg;
	smm_read_ng_yaml(res->st[s].out_path, "plugin", &res->st[s], NULL);
}

const struct smm_runner smm_runner_plugin = {
	.name = "plugin",
	.takes = plugin_takes,
	.out_ext = "yaml",
	.ng_yaml = true,
	.ng_name = "plugin",
	.start = plugin_start,
	.collect = plugin_collect,
};

static bool own_takes(const struct smm_run_cfg *cfg, int s)
{
	(void)cfg;
	return s == SMM_PASS_CHILD;
}

static __attribute__((noreturn)) void own_start(const struct smm_run_cfg *cfg,
						int s,
						const struct smm_exec_env *env,
						const char *out)
{
	struct smm_argv a = { .n = 0 };

	(void)s;
	smm_sng_tail(&a, cfg, out);
	smm_sng_exec(env->sng, &a);
}

/* stress-ng's own stressors: into res->ng, never counted as ours; their
 * bogo-ops summed for the exit status. */
static void own_collect(const struct smm_run_cfg *cfg,
			struct smm_run_result *res, int s)
{
	struct smm_stressor_result *r = &res->st[s];

	(void)cfg;
	r->record_status = -1;
	smm_read_ng_yaml(r->out_path, NULL, NULL, res);
	for (int i = 0; i < res->nng; i++)
		r->bogo_ops += res->ng[i].bogo_ops;
}

const struct smm_runner smm_runner_stress_ng = {
	.name = "stress-ng",
	.takes = own_takes,
	.out_ext = "yaml",
	.ng_yaml = true,
	.ng_name = NULL,
	.start = own_start,
	.collect = own_collect,
};
