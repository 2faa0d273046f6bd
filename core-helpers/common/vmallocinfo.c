// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmallocinfo.c - /proc/vmallocinfo reader.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmallocinfo.h"

static const struct {
	const char *word;
	unsigned int flag;
} flag_words[] = {
	{ "vmalloc", SMM_VMA_VMALLOC }, { "vmap", SMM_VMA_VMAP },
	{ "ioremap", SMM_VMA_IOREMAP }, { "vpages", SMM_VMA_VPAGES },
	{ "user", SMM_VMA_USER },	{ "vm_map_ram", SMM_VMA_VM_MAP_RAM },
};

static void parse_word(const char *w, struct smm_vmarea *a)
{
	const char *plus;

	if (strncmp(w, "pages=", 6) == 0) {
		a->pages = strtoul(w + 6, NULL, 10);
		return;
	}
	for (size_t i = 0; i < sizeof(flag_words) / sizeof(flag_words[0]);
	     i++) {
		if (strcmp(w, flag_words[i].word) == 0) {
			a->flags |= flag_words[i].flag;
			return;
		}
	}
	/* The caller is the only word of the form name+0xoff/0xlen. */
	plus = strstr(w, "+0x");
	if (plus && !a->caller[0] && plus > w) {
		size_t n = (size_t)(plus - w);

		if (n >= sizeof(a->caller))
			n = sizeof(a->caller) - 1;
		memcpy(a->caller, w, n);
		a->caller[n] = '\0';
	}
}

int smm_vmallocinfo_parse(const char *line, struct smm_vmarea *out)
{
	struct smm_vmarea a;
	char buf[512], *save = NULL, *w;
	uint64_t end;
	int used = 0;

	memset(&a, 0, sizeof(a));
	if (sscanf(line, "0x%" SCNx64 "-0x%" SCNx64 " %" SCNu64 "%n", &a.start,
		   &end, &a.size, &used) != 3)
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", line + used);
	if (strstr(buf, "unpurged vm_area"))
		a.flags |= SMM_VMA_UNPURGED;
	for (w = strtok_r(buf, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save))
		parse_word(w, &a);
	*out = a;
	return 0;
}

int smm_caller_matches(const char *caller, const char *const *callers)
{
	if (!callers)
		return 1;
	for (; *callers; callers++)
		if (strcmp(caller, *callers) == 0)
			return 1;
	return 0;
}

int smm_vmallocinfo_read(const char *path, const char *const *callers,
			 uint64_t size, struct smm_vmarea **out, size_t *n)
{
	struct smm_vmarea *v = NULL, a;
	size_t len = 0, cap = 0;
	char line[512];
	FILE *f;

	f = fopen(path ? path : SMM_VMALLOCINFO_PATH, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (smm_vmallocinfo_parse(line, &a) != 0)
			continue;
		if (!smm_caller_matches(a.caller, callers))
			continue;
		if (size && a.size != size)
			continue;
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct smm_vmarea *nv = realloc(v, ncap * sizeof(*v));

			if (!nv) {
				free(v);
				fclose(f);
				return -ENOMEM;
			}
			v = nv;
			cap = ncap;
		}
		v[len++] = a;
	}
	fclose(f);
	*out = v;
	*n = len;
	return 0;
}

static int same_area(const struct smm_vmarea *a, const struct smm_vmarea *b)
{
	return a->start == b->start && a->size == b->size &&
	       strcmp(a->caller, b->caller) == 0;
}

size_t smm_vmallocinfo_new(const struct smm_vmarea *before, size_t nb,
			   struct smm_vmarea *after, size_t na)
{
	unsigned char *used = calloc(nb ? nb : 1, 1);
	size_t keep = 0;

	/*
	 * Each area of @before pairs with at most one of @after. With real
	 * (hashed) addresses that is an exact match; with kptr_restrict=1
	 * every address reads as 0 and it becomes a count per (size, caller).
	 * Quadratic: used once per worker, on the areas of a few callers.
	 */
	for (size_t i = 0; i < na; i++) {
		size_t j;

		for (j = 0; j < nb; j++)
			if ((!used || !used[j]) &&
			    same_area(&after[i], &before[j]))
				break;
		if (j < nb) {
			if (used)
				used[j] = 1;
			continue;
		}
		after[keep++] = after[i];
	}
	free(used);
	return keep;
}

size_t smm_vmarea_mode(const struct smm_vmarea *v, size_t n, size_t max_scan,
		       size_t *count)
{
	size_t best = 0;

	*count = 0;
	for (size_t i = 0; i < n && i < max_scan; i++) {
		size_t c = 0;

		for (size_t j = 0; j < n; j++)
			c += v[j].size == v[i].size;
		if (c > *count) {
			*count = c;
			best = i;
		}
		if (*count > n / 2) /* no other size can have more */
			break;
	}
	return best;
}
