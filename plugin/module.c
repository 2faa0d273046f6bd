// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/module.c - what stays outside the stressor files: our kernel
 * module (module/, /dev/stress-mm-vmalloc), which stress-ng upstream will
 * not take. The vmalloc-order path "module" and shm-pcp's churn "module"
 * run here on the old cores (core-helpers/worker/vmo-core.h, shm-core.h),
 * as before the stressor files were written in stress-ng's dialect, so that
 * nothing is lost: exact-size areas from the module, and its ktime around
 * vmalloc and vfree in the record (kernel_alloc_ns, kernel_free_ns).
 *
 * Their parameters come from our parameter tables (params-table.c), read
 * when the object loads; the stressor rows' reading (plugin/compat.c) has
 * already refused every bad value by then.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "params-table.h"
#include "plugin.h"
#include "report.h"
#include "shm-core.h"
#include "vmo-core.h"

static const char vmo_name[] = "vmalloc-order";
static const char shm_name[] = "shm-pcp";

static struct smm_vmo_cfg vmo_cfg = {
	.stressor = vmo_name,
	.batch_var = "STRESS_MM_VMALLOC_ORDER_BATCH",
};

static struct smm_shm_cfg shm_cfg = {
	.stressor = shm_name,
	.batch_var = "STRESS_MM_SHM_PCP_CHURN_BATCH",
};

/* Per worker: started again whenever the pid changes (stress-ng re-forks). */
static struct smm_vmo vmo_worker;
static struct smm_shm shm_worker;

static void load(const char *stressor, const struct smm_param *table, int n,
		 uint64_t *vals)
{
	char err[600];

	for (int i = 0; i < n; i++) {
		if (smm_param_parse_stressor(&table[i], getenv(table[i].env),
					     &vals[i], err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", stressor, err);
			exit(EXIT_FAILURE);
		}
	}
}

void smm_plugin_module_load(void)
{
	static int loaded;

	if (loaded++)
		return;
	load(vmo_name, smm_vmo_params, SMM_VMO_NR_PARAMS, vmo_cfg.param);
	load(shm_name, smm_shm_params, SMM_SHM_NR_PARAMS, shm_cfg.param);
}

int smm_plugin_vmo_module(void)
{
	struct smm_outcome o;

	if (vmo_worker.pid != getpid() &&
	    smm_vmo_start(&vmo_worker, &vmo_cfg, &o) != SMM_OUT_OK)
		smm_skip(NULL, vmo_name, o.err, "%s", o.text);
	switch (smm_vmo_op_method(&vmo_worker, SMM_VMO_PATH_module + 1, &o)) {
	case SMM_OUT_OK:
		return 0;
	case SMM_OUT_SKIP:
		smm_skip(NULL, vmo_name, o.err, "%s", o.text);
	case SMM_OUT_FAIL:
		break;
	}
	smm_fail(NULL, vmo_name, o.err, "%s", o.text);
	return -1;
}

/* @method: a word of our shm-pcp method table, or NULL: the variable's. */
int smm_plugin_shm_module(const char *method)
{
	const struct smm_param *p = &smm_shm_params[SMM_SHM_P_METHOD];
	struct smm_outcome o;

	for (uint64_t i = 0; method && p->choices[i]; i++)
		if (strcmp(p->choices[i], method) == 0)
			shm_cfg.param[SMM_SHM_P_METHOD] = i;
	if (shm_worker.pid != getpid() || !shm_worker.started) {
		switch (smm_shm_start(&shm_worker, &shm_cfg, &o)) {
		case SMM_OUT_OK:
			break;
		case SMM_OUT_STOPPED:
			_exit(0); /* as stress-ng's own timeout ends a worker */
		default:
			smm_skip(NULL, shm_name, o.err, "%s", o.text);
		}
	}
	switch (smm_shm_op(&shm_worker, &o)) {
	case SMM_OUT_OK:
		return 0;
	case SMM_OUT_SKIP:
		smm_skip(NULL, shm_name, o.err, "%s", o.text);
	}
	smm_fail(NULL, shm_name, o.err, "%s", o.text);
	return -1;
}
