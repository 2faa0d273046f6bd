/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner-test-vmalloc.h - the test-vmalloc runner (runner.h): for
 * vmalloc-order with --vmalloc-order-method test-vmalloc, the kernel's own test_vmalloc
 * module (lib/test_vmalloc.c, CONFIG_TEST_VMALLOC=m) runs in place of
 * stress-ng, so that its numbers stand next to the plugin paths' in one
 * report.
 *
 * Loading test_vmalloc runs its tests in nr_threads kernel threads and
 * then fails by design (its init returns -EAGAIN, Linux 7.2): the result
 * is the Summary and cycles lines it printed (test-vmalloc-log.h parses
 * them).
 * Parameters, from the options:
 *   nr_pages         --vmalloc-order-bytes in pages, rounded up (1 page
 *                    at the least)
 *   nr_threads       --vmalloc-order N (0: one per online CPU)
 *   test_loop_count  --vmalloc-order-ops N (0: the module's default,
 *                    1000000)
 *   run_test_mask    --vmalloc-order-tests NAMES (test-vmalloc-log.h
 *                    smm_tv_mask(); default fix_size_alloc_test)
 * -t does not bound it: the module runs its loops to the end, and the
 * load cannot be interrupted.
 *
 * Its child writes a record (common/stats.h) like a worker: calls = the
 * loops its passed tests completed (smm_tv_bogo_ops()); a SKIP when the
 * module cannot be loaded here (ENOSYS no module support, EPERM not root,
 * EOPNOTSUPP no test_vmalloc for this kernel or one loaded already); a
 * failure for any other error of the load, or when no test passed
 * (ENODATA). Its log, the kernel's lines, is the detail the report and
 * the figure vmalloc-order.test-vmalloc-ns-per-loop read.
 *
 * Kernel source relied on: lib/test_vmalloc.c (module parameters above,
 * init returning -EAGAIN after the tests), kernel/module/main.c
 * (finit_module(2)), kernel/printk (/dev/kmsg records "pri,seq,ts,flags;
 * text").
 */
#ifndef SMM_RUNNER_TEST_VMALLOC_H
#define SMM_RUNNER_TEST_VMALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "test-vmalloc-log.h"

struct smm_tv_params {
	uint64_t nr_pages; /* >= 1 */
	unsigned int nr_threads; /* >= 1 */
	uint64_t loops; /* test_loop_count; 0: the module's default */
	unsigned int mask; /* run_test_mask, != 0 */
};

/* smm_tv_options() - the module's parameter string for @p, e.g.
 * "nr_pages=4 nr_threads=2 run_test_mask=1 test_loop_count=1000". */
void smm_tv_options(const struct smm_tv_params *p, char *buf, size_t len);

/*
 * smm_tv_run() - load test_vmalloc with @p (libkmod: the module installed
 * for the running kernel) and write the kernel log lines it printed (text
 * after the /dev/kmsg prefix, one per line) to @log_fd.
 * Return: 0 when the tests ran (the load returned -EAGAIN, or 0); else
 * -errno with one line in @why: -ENOSYS no module support, -EPERM not
 * root, -ENOENT no test_vmalloc for this kernel (Debian builds none),
 * -EEXIST test_vmalloc already loaded, or the load's own -errno.
 */
int smm_tv_run(const struct smm_tv_params *p, int log_fd, char *why,
	       size_t len);

/* smm_tv_params_of() - the parameters above, for stressor @s of @cfg. */
void smm_tv_params_of(const struct smm_run_cfg *cfg, int s,
		      struct smm_tv_params *p);

/*
 * smm_tv_bogo_ops() - the loops @rep's passed tests completed over all
 * workers (passed x loops), the test-vmalloc method's bogo-ops.
 */
uint64_t smm_tv_bogo_ops(const struct smm_tv_log *rep);

#endif /* SMM_RUNNER_TEST_VMALLOC_H */
