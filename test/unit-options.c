// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-options.c - the front end's option grammar without stress-ng:
 * durations, counts, intervals, flags, unknown options and their hints
 * (names taken whole: getopt_long's abbreviations refused), actions, the
 * stressor options and what they leave in struct smm_run_cfg, and the
 * test_vmalloc names in a message built from their table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "params-table.h"
#include "tap.h"
#include "test-vmalloc-log.h"

static const struct {
	const char *v;
	int rc;
	uint64_t secs;
} durations[] = {
	{ "1", 0, 1 },
	{ "60", 0, 60 },
	{ "1s", 0, 1 },
	{ "2m", 0, 120 },
	{ "3h", 0, 10800 },
	{ "1d", 0, 86400 },
	{ "365d", 0, 365 * 86400ULL },
	{ "31536000", 0, 31536000 },
	{ "31536001", -ERANGE, 0 },
	{ "366d", -ERANGE, 0 },
	{ "0", -ERANGE, 0 },
	{ "0s", -ERANGE, 0 },
	{ "1ms", -EINVAL, 0 },
	{ "1hs", -EINVAL, 0 },
	{ "1ss", -EINVAL, 0 },
	{ "1.5s", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ "01", -EINVAL, 0 },
	{ "1x", -EINVAL, 0 },
	{ "1S", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
};

#define ND (int)(sizeof(durations) / sizeof(durations[0]))

/* Parse a command line given as one string of words. */
static int parse(const char *line, struct smm_run_cfg *cfg, char *err,
		 size_t len)
{
	static char buf[512];
	char *argv[64], *save = NULL;
	int argc = 0;

	snprintf(buf, sizeof(buf), "stress-mm %s", line);
	for (char *t = strtok_r(buf, " ", &save); t && argc < 63;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	err[0] = '\0';
	return smm_opts_parse(argc, argv, cfg, err, len);
}

static const struct {
	const char *line;
	int rc;
	const char *msg; /* a part of the one-line error */
} lines[] = {
	{ "--shm-pcp 1", SMM_PARSE_RUN, NULL },
	{ "--shm-pcp=1 -t 5", SMM_PARSE_RUN, NULL },
	{ "--shm-pcp 1 -t5m", SMM_PARSE_RUN, NULL },
	{ "--help", SMM_PARSE_HELP, NULL },
	{ "-h", SMM_PARSE_HELP, NULL },
	{ "-V", SMM_PARSE_VERSION, NULL },
	{ "--man", SMM_PARSE_MAN, NULL },
	{ "--completion", SMM_PARSE_COMPLETION, NULL },
	{ "", -EINVAL, "no stressor requested" },
	{ "--shm-pcp 1 -t 1ms", -EINVAL, "--timeout='1ms' is not a duration" },
	{ "--shm-pcp 1 -t 1hs", -EINVAL, "--timeout='1hs' is not a duration" },
	{ "--shm-pcp 1 --timeout 0", -EINVAL, "--timeout='0' is out of range" },
	{ "--shm-pcp 4097", -EINVAL, "0..4096" },
	{ "--shm-pcp x", -EINVAL, "--shm-pcp" },
	{ "--shm-pcp", -EINVAL, "option --shm-pcp needs a value" },
	{ "--shm-pcp 1 --shm-pcp-ops 0", -EINVAL, "--shm-pcp-ops" },
	{ "--shm-pcp 1 --metrics=1", -EINVAL, "takes no value" },
	{ "--shm-pcp 1 -h=1", -EINVAL, "takes no value" },
	{ "--shm-pcp 1 --repeat 0", -EINVAL, "--repeat" },
	{ "--shm-pcp 1 --repeat 101", -EINVAL, "1..100" },
	{ "--shm-pcp 1 --vmallocinfo-interval 0.01", -EINVAL, "0.05..3600" },
	{ "--shm-pcp 1 --vmallocinfo-interval 1e0", -EINVAL, "not a number" },
	{ "--shm-pcp 1 --counters nope", -EINVAL, "unknown counter 'nope'" },
	{ "--shm-pcp 1 --counters tlb_flush,", -EINVAL, "empty name" },
	{ "--shm-pcp 1 --shm-pcp-byts 1M", -EINVAL,
	  "did you mean --shm-pcp-bytes?" },
	{ "--shm-pcp 1 --metric", -EINVAL, "did you mean --metrics?" },
	{ "--shm-pcp 1 --zzzzzzzzzzz", -EINVAL, "see --help" },
	{ "--shm-pcp 1 stray", -EINVAL, "unexpected argument 'stray'" },
	{ "--shm-pcp 1 -x", -EINVAL, "unknown option -x" },
	{ "--shm-pcp 1 --vmalloc-order-bytes 16K", -EINVAL,
	  "--vmalloc-order-bytes given, but --vmalloc-order was not requested" },
	{ "--shm-pcp 1 --shm-pcp-bytes 16KK", -EINVAL, "--shm-pcp-bytes" },
	{ "--shm-pcp 1 --yaml /proc/x.yaml", -EINVAL, "cannot be written" },
	{ "--shm-pcp 1 --yaml /tmp", -EINVAL, "is a directory" },
	{ "--shm-pcp 1 --repea 5", -EINVAL,
	  "unknown option --repea (did you mean --repeat?" },
	{ "--shm-pcp 1 --shm-pcp-op 3", -EINVAL,
	  "did you mean --shm-pcp-ops?" },
	{ "--shm-pcp 1 -t", -EINVAL, "option --timeout needs a value" },
	{ "--shm-pcp 1 -hV", -EINVAL, "option -h takes no value (got 'V')" },
	{ "--shm-pcp 1 -- --cpu 1", SMM_PARSE_RUN, NULL },
	{ "-- --cpu 1", SMM_PARSE_RUN, NULL },
	{ "--shm-pcp 1 --", SMM_PARSE_RUN, NULL },
	{ "--shm-pcp 1 --metrics 1", -EINVAL, "unexpected argument '1'" },
	{ "--vmalloc-order 1 --vmalloc-order-method module --integration native",
	  -EINVAL,
	  "--vmalloc-order-method=module with --integration=native: the module path is the plugin's" },
	{ "--shm-pcp 1 --shm-pcp-mode module --integration native", -EINVAL,
	  "--shm-pcp-mode=module with --integration=native" },
	{ "--shm-pcp 1 --shm-pcp-mode module --integration plugin",
	  SMM_PARSE_RUN, NULL },
	{ "--shm-pcp 1 --shm-pcp-mode stack --integration native",
	  SMM_PARSE_RUN, NULL },
};

#define NL (int)(sizeof(lines) / sizeof(lines[0]))

int main(void)
{
	struct smm_run_cfg cfg;
	char err[600];
	uint64_t secs;

	tap_plan(ND + NL + 9);
	for (int i = 0; i < ND; i++) {
		int rc;

		secs = 0;
		err[0] = '\0';
		rc = smm_parse_duration(durations[i].v, &secs, err,
					sizeof(err));
		tap_ok(rc == durations[i].rc &&
			       (rc || secs == durations[i].secs) &&
			       (!rc || strstr(err, "--timeout=")),
		       "duration '%s': %d %llu (want %d %llu) %s",
		       durations[i].v, rc, (unsigned long long)secs,
		       durations[i].rc, (unsigned long long)durations[i].secs,
		       err);
	}
	unsetenv("STRESS_MM_SHM_PCP_BYTES");
	for (int i = 0; i < NL; i++) {
		int rc = parse(lines[i].line, &cfg, err, sizeof(err));

		tap_ok(rc == lines[i].rc &&
			       (!lines[i].msg || strstr(err, lines[i].msg)) &&
			       !strchr(err, '\n'),
		       "'%s': %d (want %d): %s", lines[i].line, rc, lines[i].rc,
		       err);
	}

	/* What a good command line leaves, and the defaults. */
	parse("--shm-pcp 2 --shm-pcp-ops 7 --shm-pcp-bytes 1M -t 2m "
	      "--metrics --repeat 5 -- --cpu 1",
	      &cfg, err, sizeof(err));
	tap_ok(cfg.st[1].workers == 2 && cfg.st[1].ops == 7 &&
		       cfg.st[0].workers == -1,
	       "workers and ops bound to the stressor");
	tap_ok(cfg.timeout_s == 120 && cfg.metrics && !cfg.times &&
		       cfg.repeat == 5,
	       "timeout, flags and repeat bound to their fields");
	tap_ok(cfg.npass == 2 && !strcmp(cfg.pass[0], "--cpu") &&
		       !strcmp(cfg.pass[1], "1"),
	       "everything after -- is kept for stress-ng");
	tap_ok(cfg.st[1].val[SMM_SHM_P_BYTES] == 1ULL << 20 &&
		       cfg.st[1].given[SMM_SHM_P_BYTES],
	       "the parameter is parsed once: its value, marked given");
	tap_ok(cfg.st[1].val[SMM_SHM_P_CHURN_BATCH] == 128 &&
		       !cfg.st[1].given[SMM_SHM_P_CHURN_BATCH] &&
		       cfg.st[0].val[SMM_VMO_P_BYTES] == 16384 &&
		       !cfg.st[0].given[SMM_VMO_P_BYTES],
	       "a parameter not given holds its row's default, parsed");
	setenv("STRESS_MM_SHM_PCP_CHURN_BATCH", "64", 1);
	parse("--shm-pcp 1", &cfg, err, sizeof(err));
	unsetenv("STRESS_MM_SHM_PCP_CHURN_BATCH");
	tap_ok(cfg.st[1].val[SMM_SHM_P_CHURN_BATCH] == 64 &&
		       cfg.st[1].given[SMM_SHM_P_CHURN_BATCH],
	       "a STRESS_MM_* variable is parsed once into the value");
	tap_ok(!strcmp(cfg.counters, "all") && cfg.vm_interval == 1.0,
	       "defaults: counters all, vmallocinfo every second");

	/* A bad test name: the message lists the table's names. */
	{
		char names[600];
		int rc = parse("--vmalloc-order 1 --vmalloc-order-method "
			       "test-vmalloc --vmalloc-order-tests bogus",
			       &cfg, err, sizeof(err));

		smm_tv_test_names(names, sizeof(names));
		tap_ok(rc == -EINVAL && strstr(err, names) &&
			       strstr(names, "fix_size_alloc_test, ") &&
			       strstr(names, "vrealloc_test"),
		       "--vmalloc-order-tests bogus: every name of test_vmalloc's table in the message: %s",
		       err);
	}

	/* The plugin's environment is checked as an option would be. */
	setenv("STRESS_MM_SHM_PCP_BYTES", "garbage", 1);
	tap_ok(parse("--shm-pcp 1", &cfg, err, sizeof(err)) == -EINVAL &&
		       strstr(err, "STRESS_MM_SHM_PCP_BYTES='garbage'"),
	       "a bad STRESS_MM_ variable is a usage error: %s", err);
	unsetenv("STRESS_MM_SHM_PCP_BYTES");
	return tap_done();
}
