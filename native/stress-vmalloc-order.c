// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-vmalloc-order.c - stress-mm's vmalloc-order stressor, built into
 * stress-ng: vmalloc-backed kernel allocations driven from user space.
 *
 * A thin adapter over stress-mm's stressor core (core-helpers/worker/
 * vmo-core.h), which the stress-mm plugin uses too. stress-mm's
 * native/apply.sh copies this file into a stress-ng tree and registers it
 * (core-stressors.h, core-opts.h, core-opts.c, Makefile, stress-ng.1);
 * the help and option rows come from stress-mm's parameter table through
 * the generated stress-mm-opts.h.
 */
#include "stress-ng.h"

#include "stress-mm-native.h"
#include "stress-mm-opts.h"
#include "vmo-core.h"

/* stress-ng's tables, their rows from stress-mm's params-table.c */
/* clang-format off */
static const stress_help_t help[] = {
	SMM_SNG_VMALLOC_ORDER_HELP
	{ NULL,	NULL,	NULL }
};

static const stress_opt_t opts[] = {
	SMM_SNG_VMALLOC_ORDER_OPTS
	END_OPT,
};
/* clang-format on */

/*
 *  stress_vmalloc_order_init()
 *	check the STRESS_MM_VMALLOC_ORDER_* variables before any worker
 */
static void stress_vmalloc_order_init(const uint32_t instances)
{
	(void)instances;

	smm_sng_init("vmalloc-order", smm_vmo_params, SMM_VMO_NR_PARAMS);
}

/*
 *  stress_vmalloc_order()
 *	one bogo-op = one batch of allocations, all alive at once, then freed
 */
static int stress_vmalloc_order(stress_args_t *args)
{
	struct smm_vmo_cfg cfg = {
		.stressor = args->name,
		.batch_var = "--vmalloc-order-batch",
		.verify = smm_sng_verify(),
	};
	struct smm_vmo v;
	struct smm_outcome o;
	double t_start, duration, allocs;
	uint64_t kernel_ns;

	smm_sng_params(smm_vmo_params, SMM_VMO_NR_PARAMS, cfg.param);
	if (smm_vmo_start(&v, &cfg, &o) != SMM_OUT_OK)
		return smm_sng_exit(args, &o);

	smm_sng_proc_state(args->name, STRESS_STATE_SYNC_WAIT);
	stress_sync_start_wait(args);
	smm_sng_proc_state(args->name, STRESS_STATE_RUN);

	t_start = stress_time_now();
	do {
		if (smm_vmo_op(&v, &o) != SMM_OUT_OK)
			break;
		stress_bogo_inc(args);
	} while (stress_continue(args));
	duration = stress_time_now() - t_start;

	smm_sng_proc_state(args->name, STRESS_STATE_DEINIT);

	/* Figures of a run that did its work only: absent otherwise. */
	allocs = (double)smm_vmo_allocs(&v);
	if (o.kind == SMM_OUT_OK && duration > 0.0) {
		smm_sng_metric(args, 0, "allocations per sec",
			       allocs / duration);
		if (smm_vmo_kernel_ns(&v, &kernel_ns) && allocs > 0.0)
			smm_sng_metric(args, 1, "nanosecs per vmalloc+vfree",
				       (double)kernel_ns / allocs);
	}
	smm_vmo_stop(&v);

	return smm_sng_exit(args, &o);
}

const stressor_info_t stress_vmalloc_order_info = {
	.stressor = stress_vmalloc_order,
	.init = stress_vmalloc_order_init,
	.classifier = CLASS_VM | CLASS_OS,
	.verify = VERIFY_OPTIONAL,
	.opts = opts,
	.help = help,
};
