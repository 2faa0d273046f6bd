// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/settings.c - the stressors' settings in the plugin: each row of a
 * stressor's opts[] read from its STRESS_MM_<OPTION> variable (compat.h),
 * and stress_setting_get() over them.
 */
#include "stress-ng.h"

#include "compat.h"
#include "envname.h"
#include "params-table.h"

#define SETTINGS_MAX 32

struct setting {
	const char *name; /* the row's opt_name */
	size_t value;
};

static struct setting settings[SETTINGS_MAX];
static size_t n_settings;

/* ---- settings ---------------------------------------------------------- */

/* STRESS_MM_ and the option name in capitals, '-' as '_'. */
static void env_name(const char *opt, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", SMM_ENV_PREFIX);

	for (; *opt && n + 1 < len; opt++)
		buf[n++] = *opt == '-' ? '_' : (char)(*opt & ~0x20);
	buf[n] = '\0';
}

/* The unit our parameter tables give @env ("allocations"), for messages. */
static const char *unit_of(const char *env)
{
	for (int i = 0; i < SMM_VMO_NR_PARAMS; i++)
		if (strcmp(smm_vmo_params[i].env, env) == 0)
			return smm_vmo_params[i].unit;
	for (int i = 0; i < SMM_SHM_NR_PARAMS; i++)
		if (strcmp(smm_shm_params[i].env, env) == 0)
			return smm_shm_params[i].unit;
	return "";
}

static const struct smm_compat_words *
words_of(const char *option, const struct smm_compat_words *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(words[i].option, option) == 0)
			return &words[i];
	return NULL;
}

/* The choices of a method row: its name function's words, then the front
 * end's. */
static void choices_of(const stress_opt_t *o, const struct smm_compat_words *w,
		       const char **out, struct smm_param *p)
{
	const char *(*name)(const size_t) = NULL;
	size_t n = 0;

	/* the row keeps its name function in a void * (stress-ng's opts[]) */
	memcpy(&name, &o->data, sizeof(name));
	while (name && n < SMM_PARAM_MAX_CHOICES - 1 && name(n))
		out[n] = name(n), n++;
	if (w && w->front_end) {
		p->front_end_from = (unsigned int)n;
		out[n++] = w->front_end;
	}
	out[n] = NULL;
	p->choices = out;
}

static void load_row(const char *stressor, const stress_opt_t *o,
		     const struct smm_compat_words *w)
{
	const char *choices[SMM_PARAM_MAX_CHOICES + 1];
	struct smm_param p = { .option = o->opt_name,
			       .min = o->min,
			       .max = o->max };
	char env[96], err[600];
	struct setting *s;
	const char *text;
	uint64_t v;

	env_name(o->opt_name, env, sizeof(env));
	p.env = env;
	switch (o->type_id) {
	case TYPE_ID_SIZE_T_BYTES_VM:
		p.type = SMM_P_SIZE;
		p.unit = "bytes";
		break;
	case TYPE_ID_SIZE_T:
		p.type = SMM_P_COUNT;
		p.unit = unit_of(env);
		break;
	case TYPE_ID_SIZE_T_METHOD:
		p.type = SMM_P_CHOICE;
		choices_of(o, w, choices, &p);
		break;
	default:
		fprintf(stderr,
			"%s: %s: option type %d is not one the plugin reads\n",
			stressor, env, (int)o->type_id);
		exit(EXIT_FAILURE);
	}
	text = getenv(env);
	if (!text)
		return; /* the stressor's default */
	if (smm_param_parse_stressor(&p, text, &v, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", stressor, err);
		exit(EXIT_FAILURE);
	}
	if (n_settings >= SETTINGS_MAX) {
		fprintf(stderr, "%s: more than %d settings\n", stressor,
			SETTINGS_MAX);
		exit(EXIT_FAILURE);
	}
	s = &settings[n_settings++];
	s->name = o->opt_name;
	s->value = (size_t)v;
}

void smm_compat_settings_load(const char *stressor, const stress_opt_t *opts,
			      const struct smm_compat_words *words, size_t n)
{
	for (const stress_opt_t *o = opts; o->opt_name; o++)
		load_row(stressor, o, words_of(o->opt_name, words, n));
}

static const struct setting *setting_find(const char *name)
{
	for (size_t i = 0; i < n_settings; i++)
		if (strcmp(settings[i].name, name) == 0)
			return &settings[i];
	return NULL;
}

bool stress_setting_get(const char *name, void *value)
{
	const struct setting *s = setting_find(name);

	if (!s)
		return false;
	memcpy(value, &s->value, sizeof(s->value));
	return true;
}

/* Once per load: one warning per STRESS_MM_* name that is none of ours. */
void smm_compat_warn_unknown(void)
{
	const char *closest;

	for (char **e = environ; e && *e; e++)
		if (smm_env_unknown(*e, &closest))
			fprintf(stderr,
				"stress-mm: warning: %.*s is not a stress-mm variable and is ignored%s%s%s\n",
				(int)strcspn(*e, "="), *e,
				closest ? "; did you mean " : "",
				closest ? closest : "", closest ? "?" : "");
}
