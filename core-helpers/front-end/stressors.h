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
	const char *text[SMM_MAX_STRESSOR_PARAMS]; /* values as given */
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

/* smm_param_value() - the parameter of @s whose option is @option, as used
 * by @c (given or default); NULL when @s has no such parameter. */
const char *smm_param_value(const struct smm_stressor *s,
			    const struct smm_stressor_cfg *c,
			    const char *option);

/* smm_param_text() - parameter @p of @c as used: the given value, or the
 * table's default. */
const char *smm_param_text(const struct smm_stressor *s,
			   const struct smm_stressor_cfg *c, int p);

#endif /* SMM_STRESSORS_H */
