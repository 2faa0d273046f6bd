// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen-native.c - what stress-ng's tree needs to know of our stressors,
 * generated from the parameter tables (common/params-table.c), so that
 * every name, range, default and help text stays defined once.
 *
 *   gen-native macros     MACRO(name) lines for core-stressors.h
 *   gen-native enum       OPT_* enum entries for core-opts.h
 *   gen-native longopts   struct option entries for core-opts.c
 *   gen-native man        one stressor section each for stress-ng.1
 *   gen-native header     stress-mm-opts.h: help[] and opts[] rows for
 *                         the adapters (native/stress-*.c)
 *
 * Output goes to stdout; exit 1 on a usage error. Runs at build time only.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params-table.h"
#include "troff.h"

struct native_stressor {
	const char *name; /* stress-ng's stressor name: "vmalloc-order" */
	const struct smm_param *params;
	int nparams;
	const char *start; /* help of --NAME N */
	const char *title; /* man page heading */
	const char *man; /* man page paragraph of --NAME N */
};

static const struct native_stressor stressors[] = {
	{
		.name = "shm-pcp",
		.params = smm_shm_params,
		.nparams = SMM_SHM_NR_PARAMS,
		.start = "start N workers faulting shared memory against "
			 "vmalloc churn",
		.title = "Shared memory faults against vmalloc churn (PCP "
			 "order-0 starvation) stressor (stress-mm)",
		.man = "start N workers that each create a shared memory "
		       "object, map it, write-fault every page once, unmap it "
		       "and destroy it (one bogo operation), while churn "
		       "companion processes of each worker allocate and free "
		       "vmalloc-backed kernel memory without pause (thread "
		       "stacks by default), spin on the same CPU without "
		       "allocating (the control), or do nothing. On kernels "
		       "whose vfree returns order-2 blocks the faults' order-0 "
		       "per-CPU page lists starve. Metrics: pages faulted per "
		       "second and churn allocations per second per worker. "
		       "With --verify every faulted page is read back and must "
		       "hold the word written to it. A churn path this system "
		       "cannot run skips the stressor with the reason. "
		       "Parameters may also come from the STRESS_MM_SHM_PCP_* "
		       "environment variables named below; an option wins.",
	},
	{
		.name = "vmalloc-order",
		.params = smm_vmo_params,
		.nparams = SMM_VMO_NR_PARAMS,
		.start = "start N workers making vmalloc-backed kernel "
			 "allocations",
		.title =
			"vmalloc-backed kernel allocation stressor (stress-mm)",
		.man = "start N workers that each make a batch of kernel "
		       "allocations in vmalloc space through a user-space "
		       "path, keep them all alive at once and free them (one "
		       "bogo operation): thread stacks, io_uring buffer tables "
		       "and rings, classic BPF socket filters, LDT tables, "
		       "ptys, fd tables, or exact-size areas from stress-mm's "
		       "module through /dev/stress-mm-vmalloc. Each path "
		       "proves from /proc/vmallocinfo that its areas are what "
		       "it claims; a path this kernel does not back is skipped "
		       "with the reason. Metrics: allocations per second per "
		       "worker. With --verify each path proves its areas again "
		       "every second while it runs. Parameters may also come "
		       "from the STRESS_MM_VMALLOC_ORDER_* environment "
		       "variables named below; an option wins.",
	},
};

#define NR_STRESSORS (sizeof(stressors) / sizeof(stressors[0]))

/* "vmalloc-order-bytes" -> "vmalloc_order_bytes" */
static void sym(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] == '-' ? '_' : name[i];
	buf[i] = '\0';
}

static const char *arg_of(const struct smm_param *p)
{
	return p->type == SMM_P_CHOICE ? "M" : "N";
}

/* @s as the inside of a C string literal. */
static void c_str(const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
}

/*
 * The one-line description stress-ng's --help prints for @p: choices
 * first, in brackets (lkp-tests looks for "[...all" on that line to add
 * --NAME-method all; not those the front end alone runs), then the
 * table's help, the range and the default.
 */
static void describe(const struct smm_param *p, void (*out)(const char *))
{
	char range[256];

	if (p->type == SMM_P_CHOICE) {
		out("[");
		for (int c = 0; p->choices[c] && (!p->front_end_from ||
						  c < (int)p->front_end_from);
		     c++) {
			out(c ? ", " : "");
			out(p->choices[c]);
		}
		out("] ");
		out(p->help);
		out("; default ");
		out(p->def);
		return;
	}
	smm_param_range(p, range, sizeof(range));
	out(p->help);
	out("; ");
	out(range);
	out(", default ");
	out(p->def);
}

static void gen_macros(void)
{
	char s[64];

	for (size_t i = 0; i < NR_STRESSORS; i++) {
		sym(stressors[i].name, s, sizeof(s));
		printf("%s\n", s);
	}
}

static void gen_enum(void)
{
	char s[64];

	for (size_t i = 0; i < NR_STRESSORS; i++) {
		const struct native_stressor *st = &stressors[i];

		sym(st->name, s, sizeof(s));
		printf("\tOPT_%s,\n\tOPT_%s_ops,\n", s, s);
		for (int p = 0; p < st->nparams; p++) {
			sym(st->params[p].option, s, sizeof(s));
			printf("\tOPT_%s,\n", s);
		}
		printf("\n");
	}
}

static void gen_longopts(void)
{
	char s[64];

	for (size_t i = 0; i < NR_STRESSORS; i++) {
		const struct native_stressor *st = &stressors[i];

		sym(st->name, s, sizeof(s));
		printf("\t{ \"%s\",\t1,\tNULL,\tOPT_%s },\n", st->name, s);
		printf("\t{ \"%s-ops\",\t1,\tNULL,\tOPT_%s_ops },\n", st->name,
		       s);
		for (int p = 0; p < st->nparams; p++) {
			sym(st->params[p].option, s, sizeof(s));
			printf("\t{ \"%s\",\t1,\tNULL,\tOPT_%s },\n",
			       st->params[p].option, s);
		}
		printf("\n");
	}
}

static void out_c(const char *s)
{
	c_str(s);
}

static void out_troff(const char *s)
{
	smm_troff_text(stdout, s);
}

static void gen_header(void)
{
	char s[64], up[64];

	printf("/* Generated by stress-mm's native/gen-native from "
	       "core-helpers/common/params-table.c: do not edit. */\n"
	       "#ifndef STRESS_MM_OPTS_H\n#define STRESS_MM_OPTS_H\n\n");
	for (size_t i = 0; i < NR_STRESSORS; i++) {
		const struct native_stressor *st = &stressors[i];

		sym(st->name, s, sizeof(s));
		for (size_t k = 0; s[k]; k++)
			up[k] = (char)toupper((unsigned char)s[k]);
		up[strlen(s)] = '\0';
		printf("/* help[] rows of %s: the stressor, its parameters, "
		       "-ops */\n#define SMM_SNG_%s_HELP \\\n",
		       st->name, up);
		printf("\t{ NULL, \"%s N\", \"", st->name);
		c_str(st->start);
		printf("\" }, \\\n");
		for (int p = 0; p < st->nparams; p++) {
			const struct smm_param *pp = &st->params[p];

			printf("\t{ NULL, \"%s %s\", \"", pp->option,
			       arg_of(pp));
			describe(pp, out_c);
			printf("\" }, \\\n");
		}
		printf("\t{ NULL, \"%s-ops N\", \"stop after N %s bogo "
		       "operations\" },\n\n",
		       st->name, st->name);
		printf("/* opts[] rows of %s: every value is parsed by "
		       "smm_sng_opt() with the table's row */\n"
		       "#define SMM_SNG_%s_OPTS \\\n",
		       st->name, up);
		for (int p = 0; p < st->nparams; p++) {
			sym(st->params[p].option, s, sizeof(s));
			printf("\t{ OPT_%s, \"%s\", TYPE_ID_CALLBACK, 0, 0, "
			       "(void *)smm_sng_opt },%s\n",
			       s, st->params[p].option,
			       p + 1 < st->nparams ? " \\" : "");
		}
		printf("\n");
	}
	printf("#endif /* STRESS_MM_OPTS_H */\n");
}

static void gen_man(void)
{
	for (size_t i = 0; i < NR_STRESSORS; i++) {
		const struct native_stressor *st = &stressors[i];

		printf(".TP\n.B ");
		smm_troff_text(stdout, st->title);
		printf("\n.RS 5\n.TQ\n.B \\-\\-");
		smm_troff_text(stdout, st->name);
		printf(" N\n");
		smm_troff_text(stdout, st->man);
		printf("\n");
		for (int p = 0; p < st->nparams; p++) {
			const struct smm_param *pp = &st->params[p];

			printf(".TP\n.B \\-\\-");
			smm_troff_text(stdout, pp->option);
			printf(" %s\n", arg_of(pp));
			describe(pp, out_troff);
			printf(" (environment: ");
			smm_troff_text(stdout, pp->env);
			printf(").\n");
		}
		printf(".TP\n.B \\-\\-");
		smm_troff_text(stdout, st->name);
		printf("\\-ops N\nstop after N ");
		smm_troff_text(stdout, st->name);
		printf(" bogo operations.\n.RE\n");
	}
}

static const struct {
	const char *name;
	void (*gen)(void);
} modes[] = {
	{ "macros", gen_macros },     { "enum", gen_enum },
	{ "longopts", gen_longopts }, { "header", gen_header },
	{ "man", gen_man },
};

int main(int argc, char **argv)
{
	for (size_t i = 0; argc == 2 && i < sizeof(modes) / sizeof(modes[0]);
	     i++) {
		if (strcmp(argv[1], modes[i].name) == 0) {
			modes[i].gen();
			return fflush(stdout) == 0 ? 0 : 1;
		}
	}
	fprintf(stderr, "usage: gen-native macros|enum|longopts|header|man\n");
	return 1;
}
