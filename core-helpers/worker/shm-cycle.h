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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "names.h"
#include "stats.h"

/*
 * smm_shm_cycle() - one object cycle of @bytes (a multiple of the page
 * size) by @method; @seq makes POSIX names unique within the process.
 * Every page gets one 64-bit word, different for each page and each @seq.
 * @verify: read every page back once all are faulted.
 * @stats (may be NULL): its pages counter grows as pages are faulted, every
 * SMM_STATS_PAGE_CHUNK pages and at the end (stats.h).
 * Return: pages faulted, or -errno with the failing step in @what
 * (e.g. ENOSPC from a full /dev/shm, ENOMEM). A page that the filesystem
 * cannot give while faulting (a full tmpfs: SIGBUS) is -ENOSPC, its
 * filesystem named in @what: SIGBUS is caught during the faults only;
 * -EBADMSG when a page read back does not hold its word.
 */
long smm_shm_cycle(enum smm_shm_method method, uint64_t bytes, uint64_t seq,
		   bool verify, struct smm_stats_file *stats, char *what,
		   size_t len);

/*
 * smm_shm_sysv_create() - a new SysV segment of @bytes under one of our keys
 * (shm.h: SMM_SHM_SYSV_KEY(pid), else the next free key with
 * SMM_SHM_SYSV_KEY_BASE; after a sweep of dead workers' segments when the
 * first key is taken), never IPC_PRIVATE, so that the sweep can always
 * find it. @key_out (may be NULL): the key used.
 * Return: the shmid, or -errno of shmget(2) (-EEXIST when all 65536 keys
 * are taken).
 */
int smm_shm_sysv_create(uint64_t bytes, key_t *key_out);

#endif /* SMM_SHM_CYCLE_H */
