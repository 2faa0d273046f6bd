// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/shm-pcp.c - the shm-pcp stressor, as a stress-ng plugin method: a
 * thin adapter over the stressor core (worker/shm-core.h).
 *
 *   STRESS_MM_SHM_PCP_MODE=stack stress-ng --plugin 1 \
 *       --plugin-so ./build/stress-mm.so --plugin-method shm_pcp -t 60s
 *
 * The first call in a worker places it and starts its churn companions;
 * each call is one shared-memory object cycle. Parameters are read and
 * validated once when stress-ng loads the object (see
 * plugin/vmalloc-order.c). A SKIP ends the stressor (smm_skip()); a FAIL
 * stops the companions, prints its FAIL line and returns -1 (stress-ng
 * forks a new worker, which starts again).
 */
#include <unistd.h>

#include "params-table.h"
#include "plugin-env.h"
#include "report.h"
#include "shm-core.h"

#define SMM_EXPORT __attribute__((visibility("default")))

static const char stressor[] = "shm-pcp";

static struct smm_shm_cfg cfg = {
	.stressor = stressor,
	.batch_var = "STRESS_MM_SHM_PCP_CHURN_BATCH",
};

static struct smm_shm worker;

__attribute__((constructor)) static void shm_pcp_load(void)
{
	smm_plugin_env_load(stressor, smm_shm_params, SMM_SHM_NR_PARAMS,
			    cfg.param);
}

SMM_EXPORT int stress_shm_pcp(void)
{
	struct smm_outcome o;

	if (worker.pid != getpid() || !worker.started) {
		switch (smm_shm_start(&worker, &cfg, &o)) {
		case SMM_OUT_OK:
			break;
		case SMM_OUT_STOPPED:
			_exit(0); /* as stress-ng's own timeout ends a worker */
		default:
			smm_skip(NULL, stressor, o.err, "%s", o.text);
		}
	}
	switch (smm_shm_op(&worker, &o)) {
	case SMM_OUT_OK:
		return 0;
	case SMM_OUT_SKIP:
		smm_skip(NULL, stressor, o.err, "%s", o.text);
	}
	smm_fail(NULL, stressor, o.err, "%s", o.text);
	return -1;
}
