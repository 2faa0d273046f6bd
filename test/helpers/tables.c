// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tables - print the method and parameter tables, one entry per line, for
 * the tests (exported symbols, bad input) and the documentation.
 *
 *   tables methods   the plugin methods, as exported symbols (stress_...):
 *                    each stressor's default method, then one per path
 *                    (vmalloc-order) or shm method but all (shm-pcp)
 *   tables params    env<TAB>type<TAB>default<TAB>range<TAB>min<TAB>max<TAB>option
 *   tables paths     symbol<TAB>name: the vmalloc-order paths, the words of
 *                    its method between all and the front end's
 *                    test-vmalloc; symbol is the name with - as _
 */
#include <stdio.h>
#include <string.h>

#include "params-table.h"

static const char *const type_names[] = {
	[SMM_P_SIZE] = "size",
	[SMM_P_COUNT] = "count",
	[SMM_P_CHOICE] = "choice",
	[SMM_P_DIR] = "dir",
};

static void print_params(const struct smm_param *t, int n)
{
	char range[256];

	for (int i = 0; i < n; i++) {
		smm_param_range(&t[i], range, sizeof(range));
		printf("%s\t%s\t%s\t%s\t%llu\t%llu\t%s\n", t[i].env,
		       type_names[t[i].type], t[i].def, range,
		       (unsigned long long)t[i].min,
		       (unsigned long long)t[i].max, t[i].option);
	}
}

/* Each method word of @p but all (the plugin method without a suffix)
 * and the front end's: @prefix and the word as a symbol (- as _), then a
 * tab and the word as written when @word; one per line. */
static void print_methods(const char *prefix, const struct smm_param *p,
			  int word)
{
	for (unsigned int i = 0; p->choices[i]; i++) {
		const char *w = p->choices[i];

		if (p->front_end_from && i >= p->front_end_from)
			break;
		if (strcmp(w, "all") == 0)
			continue;
		printf("%s", prefix);
		for (const char *c = w; *c; c++)
			putchar(*c == '-' ? '_' : *c);
		if (word)
			printf("\t%s", w);
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	const struct smm_param *vmo = &smm_vmo_params[SMM_VMO_P_METHOD];
	const struct smm_param *shm = &smm_shm_params[SMM_SHM_P_METHOD];

	if (argc == 2 && strcmp(argv[1], "methods") == 0) {
		printf("stress_shm_pcp\n");
		printf("stress_vmalloc_order\n");
		print_methods("stress_vmalloc_order_", vmo, 0);
		print_methods("stress_shm_pcp_", shm, 0);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "params") == 0) {
		print_params(smm_vmo_params, SMM_VMO_NR_PARAMS);
		print_params(smm_shm_params, SMM_SHM_NR_PARAMS);
		print_params(smm_common_params, SMM_COMMON_NR_PARAMS);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "paths") == 0) {
		print_methods("", vmo, 1);
		return 0;
	}
	fprintf(stderr, "usage: tables methods|params|paths\n");
	return 2;
}
