/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#ifndef CORE_VMALLOCINFO_H
#define CORE_VMALLOCINFO_H

/*
 *  /proc/vmallocinfo, one area a line (mm/vmalloc.c vmalloc_info_show()):
 *	0x<start>-0x<end> <size> [<caller>+0x<off>/0x<len>] [pages=N]
 *	    [phys=<pa>] [ioremap] [vmalloc] [vmap] [user] [vpages] [N<n>=<c>]
 *	0x<start>-0x<end> <size> vm_map_ram
 *	0x<start>-0x<end> <size> unpurged vm_area
 *  <size> is in bytes, guard page included. The addresses are %pK:
 *  hashed, or 0 with kptr_restrict=1 for a reader without CAP_SYSLOG, so
 *  they tell areas apart within one boot and are never real addresses.
 *  The file is mode 0400: reading it needs uid 0, no capability.
 *
 *  Plain C and libc only, so that any program can use it.
 */

#include <stddef.h>
#include <stdint.h>

#define STRESS_VMALLOCINFO_PATH		"/proc/vmallocinfo"

/* the words of an area's line, as flags */
#define STRESS_VMALLOCINFO_VMALLOC	(0x01)	/* pages of its own */
#define STRESS_VMALLOCINFO_VMAP		(0x02)	/* pages from elsewhere */
#define STRESS_VMALLOCINFO_IOREMAP	(0x04)
#define STRESS_VMALLOCINFO_UNPURGED	(0x08)	/* lazily freed, no pages */
#define STRESS_VMALLOCINFO_VM_MAP_RAM	(0x10)
#define STRESS_VMALLOCINFO_VPAGES	(0x20)	/* pages[] vmalloc'ed too */
#define STRESS_VMALLOCINFO_USER		(0x40)

/* an area of /proc/vmallocinfo */
typedef struct {
	uint64_t start;			/* hashed (or 0) start address */
	uint64_t size;			/* bytes, guard page included */
	unsigned long int pages;	/* pages=, 0 when absent (vmap) */
	unsigned int flags;		/* STRESS_VMALLOCINFO_* */
	char caller[64];		/* function, without +off/len; "" */
} stress_vmallocinfo_area_t;

/*
 *  stress_vmallocinfo_parse()
 *	one line, with or without its newline, into *a; 0, or -EINVAL
 *	when it has no start-end range and size
 */
extern int stress_vmallocinfo_parse(const char *line,
	stress_vmallocinfo_area_t *a);

/*
 *  stress_vmallocinfo_caller()
 *	whether caller is one of callers (NULL-terminated function
 *	names); every caller is when callers is NULL
 */
extern int stress_vmallocinfo_caller(const char *caller,
	const char * const *callers);

/*
 *  stress_vmallocinfo_read()
 *	the areas of path (NULL: STRESS_VMALLOCINFO_PATH) whose caller is
 *	one of callers (NULL: all) and, when size is not 0, of that size,
 *	into *areas (malloc'ed, free() it) and *n; 0, or -errno of
 *	fopen(3) (EACCES: not uid 0) or -ENOMEM
 */
extern int stress_vmallocinfo_read(const char *path,
	const char * const *callers, const uint64_t size,
	stress_vmallocinfo_area_t **areas, size_t *n);

/*
 *  stress_vmallocinfo_new()
 *	keep in after[0..na-1] only the areas that pair with none of
 *	before[0..nb-1] on (start, size, caller), each of before pairing
 *	once at most: the areas made between two reads, whatever was
 *	freed meanwhile; with addresses hidden (all 0), the growth per
 *	(size, caller). Returns how many are kept.
 */
extern size_t stress_vmallocinfo_new(const stress_vmallocinfo_area_t *before,
	const size_t nb, stress_vmallocinfo_area_t *after, const size_t na);

/*
 *  stress_vmallocinfo_mode()
 *	index of the first area of the commonest size among v[0..n-1],
 *	looking at the first max_scan as candidates (quadratic: bounds it
 *	on long lists); *count is how many areas have that size, 0 (and
 *	index 0) when n is 0
 */
extern size_t stress_vmallocinfo_mode(const stress_vmallocinfo_area_t *v,
	const size_t n, const size_t max_scan, size_t *count);

#endif
