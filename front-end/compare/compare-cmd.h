/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare-cmd.h - the `stress-mm compare` subcommand (compare-cmd.c has
 * the contract and exit statuses; compare-opts.h its options).
 */
#ifndef SMM_COMPARE_CMD_H
#define SMM_COMPARE_CMD_H

/* @argv[0] is "compare". Return: the exit status (0, 1 or 2). */
int smm_compare_main(int argc, char **argv);

#endif /* SMM_COMPARE_CMD_H */
