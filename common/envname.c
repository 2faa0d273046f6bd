// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * envname.c - unknown STRESS_MM_* variables and the closest known name.
 */
#include <stdint.h>
#include <string.h>

#include "envname.h"
#include "params-table.h"

#define MAX_LEN 127 /* bytes compared; the rest count one each */
#define NR_KNOWN \
	(SMM_VMO_NR_PARAMS + SMM_SHM_NR_PARAMS + SMM_COMMON_NR_PARAMS + 1)

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned int smm_edit_distance(const char *a, const char *b)
{
	uint8_t d[MAX_LEN + 1][MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b), ea = 0, eb = 0;

	if (la > MAX_LEN) {
		ea = la - MAX_LEN;
		la = MAX_LEN;
	}
	if (lb > MAX_LEN) {
		eb = lb - MAX_LEN;
		lb = MAX_LEN;
	}
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (uint8_t)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (uint8_t)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];
			unsigned int v =
				min3(d[i - 1][j] + 1U, d[i][j - 1] + 1U,
				     d[i - 1][j - 1] + cost);

			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1U < v)
				v = d[i - 2][j - 2] + 1U;
			d[i][j] = (uint8_t)v;
		}
	}
	return d[la][lb] + (unsigned int)(ea > eb ? ea : eb);
}

const char *smm_closest_word(const char *word, const char *const *words,
			     size_t n, unsigned int *dist)
{
	const char *best = NULL;
	unsigned int best_d = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned int d = smm_edit_distance(word, words[i]);

		if (!best || d < best_d) {
			best = words[i];
			best_d = d;
		}
	}
	if (dist)
		*dist = best_d;
	return best;
}

size_t smm_env_known_names(const char *const **names)
{
	static const char *known[NR_KNOWN];
	size_t n = 0;

	if (!known[0]) {
		for (int i = 0; i < SMM_VMO_NR_PARAMS; i++)
			known[n++] = smm_vmo_params[i].env;
		for (int i = 0; i < SMM_SHM_NR_PARAMS; i++)
			known[n++] = smm_shm_params[i].env;
		for (int i = 0; i < SMM_COMMON_NR_PARAMS; i++)
			known[n++] = smm_common_params[i].env;
		known[n] = SMM_ENV_EXTRA;
	}
	*names = known;
	return NR_KNOWN;
}

bool smm_env_unknown(const char *entry, const char **closest)
{
	const char *eq = strchr(entry, '='), *const * names;
	size_t n = smm_env_known_names(&names), len;
	unsigned int dist;
	char name[256];

	if (!eq || strncmp(entry, SMM_ENV_PREFIX, strlen(SMM_ENV_PREFIX)) != 0)
		return false;
	len = (size_t)(eq - entry);
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, entry, len);
	name[len] = '\0';
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return false;
	*closest = smm_closest_word(name, names, n, &dist);
	if ((size_t)dist * 3 > len - strlen(SMM_ENV_PREFIX))
		*closest = NULL; /* nothing near: no guess */
	return true;
}
