/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options-check.h - the run's configuration checked as a whole once every
 * option is read (options-check.c), and the facts of it that the rest of
 * the front end asks: how many workers a stressor runs, which methods the
 * front end acts on itself.
 */
#ifndef SMM_OPTIONS_CHECK_H
#define SMM_OPTIONS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

/*
 * smm_opts_check() - what @cfg asks for as a whole, once every option is
 * read (options-check.c): the counter names, no option after -- that
 * stress-mm sets itself, --vmalloc-order-tests only with the test-vmalloc
 * runner and with test_vmalloc's names (default fix_size_alloc_test),
 * parameters only for requested stressors and the STRESS_MM_* variables
 * (recorded as the values used), a writable report path, a non-empty
 * --stress-ng, a stressor asked for. Return: 0, or -EINVAL with one line
 * in @err.
 */
int smm_opts_check(struct smm_run_cfg *cfg, char *err, size_t len);

/* smm_workers() - the workers stressor @s will run (0 resolved to the
 * online CPUs), or -1 when it was not asked for. */
int64_t smm_workers(const struct smm_run_cfg *cfg, int s);

/*
 * smm_opts_method() - whether stressor @s of @cfg (< 0: any) is asked for
 * and runs with --vmalloc-order-method @method ("module",
 * "test-vmalloc"): the methods the front end acts on itself.
 */
bool smm_opts_method(const struct smm_run_cfg *cfg, int s, const char *method);

/*
 * smm_opts_module() - whether a stressor asked for uses our kernel module
 * (kmodule.h): --vmalloc-order-method module or --shm-pcp-mode module.
 */
bool smm_opts_module(const struct smm_run_cfg *cfg);

#endif /* SMM_OPTIONS_CHECK_H */
