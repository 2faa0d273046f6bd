/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * docgen.h - --help, the man page and the bash completion, generated from
 * the tables: the stressors (stressors.h), their parameters
 * (common/params-table.c), the front end's options (options.h) and the
 * counters (counters.h). Nothing is written here by hand twice.
 */
#ifndef SMM_DOCGEN_H
#define SMM_DOCGEN_H

#define SMM_VERSION "0.2.0"

/* smm_print_help() - the usage text on stdout. */
void smm_print_help(void);

/* smm_print_man() - a man(7) page on stdout (stress-mm --man). */
void smm_print_man(void);

/* smm_print_completion() - a bash completion script on stdout. */
void smm_print_completion(void);

#endif /* SMM_DOCGEN_H */
