/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stress-mm-compare.h - the `stress-mm compare` subcommand
 * (stress-mm-compare.c has the contract and exit statuses).
 */
#ifndef SMM_STRESS_MM_COMPARE_H
#define SMM_STRESS_MM_COMPARE_H

/* @argv[0] is "compare". Return: the exit status (0, 1 or 2). */
int smm_compare_main(int argc, char **argv);

#endif /* SMM_STRESS_MM_COMPARE_H */
