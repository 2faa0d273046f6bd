/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-sizes.h - the size arithmetic of the vmalloc-order paths that the
 * front end needs too: what limit a requested table size implies. The
 * paths compute their sizes with these, and the front end raises
 * RLIMIT_MEMLOCK and RLIMIT_NOFILE with the same numbers, so that the two
 * never disagree.
 */
#ifndef SMM_PATH_SIZES_H
#define SMM_PATH_SIZES_H

#include <stdint.h>

/*
 * io_uring registered buffers: the kernel keeps one struct bio_vec (16
 * bytes on 64-bit) per page of a registered buffer (io_uring/rsrc.c
 * io_sqe_buffer_register(): kvmalloc of the imu with its bvec array), and
 * takes at most 1 GiB per buffer (io_buffer_validate(): EFAULT above
 * SZ_1G). The buffer's pages are charged to RLIMIT_MEMLOCK unless the
 * caller has CAP_IPC_LOCK.
 */
#define SMM_IOU_BVEC_BYTES 16ULL
#define SMM_IOU_MAX_BUFFER_BYTES (1ULL << 30)

/* smm_iou_buffer_bytes() - bytes of the registered buffer whose page table
 * is @table_bytes, at most SMM_IOU_MAX_BUFFER_BYTES. */
static inline uint64_t smm_iou_buffer_bytes(uint64_t table_bytes,
					    uint64_t page_bytes)
{
	uint64_t b = table_bytes / SMM_IOU_BVEC_BYTES * page_bytes;

	return b < SMM_IOU_MAX_BUFFER_BYTES ? b : SMM_IOU_MAX_BUFFER_BYTES;
}

/*
 * File descriptor tables: 8 bytes per slot for the file pointer array
 * (fs/file.c alloc_fdtable()); kvmalloc falls back to vmalloc above
 * KMALLOC_MAX_SIZE (4 MiB with MAX_PAGE_ORDER 10 and 4 KiB pages).
 */
#define SMM_FD_SLOT_BYTES 8ULL
#define SMM_KMALLOC_MAX_BYTES (4ULL << 20)

/* smm_fdtable_slots() - descriptor slots of a table of @table_bytes. */
static inline uint64_t smm_fdtable_slots(uint64_t table_bytes)
{
	return table_bytes / SMM_FD_SLOT_BYTES;
}

#endif /* SMM_PATH_SIZES_H */
