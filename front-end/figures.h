/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures.h - every figure stress-mm reports, defined once
 * (smm_figure_defs[]: name, numerator, denominator, unit, direction, floor,
 * whether the gate compares it by default) for the terminal, the YAML
 * report, the repeat summary and the gate (stress-mm compare).
 *
 * A figure belongs to one stressor ("shm-pcp.movable-refills-per-1000-
 * faults"; stress-ng's own stressors after --: "shm.bogo-ops-per-second-
 * real-time") or is system-wide (no prefix), and names its numerator and
 * denominator. One that cannot be computed is absent with the reason,
 * never 0. How a run's figures are computed: run-figures.h.
 */
#ifndef SMM_FIGURES_H
#define SMM_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#define SMM_MAX_FIGURES 64

struct smm_figure_def {
	const char *name; /* after the stressor prefix, if any */
	bool per_stressor; /* named "<stressor>.<name>" */
	const char *numerator; /* what is counted, in words */
	const char *denominator; /* what it is divided by */
	const char *unit;
	bool higher_better;
	/*
	 * The smallest absolute difference that matters, in the figure's
	 * unit: the gate compares log(value + floor), so that a base of 0 is
	 * handled and a rise from 0 beyond the floor in a lower-is-better
	 * figure is a regression.
	 */
	double floor;
	bool default_gate; /* compared unless --metric chooses */
};

extern const struct smm_figure_def smm_figure_defs[];
extern const size_t smm_nr_figure_defs;

/* smm_figure_def_of() - the definition of figure @name (its part after
 * the first '.' when it has a stressor prefix), or NULL. */
const struct smm_figure_def *smm_figure_def_of(const char *name);

struct smm_figure {
	char name[96];
	const struct smm_figure_def *def;
	double value; /* valid unless absent */
	bool absent;
	char why[200]; /* when absent: the reason */
};

struct smm_figures {
	int n;
	struct smm_figure f[SMM_MAX_FIGURES];
};

/*
 * smm_figure_add() - a new figure of @fs named "<@stressor>.<@name>"
 * (@stressor NULL: system-wide), from its row of smm_figure_defs[], with
 * value 0 until set. Return: it, or NULL when @fs is full or no row has
 * that name.
 */
struct smm_figure *smm_figure_add(struct smm_figures *fs, const char *stressor,
				  const char *name);

/* smm_figure_absent() - @f is absent, with the reason; the first reason
 * given stays; NULL-safe. */
__attribute__((format(printf, 2, 3))) void
smm_figure_absent(struct smm_figure *f, const char *fmt, ...);

/*
 * smm_figure_rates() - stressor @name's two bogo-ops rates, real time and
 * user + system time. Return: the second (NULL when @fs is full).
 */
struct smm_figure *smm_figure_rates(struct smm_figures *fs, const char *name,
				    double ops_real, double ops_usr_sys);

/* smm_figure_get() - the figure named @name, or NULL. */
const struct smm_figure *smm_figure_get(const struct smm_figures *f,
					const char *name);

#endif /* SMM_FIGURES_H */
