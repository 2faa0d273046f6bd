// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-opts - a libFuzzer target for the option parser of stress-mm
 * compare (compare-opts.h): the bytes are its arguments, separated by
 * newlines (at most 64), after "compare"; the --junit scan and the parse
 * run over them as smm_compare_main() runs them, and every parsed value
 * is checked against its documented range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare-opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char name[] = "compare";
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2], *p, err[900];
	const char *junits[MAX_ARGS + 1];
	struct smm_compare_opts o;
	int argc = 1;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	argv[0] = name;
	for (p = copy; argc <= MAX_ARGS; argc++) {
		char *nl = strchr(p, '\n');

		argv[argc] = p;
		if (!nl) {
			argc++;
			break;
		}
		*nl = 0;
		p = nl + 1;
	}
	argv[argc] = NULL;
	smm_compare_junit_paths(argc, argv, junits, MAX_ARGS + 1);
	if (!smm_compare_parse(argc, argv, &o, err, sizeof(err)) && !o.help) {
		if (!(o.threshold >= 0 && o.threshold <= 1000) ||
		    !(o.confidence >= 50 && o.confidence <= 99.9) ||
		    !o.files[0] || !o.files[1])
			abort();
	}
	smm_compare_opts_free(&o);
	free(copy);
	return 0;
}
