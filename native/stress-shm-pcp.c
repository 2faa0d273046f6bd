// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-shm-pcp.c - stress-mm's shm-pcp stressor, built into stress-ng:
 * shared memory page faults against concurrent vmalloc churn, with
 * CPU-matched controls, to reproduce and measure order-0 PCP starvation.
 *
 * A thin adapter over stress-mm's stressor core (core-helpers/worker/
 * shm-core.h), which the stress-mm plugin uses too. stress-mm's
 * native/apply.sh copies this file into a stress-ng tree and registers it;
 * the help and option rows come from stress-mm's parameter table through
 * the generated stress-mm-opts.h.
 */
#include "stress-ng.h"

#include "shm-core.h"
#include "stress-mm-native.h"
#include "stress-mm-opts.h"

/* stress-ng's tables, their rows from stress-mm's params-table.c */
/* clang-format off */
static const stress_help_t help[] = {
	SMM_SNG_SHM_PCP_HELP
	{ NULL,	NULL,	NULL }
};

static const stress_opt_t opts[] = {
	SMM_SNG_SHM_PCP_OPTS
	END_OPT,
};
/* clang-format on */

/*
 *  stress_shm_pcp_init()
 *	check the STRESS_MM_SHM_PCP_* variables before any worker
 */
static void stress_shm_pcp_init(const uint32_t instances)
{
	(void)instances;

	smm_sng_init("shm-pcp", smm_shm_params, SMM_SHM_NR_PARAMS);
}

/*
 *  stress_shm_pcp()
 *	one bogo-op = one shared memory object cycle, while the worker's
 *	churn companions run
 */
static int stress_shm_pcp(stress_args_t *args)
{
	struct smm_shm_cfg cfg = {
		.stressor = args->name,
		.batch_var = "--shm-pcp-churn-batch",
		.verify = smm_sng_verify(),
	};
	struct smm_shm s;
	struct smm_outcome o;
	double t_start, duration;
	uint64_t pages, churn_allocs;

	smm_sng_params(smm_shm_params, SMM_SHM_NR_PARAMS, cfg.param);

	smm_sng_proc_state(args->name, STRESS_STATE_SYNC_WAIT);
	stress_sync_start_wait(args);
	smm_sng_proc_state(args->name, STRESS_STATE_RUN);

	if (smm_shm_start(&s, &cfg, &o) != SMM_OUT_OK)
		return smm_sng_exit(args, &o);

	t_start = stress_time_now();
	do {
		if (smm_shm_op(&s, &o) != SMM_OUT_OK)
			break;
		stress_bogo_inc(args);
	} while (stress_continue(args));
	duration = stress_time_now() - t_start;
	pages = smm_shm_pages(&s);
	churn_allocs = smm_shm_churn_allocs(&s);

	smm_sng_proc_state(args->name, STRESS_STATE_DEINIT);
	smm_shm_stop(&s);

	/* Figures of a run that did its work only: absent otherwise. */
	if (o.kind == SMM_OUT_OK && duration > 0.0) {
		smm_sng_metric(args, 0, "pages faulted per sec",
			       (double)pages / duration);
		if (churn_allocs)
			smm_sng_metric(args, 1, "churn allocations per sec",
				       (double)churn_allocs / duration);
	}

	return smm_sng_exit(args, &o);
}

const stressor_info_t stress_shm_pcp_info = {
	.stressor = stress_shm_pcp,
	.init = stress_shm_pcp_init,
	.classifier = CLASS_VM | CLASS_MEMORY | CLASS_OS,
	.verify = VERIFY_OPTIONAL,
	.opts = opts,
	.help = help,
};
