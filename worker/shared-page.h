/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shared-page.h - memory that every worker of a run shares: mapped
 * MAP_SHARED | MAP_ANONYMOUS by the plugin's constructor in stress-ng's
 * main process, before any worker is forked, so that every process forked
 * afterwards sees the same pages (report.h's once-per-run bits, the
 * plugin's instances). The kernel frees it with the last process.
 */
#ifndef SMM_SHARED_PAGE_H
#define SMM_SHARED_PAGE_H

#include <stddef.h>

/*
 * smm_shared_map() - map @bytes of zeroed shared memory into *@where,
 * unless *@where is already set (then nothing changes).
 * Return: 0, or -errno of mmap(2) (*@where stays NULL).
 */
int smm_shared_map(void **where, size_t bytes);

/* smm_shared_unmap() - unmap *@where (@bytes) and set it to NULL. */
void smm_shared_unmap(void **where, size_t bytes);

#endif /* SMM_SHARED_PAGE_H */
