// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-vmallocinfo.c - the /proc/vmallocinfo line parser on the line forms of
 * mm/vmalloc.c vmalloc_info_show(), the new-area difference, and every line
 * of the live file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "core-vmallocinfo.h"

static void test_lines(void)
{
	stress_vmallocinfo_area_t a;

	tap_ok(stress_vmallocinfo_parse(
		       "0x000000004c1bd6e8-0x00000000b7d1a2f1   20480 kernel_clone+0xb8/0x400 pages=4 vmalloc N0=4\n",
		       &a) == 0 &&
		       a.size == 20480 && a.pages == 4 &&
		       a.flags == STRESS_VMALLOCINFO_VMALLOC &&
		       a.start == 0x4c1bd6e8 &&
		       strcmp(a.caller, "kernel_clone") == 0,
	       "thread stack line");
	tap_ok(stress_vmallocinfo_parse(
		       "0x0000000011111111-0x0000000022222222   12288 io_create_region+0x1b5/0x3b0 vmap",
		       &a) == 0 &&
		       a.size == 12288 && a.pages == 0 &&
		       a.flags == STRESS_VMALLOCINFO_VMAP &&
		       strcmp(a.caller, "io_create_region") == 0,
	       "vmap line without pages=");
	tap_ok(stress_vmallocinfo_parse(
		       "0x0000000011111111-0x0000000022222222 6295552 netlink_alloc_large_skb+0x3f/0xd0 pages=1536 vmalloc vpages N0=1536",
		       &a) == 0 &&
		       a.pages == 1536 &&
		       a.flags == (STRESS_VMALLOCINFO_VMALLOC |
				   STRESS_VMALLOCINFO_VPAGES),
	       "vpages line");
	tap_ok(stress_vmallocinfo_parse(
		       "0x0000000011111111-0x0000000022222222    8192 unpurged vm_area",
		       &a) == 0 &&
		       a.flags == STRESS_VMALLOCINFO_UNPURGED &&
		       a.caller[0] == '\0',
	       "unpurged vm_area line");
	tap_ok(stress_vmallocinfo_parse(
		       "0x0000000011111111-0x0000000022222222    8192 vm_map_ram",
		       &a) == 0 &&
		       a.flags == STRESS_VMALLOCINFO_VM_MAP_RAM,
	       "vm_map_ram line");
	tap_ok(stress_vmallocinfo_parse(
		       "0x0000000011111111-0x0000000022222222    8192 acpi_os_map_iomem+0x1c3/0x1f0 phys=0x00000000fed00000 ioremap",
		       &a) == 0 &&
		       a.flags == STRESS_VMALLOCINFO_IOREMAP &&
		       strcmp(a.caller, "acpi_os_map_iomem") == 0,
	       "ioremap line with phys=");
	tap_ok(stress_vmallocinfo_parse("garbage 12 x", &a) == -EINVAL &&
		       stress_vmallocinfo_parse("", &a) == -EINVAL,
	       "lines without a range are rejected");
}

static void test_new(void)
{
	stress_vmallocinfo_area_t before[3] = {
		{ .start = 1, .size = 20480, .caller = "kernel_clone" },
		{ .start = 2, .size = 20480, .caller = "kernel_clone" },
		{ .start = 3, .size = 20480, .caller = "kernel_clone" },
	};
	/* 2 freed meanwhile, 3 kept, 4 and 5 new, 1 reused with a new size */
	stress_vmallocinfo_area_t after[4] = {
		{ .start = 1, .size = 8192, .caller = "kernel_clone" },
		{ .start = 3, .size = 20480, .caller = "kernel_clone" },
		{ .start = 4, .size = 20480, .caller = "kernel_clone" },
		{ .start = 5, .size = 20480, .caller = "kernel_clone" },
	};
	size_t n = stress_vmallocinfo_new(before, 3, after, 4);

	tap_ok(n == 3 && after[0].start == 1 && after[1].start == 4 &&
		       after[2].start == 5,
	       "new areas: created ones only, whatever was freed");
	{
		/* kptr_restrict=1: every address reads 0. Two stacks before,
		 * four after, one 8K area gone: two new stacks. */
		stress_vmallocinfo_area_t b0[3] = {
			{ .size = 20480, .caller = "kernel_clone" },
			{ .size = 20480, .caller = "kernel_clone" },
			{ .size = 8192, .caller = "kernel_clone" },
		};
		stress_vmallocinfo_area_t a0[4] = {
			{ .size = 20480, .caller = "kernel_clone" },
			{ .size = 20480, .caller = "kernel_clone" },
			{ .size = 20480, .caller = "kernel_clone" },
			{ .size = 20480, .caller = "kernel_clone" },
		};

		tap_ok(stress_vmallocinfo_new(b0, 3, a0, 4) == 2,
		       "new areas with hidden addresses: growth per size and caller");
	}
	tap_ok(stress_vmallocinfo_caller("x", NULL) &&
		       stress_vmallocinfo_caller(
			       "b", (const char *const[]){ "a", "b", NULL }) &&
		       !stress_vmallocinfo_caller(
			       "c", (const char *const[]){ "a", "b", NULL }),
	       "caller matching");
}

static void test_mode(void)
{
	stress_vmallocinfo_area_t v[4] = {
		{ .size = 8192 },
		{ .size = 20480 },
		{ .size = 20480 },
		{ .size = 4096 },
	};
	size_t count = 9, m = stress_vmallocinfo_mode(v, 4, 4, &count);

	tap_ok(m == 1 && count == 2,
	       "mode: the first area of the most common size");
	stress_vmallocinfo_mode(v, 0, 4, &count);
	tap_ok(count == 0, "mode of no areas: count 0");
}

/*
 * Every line of the live file parses: one snapshot is copied to a file,
 * then every line of that copy goes through the parser and through the
 * reader, so the two counts are of the same lines. No drift allowed.
 */
static void test_live(void)
{
	char copy[] = "/tmp/smm-vmallocinfo.XXXXXX", line[512];
	size_t n = 0, lines = 0, bad = 0;
	stress_vmallocinfo_area_t *v = NULL, a;
	FILE *in, *out;
	int fd, rc;

	in = fopen(STRESS_VMALLOCINFO_PATH, "r");
	if (!in) {
		tap_skip("every line of the live file parses",
			 "%s: %s (needs uid 0)", STRESS_VMALLOCINFO_PATH,
			 strerror(errno));
		return;
	}
	fd = mkstemp(copy);
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	while (out && fgets(line, sizeof(line), in))
		fputs(line, out);
	fclose(in);
	if (!out) {
		tap_skip("every line of the live file parses", "mkstemp: %s",
			 strerror(errno));
		return;
	}
	fclose(out);
	in = fopen(copy, "r");
	while (in && fgets(line, sizeof(line), in)) {
		lines++;
		if (stress_vmallocinfo_parse(line, &a) != 0 && bad++ < 3)
			tap_diag("unparsable: %s", line);
	}
	if (in)
		fclose(in);
	rc = stress_vmallocinfo_read(copy, NULL, 0, &v, &n);
	unlink(copy);
	tap_ok(rc == 0 && lines > 0 && bad == 0 && n == lines,
	       "every line of the live file parses (%zu lines, %zu unparsable, %zu areas read)",
	       lines, bad, n);
	free(v);
}

int main(void)
{
	tap_plan(13);
	test_lines();
	test_new();
	test_mode();
	test_live();
	return tap_done();
}
