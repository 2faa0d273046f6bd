/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmallocinfo.h - read /proc/vmallocinfo: the proof that a path lands in
 * vmalloc space.
 *
 * Line format (mm/vmalloc.c: vmalloc_info_show(), 6.x):
 *   0x<start>-0x<end> <size> [<caller>+0x<off>/0x<len>] [pages=N]
 *      [phys=<pa>] [ioremap] [sparse] [vmalloc] [vmap] [user]
 *      [dma-coherent] [vpages] [N<node>=<cnt> ...]
 *   0x<start>-0x<end> <size> vm_map_ram
 *   0x<start>-0x<end> <size> unpurged vm_area
 * <size> is in bytes and includes the guard page. Addresses are %pK
 * (hashed or zero depending on kptr_restrict), so they identify an area
 * within one boot but are never real addresses. The file is mode 0400:
 * opening it needs uid 0 (no capability is needed, so capability-less
 * stress-ng workers running as root can read it).
 */
#ifndef SMM_VMALLOCINFO_H
#define SMM_VMALLOCINFO_H

#include <stddef.h>
#include <stdint.h>

#define SMM_VMALLOCINFO_PATH "/proc/vmallocinfo"

enum {
	SMM_VMA_VMALLOC = 1 << 0, /* pages from vm_area_alloc_pages() */
	SMM_VMA_VMAP = 1 << 1, /* pages mapped from elsewhere */
	SMM_VMA_IOREMAP = 1 << 2,
	SMM_VMA_UNPURGED = 1 << 3, /* lazily freed VA, pages already gone */
	SMM_VMA_VM_MAP_RAM = 1 << 4,
	SMM_VMA_VPAGES = 1 << 5, /* the pages[] array is itself vmalloc'ed */
	SMM_VMA_USER = 1 << 6,
};

struct smm_vmarea {
	uint64_t start; /* hashed start address as printed */
	uint64_t size; /* bytes, including the guard page */
	unsigned long pages; /* "pages=" (0 when absent, e.g. vmap) */
	unsigned int flags; /* SMM_VMA_* */
	char caller[64]; /* function name without +off/len; "" if none */
};

/*
 * smm_vmallocinfo_parse() - parse one line (with or without its newline).
 * Return: 0, or -EINVAL when the line has no start-end range and size.
 */
int smm_vmallocinfo_parse(const char *line, struct smm_vmarea *out);

/*
 * smm_caller_matches() - true when @caller is one of the NULL-terminated
 * @callers (exact function names), or @callers is NULL.
 */
int smm_caller_matches(const char *caller, const char *const *callers);

/*
 * smm_vmallocinfo_read() - all areas from @path (NULL: the real file) whose
 * caller is in @callers (NULL: every area) and, when @size is non-zero,
 * whose size equals @size.
 * @out: set to a malloc'ed array (free() it), @n: its length.
 * Return: 0, or -errno of fopen(3) (EACCES unprivileged) or -ENOMEM.
 */
int smm_vmallocinfo_read(const char *path, const char *const *callers,
			 uint64_t size, struct smm_vmarea **out, size_t *n);

/*
 * smm_vmallocinfo_new() - keep in @after only the areas that do not pair
 * with one of @before on (start, size, caller): areas created between two
 * reads, whatever other processes freed meanwhile. When addresses are
 * hidden (kptr_restrict=1 makes %pK print 0 for readers without
 * CAP_SYSLOG, such as stress-ng's workers), it is the growth in areas per
 * (size, caller). Returns the new length of @after.
 */
size_t smm_vmallocinfo_new(const struct smm_vmarea *before, size_t nb,
			   struct smm_vmarea *after, size_t na);

/*
 * smm_vmarea_mode() - index of the first area of the most common size among
 * @n areas, looking at the first @max_scan areas as candidates (quadratic:
 * callers bound it on long lists); *count is how many areas have that size.
 * Returns 0 with *count 0 when @n is 0.
 */
size_t smm_vmarea_mode(const struct smm_vmarea *v, size_t n, size_t max_scan,
		       size_t *count);

#endif /* SMM_VMALLOCINFO_H */
