/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.h - how a stressor's workers run: a table of runners (runner.c),
 * one chosen once per stressor by smm_runner_for(), the first row that
 * takes it.
 *
 * A runner starts the stressor in a child the front end forked (its own
 * process group, stdout and stderr the front end's pipe, relayed for
 * people) and, after the run, collects what that child left besides the
 * workers' records (common/stats.h), which every runner's workers write:
 *   plugin        stress-ng --plugin N --plugin-so stress-mm.so
 *                 --plugin-method M, parameters in the environment;
 *                 stress-ng's --yaml gives bogo-ops and rates
 *   native        stress-ng --NAME N --OPTION VALUE...: our stressors
 *                 built into stress-ng (runner-native.c), when the run's
 *                 stress-ng has them (sng-pick.h); the same records and
 *                 --yaml as the plugin's, under the stressor's own name
 *   test-vmalloc  the kernel's test_vmalloc module (runner-test-vmalloc.h), for
 *                 vmalloc-order with --vmalloc-order-method test-vmalloc;
 *                 its child writes the record, its log the detail
 *   stress-ng     the arguments after -- alone, when no stressor of ours
 *                 is asked for (SMM_PASS_CHILD): stress-ng's own
 *                 stressors, never counted as ours
 * Adding an integration is a row of the table (runner.c) and a file with
 * its start and collect.
 */
#ifndef SMM_RUNNER_H
#define SMM_RUNNER_H

#include <stdbool.h>

#include "options.h"

struct smm_figures;
struct smm_run_result;
struct yaml_document_s;

/* Where the children find what they run. */
struct smm_exec_env {
	const char *sng; /* the stress-ng executable */
	const char *so; /* the plugin, build/stress-mm.so */
};

struct smm_runner {
	const char *name;
	/* takes() - whether it runs stressor @s of @cfg (SMM_PASS_CHILD:
	 * stress-ng's own); the first row of the table that does wins */
	bool (*takes)(const struct smm_run_cfg *cfg, int s);
	/* its child's output file: <run dir>/<stressor>.<out_ext> */
	const char *out_ext;
	/* the output file is stress-ng's --yaml: its sections go into the
	 * report (yreport.h) */
	bool ng_yaml;
	/* the name stress-ng gives the workers in its lines and YAML, shown
	 * as the stressor's; NULL: nothing to restore */
	const char *ng_name;
	/* why its workers keep no record (stats.h), for the figures that
	 * need one; NULL: they keep one */
	const char *no_record;
	/*
	 * start() - in the forked child: run stressor @s of @cfg
	 * (SMM_PASS_CHILD: stress-ng's own), writing @out; never returns.
	 */
	void (*start)(const struct smm_run_cfg *cfg, int s,
		      const struct smm_exec_env *env, const char *out);
	/* collect() - after the run: what @out holds into res->st[s]. */
	void (*collect)(const struct smm_run_cfg *cfg,
			struct smm_run_result *res, int s);
	/* figures() - its own figures instead of the records' (NULL:
	 * figures-run.h computes them) */
	void (*figures)(const struct smm_run_result *res, int s,
			struct smm_figures *fs);
	/* yaml() - its own section under the stressor in the report at
	 * mapping @node (NULL: none) */
	void (*yaml)(struct yaml_document_s *out, int node,
		     const struct smm_run_cfg *cfg,
		     const struct smm_run_result *res, int s);
};

extern const struct smm_runner smm_runner_plugin;
extern const struct smm_runner smm_runner_native;
extern const struct smm_runner smm_runner_test_vmalloc;
extern const struct smm_runner smm_runner_stress_ng;

/*
 * smm_runner_for() - the runner of stressor @s of @cfg (SMM_PASS_CHILD:
 * stress-ng's own stressors): the first row of the table whose takes()
 * says so (stress-ng's own, test-vmalloc, native, plugin); the plugin,
 * last, takes every stressor.
 */
const struct smm_runner *smm_runner_for(const struct smm_run_cfg *cfg, int s);

#endif /* SMM_RUNNER_H */
