// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-mm-native.c - options and outcomes of the stress-mm stressors
 * built into stress-ng (see stress-mm-native.h).
 */
#include "stress-ng.h"

#include <setjmp.h>

#include "placement.h"
#include "report.h"
#include "stress-mm-native.h"

/* Every table an option of ours may come from. */
static const struct {
	const struct smm_param *table;
	int n;
} tables[] = {
	{ smm_vmo_params, SMM_VMO_NR_PARAMS },
	{ smm_shm_params, SMM_SHM_NR_PARAMS },
};

static const struct smm_param *row_of(const char *option)
{
	for (size_t t = 0; t < SIZEOF_ARRAY(tables); t++)
		for (int i = 0; i < tables[t].n; i++)
			if (!strcmp(tables[t].table[i].option, option))
				return &tables[t].table[i];
	return NULL;
}

void smm_sng_opt(const char *opt_name, const char *opt_arg,
		 stress_type_id_t *type_id, void *value)
{
	const struct smm_param *p = row_of(opt_name);
	struct smm_param named;
	char err[600], opt[160];
	uint64_t v;

	if (!p) {
		(void)fprintf(stderr,
			      "%s: no stress-mm parameter of that name\n",
			      opt_name);
		longjmp(g_error_env, 1);
	}
	named = *p;
	(void)snprintf(opt, sizeof(opt), "--%s", p->option);
	named.env = opt; /* messages name the option */
	if (smm_param_parse_stressor(&named, opt_arg, &v, err, sizeof(err)) !=
	    0) {
		(void)fprintf(stderr, "%s\n", err);
		longjmp(g_error_env, 1);
	}
	*(uint64_t *)value = v;
	*type_id = TYPE_ID_UINT64;
}

/* stress-ng's log for the cores' lines: notes at info, FAIL at fail. */
static void to_log(enum smm_line_kind kind, const char *stressor,
		   const char *text)
{
	switch (kind) {
	case SMM_LINE_FAIL:
		pr_fail("%s: %s\n", stressor, text);
		break;
	case SMM_LINE_SKIP:
		pr_inf_skip("%s: %s, skipping stressor\n", stressor, text);
		break;
	case SMM_LINE_NOTE:
		pr_inf("%s: %s\n", stressor, text);
		break;
	}
}

void smm_sng_init(const char *stressor, const struct smm_param *table, int n)
{
	char err[600];
	uint64_t v;

	for (int i = 0; i < n; i++) {
		if (smm_sng_setting_get(table[i].option, &v))
			continue;
		if (smm_param_parse_stressor(&table[i], getenv(table[i].env),
					     &v, err, sizeof(err)) != 0) {
			pr_err("%s: %s\n", stressor, err);
			longjmp(g_error_env, 1);
		}
	}
	for (int i = 0; i < SMM_COMMON_NR_PARAMS; i++) {
		if (smm_param_from_env(&smm_common_params[i], &v, err,
				       sizeof(err)) != 0) {
			pr_err("%s: %s\n", stressor, err);
			longjmp(g_error_env, 1);
		}
	}
	(void)smm_report_init();
	(void)smm_placement_init();
	smm_report_sink(to_log);
}

void smm_sng_params(const struct smm_param *table, int n, uint64_t *vals)
{
	for (int i = 0; i < n; i++) {
		if (smm_sng_setting_get(table[i].option, &vals[i]))
			continue;
		if (smm_param_from_env(&table[i], &vals[i], NULL, 0) != 0)
			(void)smm_param_parse(&table[i], NULL, &vals[i], NULL,
					      0);
	}
}

int smm_sng_exit(stress_args_t *args, const struct smm_outcome *o)
{
	switch (smm_outcome_status(o)) {
	case 0:
		return EXIT_SUCCESS;
	case 3:
		pr_inf_skip("%s: %s, skipping stressor\n", args->name, o->text);
		return EXIT_NO_RESOURCE;
	case 4:
		pr_inf_skip("%s: %s, skipping stressor\n", args->name, o->text);
		return EXIT_NOT_IMPLEMENTED;
	default:
		break;
	}
	pr_fail("%s: %s%s errno=%d (%s)\n", args->name,
		o->kind == SMM_OUT_SKIP ? "cannot run: " : "", o->text, o->err,
		strerror(o->err));
	return EXIT_FAILURE;
}

bool smm_sng_verify(void)
{
	return (g_opt_flags & OPT_FLAGS_VERIFY) != 0;
}
