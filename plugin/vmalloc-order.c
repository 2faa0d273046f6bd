// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/vmalloc-order.c - the vmalloc-order stressor, as stress-ng plugin
 * methods: a thin adapter over the stressor core (worker/vmo-core.h).
 *
 *   stress-ng --plugin N --plugin-so ./build/stress-mm.so \
 *             --plugin-method vmalloc_order_stack -t 60s --metrics
 *
 * Methods (exported symbols; nothing else in the object is exported):
 *   stress_vmalloc_order        path from STRESS_MM_VMALLOC_ORDER_METHOD
 *                               ("all": every path this kernel backs, one
 *                               batch per call, never the opt-in module)
 *   stress_vmalloc_order_<sym>  one path, for each SMM_VMO_PATHS entry
 *
 * Contract with stress-ng (checked on 0.15.06; doc/plugin.md):
 * the parameters are read and validated once, by the constructor, while
 * stress-ng loads the object: a bad value prints one line naming the
 * variable, the value and the valid range, and stress-ng exits with status
 * 1 before any worker starts. One call is one bogo-op of the core. A SKIP
 * prints "vmalloc-order: SKIP: <reason>" once and ends the stressor
 * (report.h, smm_skip()); a FAIL prints "vmalloc-order: FAIL: <what>
 * errno=N (text)" and the method returns -1, which stress-ng answers by
 * forking a new worker.
 */
#include <stdint.h>
#include <unistd.h>

#include "params-table.h"
#include "plugin-env.h"
#include "report.h"
#include "vmo-core.h"

#define SMM_EXPORT __attribute__((visibility("default")))

static const char stressor[] = "vmalloc-order";

/* Parsed once by the constructor; inherited by every worker. */
static struct smm_vmo_cfg cfg = {
	.stressor = stressor,
	.batch_var = "STRESS_MM_VMALLOC_ORDER_BATCH",
};

/* Per worker: started again whenever the pid changes (stress-ng
 * re-forks). */
static struct smm_vmo worker;

__attribute__((constructor)) static void vmalloc_order_load(void)
{
	smm_plugin_env_load(stressor, smm_vmo_params, SMM_VMO_NR_PARAMS,
			    cfg.param);
}

/* One bogo-op of method @m (0: all, i + 1: path i), in the plugin's world. */
static int run(uint64_t m)
{
	struct smm_outcome o;

	if (worker.pid != getpid() &&
	    smm_vmo_start(&worker, &cfg, &o) != SMM_OUT_OK)
		smm_skip(NULL, stressor, o.err, "%s", o.text);
	switch (smm_vmo_op_method(&worker, m, &o)) {
	case SMM_OUT_OK:
		return 0;
	case SMM_OUT_SKIP:
		smm_skip(NULL, stressor, o.err, "%s", o.text);
	case SMM_OUT_FAIL:
		break;
	}
	smm_fail(NULL, stressor, o.err, "%s", o.text);
	return -1;
}

SMM_EXPORT int stress_vmalloc_order(void)
{
	return run(cfg.param[SMM_VMO_P_METHOD]);
}

#define SMM_X(sym, name)                                 \
	SMM_EXPORT int stress_vmalloc_order_##sym(void); \
	int stress_vmalloc_order_##sym(void)             \
	{                                                \
		return run(SMM_VMO_PATH_##sym + 1);      \
	}
SMM_VMO_PATHS(SMM_X)
#undef SMM_X
