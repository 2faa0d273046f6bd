// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-envname.c - the STRESS_MM_* name matcher (common/envname.h): edit
 * distance, the closest known variable, and which entries are unknown.
 */
#include <string.h>

#include "envname.h"
#include "params-table.h"
#include "tap.h"

int main(void)
{
	const char *const words[] = { "STACK", "BATCH", "BYTES" };
	const char *const *names, *closest = NULL;
	unsigned int d = 99;
	size_t n;

	tap_plan(15);
	tap_ok(smm_edit_distance("", "") == 0 &&
		       smm_edit_distance("abc", "abc") == 0,
	       "distance: equal strings are 0");
	tap_ok(smm_edit_distance("BYTE", "BYTES") == 1 &&
		       smm_edit_distance("BYTESS", "BYTES") == 1 &&
		       smm_edit_distance("BXTES", "BYTES") == 1,
	       "distance: one deletion, insertion or substitution is 1");
	tap_ok(smm_edit_distance("BACTH", "BATCH") == 1,
	       "distance: two adjacent characters swapped are 1");
	tap_ok(smm_edit_distance("", "BATCH") == 5 &&
		       smm_edit_distance("kitten", "sitting") == 3,
	       "distance: from nothing, and the classic 3");
	{
		char a[300], b[300];

		memset(a, 'a', 299);
		a[299] = '\0';
		memset(b, 'a', 200);
		b[200] = '\0';
		d = smm_edit_distance(a, b);
		tap_ok(d >= 99 && d <= 299,
		       "distance: past 127 bytes, an upper bound (%u)", d);
	}
	tap_ok(strcmp(smm_closest_word("BATHC", words, 3, &d), "BATCH") == 0 &&
		       d == 1,
	       "closest: the least distance");
	tap_ok(strcmp(smm_closest_word("BXXXX", words, 3, &d), "BATCH") == 0,
	       "closest: the first of equals (STACK, BATCH, BYTES all 4)");
	tap_ok(smm_closest_word("x", words, 0, NULL) == NULL,
	       "closest: no words, no answer");
	n = smm_env_known_names(&names);
	tap_ok(n == SMM_VMO_NR_PARAMS + SMM_SHM_NR_PARAMS +
				       SMM_COMMON_NR_PARAMS + 1 &&
		       strcmp(names[0], smm_vmo_params[0].env) == 0 &&
		       strcmp(names[n - 1], "STRESS_MM_ARGS") == 0,
	       "known: every table's variables and STRESS_MM_ARGS (%zu)", n);
	closest = NULL;
	d = smm_env_unknown("STRESS_MM_SHM_PCP_BYTE=1M", &closest);
	tap_ok(d && closest && strcmp(closest, "STRESS_MM_SHM_PCP_BYTES") == 0,
	       "unknown: a missing letter names the variable (%s)",
	       closest ? closest : "none");
	closest = NULL;
	d = smm_env_unknown("STRESS_MM_VMALLOC_ORDER_BACTH=4", &closest);
	tap_ok(d && closest &&
		       strcmp(closest, "STRESS_MM_VMALLOC_ORDER_BATCH") == 0,
	       "unknown: swapped letters name the variable (%s)",
	       closest ? closest : "none");
	closest = NULL;
	d = smm_env_unknown("STRESS_MM_SHMPCP_CPU=same", &closest);
	tap_ok(d && closest && strcmp(closest, "STRESS_MM_SHM_PCP_CPU") == 0,
	       "unknown: a missing underscore (%s)",
	       closest ? closest : "none");
	d = smm_env_unknown("STRESS_MM_FOO=1", &closest);
	tap_ok(d && closest == NULL,
	       "STRESS_MM_FOO: unknown, and nothing near enough to guess");
	tap_ok(!smm_env_unknown("STRESS_MM_SHM_PCP_BYTES=1M", &closest) &&
		       !smm_env_unknown("STRESS_MM_STATS_DIR=/tmp", &closest) &&
		       !smm_env_unknown("STRESS_MM_ARGS=-t 1", &closest),
	       "known: table variables and STRESS_MM_ARGS are not warned about");
	tap_ok(!smm_env_unknown("PATH=/bin", &closest) &&
		       !smm_env_unknown("STRESS_NG_X=1", &closest) &&
		       !smm_env_unknown("STRESS_MM_NOEQUALS", &closest),
	       "other: other prefixes and entries without '=' are not ours");
	return tap_done();
}
