/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results.h - what one run leaves for the exit status, the figures and the
 * report: per stressor how its child ended, what its runner collected and
 * what the workers' records say; system-wide the kernel counters,
 * /proc/vmstat and /proc/zoneinfo at start and end, and the vmallocinfo
 * samples. Filled by the run loop (main.c, supervise.h, each
 * runner's collect), read by exit-status.h, run-figures.h and yreport.h.
 */
#ifndef SMM_RESULTS_H
#define SMM_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "figures.h"
#include "sampler.h"
#include "stats.h"
#include "stressors.h"
#include "test-vmalloc-log.h"
#include "vmstat.h"
#include "zoneinfo.h"

/* Where one worker ran, from its record (common/stats.h). */
struct smm_worker_place {
	int pid, cpu, slot; /* cpu, slot: -1 when not pinned / no slot */
	unsigned int companions;
	char companion_cpus[64]; /* "1,1" (-1: not pinned); cut with "..." */
};

#define SMM_MAX_WORKER_PLACES 128

struct smm_runner;

/*
 * Per stressor (and for stress-ng's own stressors, SMM_PASS_CHILD): how
 * its child ended, its counts from stress-ng's YAML and from the workers'
 * records, and its exit status (exit-status.h).
 */
struct smm_stressor_result {
	bool asked; /* started: asked for (SMM_PASS_CHILD: ran alone) */
	const struct smm_runner *runner; /* what ran it (runner.h) */
	char out_path[PATH_MAX]; /* its child's output file */
	int wait_status; /* its child's, from waitpid() */
	int status; /* its exit status: SMM_EX_* */
	char why[512]; /* the SKIP's or failure's reason, a note, or "" */
	uint64_t bogo_ops; /* stress-ng's, summed over its metrics entries */
	/* stress-ng's own stressors (after --) that made bogo-ops in this
	 * stressor's stress-ng beside it */
	int others_ran;
	double ops_real, ops_usr_sys; /* bogo-ops/s as stress-ng computed */
	double wall_s; /* stress-ng's wall-clock time, seconds */
	double ran_s; /* its child's, fork to reaped, measured here */
	uint64_t calls, allocs, pages, churn_allocs; /* records */
	uint64_t failures; /* records: failed calls, all workers */
	uint64_t kernel_ns; /* records: kernel_alloc_ns + kernel_free_ns */
	int nrecords; /* files read and valid */
	int records_bad; /* files of another format or version (skipped) */
	/* exit status the files give (smm_stats_exit_status(), the worst
	 * worker's); -1 when no file was read */
	int record_status;
	int skip_errno, fail_errno; /* a skipping / failing worker's errno */
	char skip_reason[256]; /* that worker's SKIP reason */
	char fail_reason[256]; /* that worker's last failure */
	int crash_signal; /* a crashed worker's signal, 0 if none */
	/* what ran, over the records that say (batch not 0, common/stats.h):
	 * the smallest and largest batch and bytes; nran: how many said */
	uint64_t batch_min, batch_max, bytes_min, bytes_max;
	int nran;
	struct smm_worker_place place[SMM_MAX_WORKER_PLACES]; /* by slot */
	int nplace;
	/* what each path achieved, one entry per name over all workers (a
	 * proven entry wins over one left out or not verified) */
	struct smm_stats_path paths[SMM_STATS_PATHS];
	int npaths;
	/* the test-vmalloc runner: what test_vmalloc printed
	 * (runner-test-vmalloc.h) */
	struct smm_tv_log tv;
};

/* A stress-ng stressor of its own (after --), as its YAML reports it. */
struct smm_ng_entry {
	char name[32];
	uint64_t bogo_ops;
	double ops_real, ops_usr_sys, wall_s;
};

#define SMM_MAX_NG_ENTRIES 16
/* The result of the stress-ng that runs only the arguments after -- (no
 * stressor of ours was asked for): after the stressors' own. */
#define SMM_PASS_CHILD SMM_NR_STRESSORS

struct smm_run_result {
	struct smm_stressor_result st[SMM_NR_STRESSORS + 1];
	/* stress-ng's own stressors, when they ran alone (SMM_PASS_CHILD) */
	struct smm_ng_entry ng[SMM_MAX_NG_ENTRIES];
	int nng;
	struct smm_vmstat_snap vm0, vm1;
	int vm_err; /* 0, or -errno of a vmstat snapshot */
	struct smm_zoneinfo z0, z1;
	struct smm_counters cs;
	bool counters_on;
	char counters_skip[256];
	struct smm_sampler vs;
	double seconds; /* the run's wall-clock time, measured here */
	int status; /* exit status (exit-status.h), the worst stressor's */
	bool interrupted;
	/* why the run was ended at its deadline or cut short (deadline.h),
	 * "" if it was not; and the exit status that cause gives */
	char cut_why[256];
	int cut_status;
	struct smm_figures fig;
};

/*
 * smm_read_records() - sum the workers' records (common/stats.h) in
 * @dir per stressor into @res: counts, failures, the exit status they give,
 * each worker's placement (sorted by slot, at most SMM_MAX_WORKER_PLACES);
 * then remove the files. A file smm_stats_read() rejects (-EBADMSG,
 * -EPROTO) is counted in records_bad and named on stderr once. Runs after
 * stress-ng ended; record_status stays -1 for a stressor with no file.
 */
void smm_read_records(const char *dir, struct smm_run_result *res);

/*
 * smm_read_ng_yaml() - from a stress-ng --yaml file: the bogo-ops,
 * bogo-ops/s and wall-clock time of the metrics entries named @ours into
 * @r (NULL: none expected), and the other entries (stress-ng's own
 * stressors, passed after --: never counted as ours) into res->ng (@res
 * NULL: not collected; then those with bogo-ops are counted in
 * r->others_ran).
 */
void smm_read_ng_yaml(const char *path, const char *ours,
		      struct smm_stressor_result *r,
		      struct smm_run_result *res);

#endif /* SMM_RESULTS_H */
