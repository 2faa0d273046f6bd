// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared-page.c - shared anonymous memory for all workers of a run.
 */
#include <errno.h>
#include <sys/mman.h>

#include "shared-page.h"

int smm_shared_map(void **where, size_t bytes)
{
	void *p;

	if (*where)
		return 0;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	*where = p;
	return 0;
}

void smm_shared_unmap(void **where, size_t bytes)
{
	if (*where)
		munmap(*where, bytes);
	*where = NULL;
}
