/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shm-cycle.h - one shared-memory object cycle of shm-pcp (runs in the
 * sandboxed workers; names and the sweep of leftovers: common/shm.h).
 *
 * A cycle creates an object, sizes it, maps it MAP_SHARED, write-faults
 * every page once at PAGE_SIZE steps (shmem folios: mm/shmem.c
 * shmem_fault() -> shmem_get_folio_gfp(), order-0 unless shmem THP is
 * enabled), unmaps it and destroys it. SIGALRM (stress-ng's stop signal) is
 * blocked between creating and unlinking a POSIX name or marking a SysV
 * segment for removal.
 */
#ifndef SMM_SHM_CYCLE_H
#define SMM_SHM_CYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "names.h"

/*
 * smm_shm_cycle() - one object cycle of @bytes (a multiple of the page
 * size) by @method; @seq makes POSIX names unique within the process.
 * Return: pages faulted, or -errno with the failing step in @what
 * (e.g. ENOSPC from a full /dev/shm, ENOMEM).
 */
long smm_shm_cycle(enum smm_shm_method method, uint64_t bytes, uint64_t seq,
		   char *what, size_t len);

#endif /* SMM_SHM_CYCLE_H */
