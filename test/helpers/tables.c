// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tables - print the method and parameter tables, one entry per line, for
 * the tests (exported symbols, bad input) and the documentation.
 *
 *   tables methods   the plugin methods, as exported symbols (stress_...):
 *                    each stressor's default method, then one per path
 *                    (vmalloc-order) or shm method (shm-pcp)
 *   tables params    env<TAB>type<TAB>default<TAB>range<TAB>min<TAB>max<TAB>option
 *   tables paths     symbol<TAB>name: the vmalloc-order paths (names.h)
 */
#include <stdio.h>
#include <string.h>

#include "names.h"
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

int main(int argc, char **argv)
{

	if (argc == 2 && strcmp(argv[1], "methods") == 0) {
		printf("stress_shm_pcp\n");
		printf("stress_vmalloc_order\n");
#define SMM_X(sym, name) printf("stress_vmalloc_order_%s\n", #sym);
		SMM_VMO_PATHS(SMM_X)
#undef SMM_X
#define SMM_X(sym, name) printf("stress_shm_pcp_%s\n", name);
		SMM_SHM_METHODS(SMM_X)
#undef SMM_X
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "params") == 0) {
		print_params(smm_vmo_params, SMM_VMO_NR_PARAMS);
		print_params(smm_shm_params, SMM_SHM_NR_PARAMS);
		print_params(smm_common_params, SMM_COMMON_NR_PARAMS);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "paths") == 0) {
#define SMM_X(s, n) printf("%s\t%s\n", #s, n);
		SMM_VMO_PATHS(SMM_X)
#undef SMM_X
		return 0;
	}
	fprintf(stderr, "usage: tables methods|params|paths\n");
	return 2;
}
