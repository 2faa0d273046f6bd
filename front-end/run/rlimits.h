/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlimits.h - raise RLIMIT_MEMLOCK and RLIMIT_NOFILE for the stressors'
 * paths that need them (stressors.h: each stressor says what its
 * configuration needs, with the paths' own arithmetic,
 * core-vmalloc-sizes.h). The workers inherit the limits from stress-ng,
 * which inherits them from here.
 */
#ifndef SMM_RLIMITS_H
#define SMM_RLIMITS_H

#include "options.h"

/*
 * smm_raise_limits() - for every requested stressor, raise the soft and
 * hard limit it needs when it is lower. That succeeds only with
 * CAP_SYS_RESOURCE (kernel/sys.c do_prlimit()); one info line says what was
 * done, or what the path would need and why it could not be given
 * (errno=1, EPERM).
 */
void smm_raise_limits(const struct smm_run_cfg *cfg);

#endif /* SMM_RLIMITS_H */
