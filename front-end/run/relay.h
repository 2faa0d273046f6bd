/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * relay.h - a child's output to stderr, line by line, for people: the
 * stressor's name in place of the name stress-ng gives its workers
 * ("plugin") in its dispatch and metrics lines (metrics columns kept, so
 * that the kernel test robot's parser reads them), metrics lines dropped
 * unless --metrics or --metrics-brief was asked. Nothing in a line is read
 * for meaning: what happened comes from the workers' records.
 */
#ifndef SMM_RELAY_H
#define SMM_RELAY_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

#define SMM_LINE_MAX 1024

struct smm_relay {
	int fd; /* the child's stdout and stderr; -1 once at its end */
	const char *name; /* the stressor's name, or "stress-ng" */
	const char *ng_name; /* what stress-ng calls it; NULL: as printed */
	char buf[SMM_LINE_MAX];
	size_t used;
};

/*
 * smm_relay_read() - relay what @r->fd holds now; at its end (or an
 * error) relay the last partial line and close it (fd -1).
 */
void smm_relay_read(struct smm_relay *r, const struct smm_run_cfg *cfg);

#endif /* SMM_RELAY_H */
