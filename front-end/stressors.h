/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stressors.h - what the front end knows of each stress-mm stressor, in the
 * spirit of stress-ng's stressor_info_t: its option name, its plugin
 * method, its parameter table, its help line, the rate figure it is judged
 * by, and the limits it needs raised. Every per-stressor decision of the
 * front end goes through this table; no code picks a stressor by index.
 */
#ifndef SMM_STRESSORS_H
#define SMM_STRESSORS_H

#include <stdbool.h>
#include <stdint.h>

#include "params.h"

#define SMM_NR_STRESSORS 2
#define SMM_MAX_STRESSOR_PARAMS 16

/* The counts a worker keeps in its record (common/stats.h). */
enum smm_stats_count { SMM_COUNT_ALLOCS, SMM_COUNT_PAGES };

/* One stressor as the command line asked for it (-1 workers: not asked). */
struct smm_stressor_cfg {
	int64_t workers; /* --NAME N: 0 = one per online CPU; -1 not asked */
	uint64_t ops; /* --NAME-ops N; 0 = no limit */
	/* each parameter parsed once (options.c, options-check.c) by its
	 * table row's smm_param_parse(): bytes (SIZE), the count (COUNT) or
	 * the index into the row's choices (CHOICE); the row's default
	 * parsed once when not given (smm_stressor_cfg_init()) */
	uint64_t val[SMM_MAX_STRESSOR_PARAMS];
	bool given[SMM_MAX_STRESSOR_PARAMS]; /* by an option or STRESS_MM_* */
};

/* Limits a run needs; 0 = nothing to raise. */
struct smm_limit_need {
	uint64_t memlock_bytes; /* RLIMIT_MEMLOCK */
	const char *memlock_why;
	uint64_t nofile; /* RLIMIT_NOFILE */
	const char *nofile_why;
};

struct smm_stressor {
	const char *name; /* option and report name: "vmalloc-order" */
	const char *method; /* plugin method: "vmalloc_order" */
	const struct smm_param *params;
	int nparams;
	const char *help;
	/* the parameter that sizes one bogo-op (a row of params) */
	int bogo_op_param;
	/* the rows the workers' record answers with what ran (common/stats.h
	 * batch and bytes, after any clamp); -1: none */
	int ran_batch_param, ran_bytes_param;
	/* its rate figure, over stress-ng's wall-clock time */
	const char *rate_figure; /* "allocations-per-second" */
	enum smm_stats_count rate_count;
	/* limits its paths need for this configuration; NULL: none */
	void (*limits)(const struct smm_stressor_cfg *c, uint64_t workers,
		       struct smm_limit_need *need);
};

extern const struct smm_stressor smm_stressors[SMM_NR_STRESSORS];

/* smm_stressor_of() - the stressor named @name, or NULL. */
const struct smm_stressor *smm_stressor_of(const char *name);

/*
 * smm_stressor_cfg_init() - @c as not asked: no workers, no ops limit,
 * every parameter of @s its row's default, parsed once from the row's
 * .def (nothing given).
 * Return: 0; -EINVAL when a row's default does not parse (a table bug,
 * which test/unit-params.c rules out).
 */
int smm_stressor_cfg_init(const struct smm_stressor *s,
			  struct smm_stressor_cfg *c);

/*
 * smm_param_set() - parse @text for parameter @p of @s with its row's
 * smm_param_parse() and, when valid, store the value in @c as given.
 * @label: the name messages give the value (the option "--NAME" or the
 *         row's environment variable); NULL: the row's variable.
 * Return: 0; the smm_param_parse() error, with @err's line, and @c
 * unchanged.
 */
int smm_param_set(const struct smm_stressor *s, struct smm_stressor_cfg *c,
		  int p, const char *text, const char *label, char *err,
		  size_t len);

/* smm_param_index() - the row of @s whose option is @option, or -1. */
int smm_param_index(const struct smm_stressor *s, const char *option);

/* smm_param_word() - the CHOICE parameter of @s whose option is @option as
 * used by @c (given or default): the word; NULL when @s has no such
 * CHOICE parameter. */
const char *smm_param_word(const struct smm_stressor *s,
			   const struct smm_stressor_cfg *c,
			   const char *option);

/* smm_param_text() - parameter @p of @c as used (given or default), as
 * text its row parses back to the same value (smm_param_format()), in
 * @buf of @len bytes; returns @buf. */
const char *smm_param_text(const struct smm_stressor *s,
			   const struct smm_stressor_cfg *c, int p, char *buf,
			   size_t len);

#endif /* SMM_STRESSORS_H */
