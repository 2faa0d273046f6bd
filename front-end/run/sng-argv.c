// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sng-argv.c - stress-ng's command line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sng-argv.h"

void smm_argv_add(struct smm_argv *a, const char *arg)
{
	if (a->n < (int)(sizeof(a->v) / sizeof(a->v[0])) - 1)
		a->v[a->n++] = (char *)arg;
}

void smm_argv_addu(struct smm_argv *a, unsigned long long v, const char *suffix)
{
	char *buf;

	if (a->nnum == (int)(sizeof(a->num) / sizeof(a->num[0])))
		return;
	buf = a->num[a->nnum++];
	snprintf(buf, sizeof(a->num[0]), "%llu%s", v, suffix);
	smm_argv_add(a, buf);
}

void smm_sng_tail(struct smm_argv *a, const struct smm_run_cfg *cfg,
		  const char *yaml)
{
	if (cfg->timeout_s) {
		smm_argv_add(a, "-t");
		smm_argv_addu(a, (unsigned long long)cfg->timeout_s, "s");
	}
	/* Always metrics, for the YAML; the relay drops the lines. */
	smm_argv_add(a, cfg->metrics_brief && !cfg->metrics ? "--metrics-brief"
							    : "--metrics");
	if (cfg->times)
		smm_argv_add(a, "--times");
	smm_argv_add(a, "--yaml");
	smm_argv_add(a, yaml);
	for (int i = 0; i < cfg->npass; i++)
		smm_argv_add(a, cfg->pass[i]);
}

void smm_sng_exec(const char *sng, struct smm_argv *a)
{
	char *argv[sizeof(a->v) / sizeof(a->v[0]) + 1];

	argv[0] = (char *)sng;
	memcpy(argv + 1, a->v, (size_t)a->n * sizeof(a->v[0]));
	argv[a->n + 1] = NULL;
	execv(sng, argv);
	fprintf(stderr, "stress-mm: exec %s: %s\n", sng, strerror(errno));
	_exit(127);
}
