// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lock-sides.c - zone-lock sides from /proc/kallsyms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lock-sides.h"

const char *const smm_side_names[SMM_NR_SIDES] = { "alloc", "free", "other" };

/* clang-format off */
static const struct {
	const char *name;
	enum smm_bpf_side side;
} side_funcs[] = {
	{ "rmqueue_bulk", SMM_SIDE_ALLOC },
	{ "__rmqueue_pcplist", SMM_SIDE_ALLOC },
	{ "free_pcppages_bulk", SMM_SIDE_FREE },
	{ "free_one_page", SMM_SIDE_FREE },
};
/* clang-format on */
#define NR_SIDE_FUNCS (sizeof(side_funcs) / sizeof(side_funcs[0]))

/* @sym is @name or one of its clones (@name followed by '.'). */
static int is_func(const char *sym, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(sym, name, n) && (!sym[n] || sym[n] == '.');
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The first text address above @a (0: none). */
static uint64_t next_above(const uint64_t *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? v[lo] : 0;
}

struct found {
	uint64_t addr;
	unsigned int func;
	char sym[64];
};

/* Text symbols' addresses (sorted) and the side functions found. */
static int scan(FILE *f, uint64_t **addrs, size_t *naddr, struct found *fd,
		unsigned int *nfd, int *hidden)
{
	char line[512], sym[256], type;
	unsigned long long a;
	size_t cap = 0;

	*addrs = NULL;
	*naddr = 0;
	*nfd = 0;
	*hidden = 1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (a)
			*hidden = 0;
		if (*naddr == cap) {
			uint64_t *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(*addrs, cap * sizeof(**addrs));
			if (!p)
				return -ENOMEM;
			*addrs = p;
		}
		(*addrs)[(*naddr)++] = a;
		for (unsigned int i = 0; i < NR_SIDE_FUNCS; i++) {
			if (!is_func(sym, side_funcs[i].name) ||
			    *nfd == SMM_BPF_RANGES)
				continue;
			fd[*nfd].addr = a;
			fd[*nfd].func = i;
			snprintf(fd[*nfd].sym, sizeof(fd[*nfd].sym), "%.63s",
				 sym);
			(*nfd)++;
		}
	}
	if (*naddr)
		qsort(*addrs, *naddr, sizeof(**addrs), cmp_u64);
	return 0;
}

static void add_func(char *list, size_t len, const char *sym)
{
	size_t l = strlen(list);

	snprintf(list + l, len - l, "%s%s", l ? "," : "", sym);
}

/* Every side: "@path: @what". */
static void set_why(struct smm_lock_sides *ks, const char *path,
		    const char *what)
{
	for (int s = 0; s < SMM_NR_SIDES; s++)
		snprintf(ks->why[s], sizeof(ks->why[s]), "%.60s %s", path,
			 what);
}

int smm_lock_sides_read(struct smm_lock_sides *ks, const char *path)
{
	struct found fd[SMM_BPF_RANGES];
	unsigned int nfd;
	uint64_t *addrs;
	size_t naddr;
	int hidden, rc;
	FILE *f;

	memset(ks, 0, sizeof(*ks));
	path = path ? path : "/proc/kallsyms";
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		set_why(ks, path,
			"unreadable: the side of a wait cannot be told");
		return rc;
	}
	rc = scan(f, &addrs, &naddr, fd, &nfd, &hidden);
	fclose(f);
	if (rc) {
		free(addrs);
		set_why(ks, path, "not read: out of memory");
		return rc;
	}
	if (hidden) {
		free(addrs);
		set_why(ks, path,
			"shows no addresses (kernel.kptr_restrict): the side of a wait cannot be told");
		return 0;
	}
	for (unsigned int i = 0; i < nfd; i++) {
		uint64_t end = next_above(addrs, naddr, fd[i].addr);
		enum smm_bpf_side side = side_funcs[fd[i].func].side;

		if (!end)
			continue;
		ks->r[ks->n].start = fd[i].addr;
		ks->r[ks->n].end = end;
		ks->r[ks->n].side = side;
		ks->n++;
		add_func(ks->funcs[side], sizeof(ks->funcs[side]), fd[i].sym);
	}
	free(addrs);
	for (int s = SMM_SIDE_ALLOC; s <= SMM_SIDE_FREE; s++) {
		char names[120] = "";

		if (ks->funcs[s][0])
			continue;
		for (unsigned int i = 0; i < NR_SIDE_FUNCS; i++)
			if ((int)side_funcs[i].side == s)
				add_func(names, sizeof(names),
					 side_funcs[i].name);
		snprintf(
			ks->why[s], sizeof(ks->why[s]),
			"none of %s is a symbol in %s (inlined): its waits cannot be told from others",
			names, path);
		snprintf(
			ks->why[SMM_SIDE_OTHER],
			sizeof(ks->why[SMM_SIDE_OTHER]),
			"the %s side cannot be told (its functions are inlined), so its waits would count here",
			smm_side_names[s]);
	}
	return 0;
}
