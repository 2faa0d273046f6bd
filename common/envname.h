/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * envname.h - STRESS_MM_* environment variables that are not ours: a
 * misspelled parameter would otherwise be ignored in silence. The plugin's
 * constructor warns once per unknown variable, naming the closest known
 * one; the front end can do the same with its own environment.
 *
 * Known variables: every env of the parameter tables (params-table.h) and
 * SMM_ENV_EXTRA, the STRESS_MM_* variables that are not parameters.
 */
#ifndef SMM_ENVNAME_H
#define SMM_ENVNAME_H

#include <stdbool.h>
#include <stddef.h>

#define SMM_ENV_PREFIX "STRESS_MM_"

/* Not parameters, but ours: lab/lab.sh's STRESS_MM_ARGS. */
#define SMM_ENV_EXTRA "STRESS_MM_ARGS"

/*
 * smm_edit_distance() - the optimal string alignment distance of @a and
 * @b: insertions, deletions, substitutions and transpositions of two
 * adjacent characters, each costing 1 ("BACTH" to "BATCH" is 1). Past 127
 * bytes: the distance of the first 127 bytes plus the longer leftover, an
 * upper bound. The one edit distance of both sides: the front end's
 * "did you mean" for an unknown option uses it too (front-end/options.c).
 * Return: 0..max(strlen(a), strlen(b)).
 */
unsigned int smm_edit_distance(const char *a, const char *b);

/*
 * smm_closest_word() - the word of @words (@n of them) with the least
 * smm_edit_distance() to @word; the first of equals. @dist (may be NULL):
 * that distance. Return: the word, or NULL when @n is 0.
 */
const char *smm_closest_word(const char *word, const char *const *words,
			     size_t n, unsigned int *dist);

/*
 * smm_env_known_names() - every known variable (see above), in table
 * order, SMM_ENV_EXTRA last. Return: how many; *names points to a static
 * array.
 */
size_t smm_env_known_names(const char *const **names);

/*
 * smm_env_unknown() - for one environment entry "NAME=value": true when
 * NAME starts with SMM_ENV_PREFIX and is no known variable, with the
 * closest known name in *closest (NULL when it differs in more than a
 * third of the characters after the prefix: no guess). False for known names, other names, and
 * an entry without '='.
 */
bool smm_env_unknown(const char *entry, const char **closest);

#endif /* SMM_ENVNAME_H */
