/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-io-uring.h - vmalloc-order path "io-uring": two kinds of io_uring
 * kernel mappings, chosen by STRESS_MM_VMALLOC_ORDER_IO_URING.
 *
 * rings (vmap): provided-buffer rings in the worker's own memory
 *   (IORING_REGISTER_PBUF_RING without IOU_PBUF_RING_MMAP; liburing
 *   io_uring_register_buf_ring()). io_uring/memmap.c io_create_region()
 *   pins the pages and, unless they are one folio, vmap()s them:
 *   vmallocinfo "io_create_region+0x.../0x... vmap" of entries x 16 bytes +
 *   guard page. Address space and page tables only: no page-allocator
 *   traffic. Entries: the power of two nearest cfg->bytes / 16, within
 *   512..32768 (2..128 pages; 256 entries fit one page and are not
 *   vmapped). The memory is anonymous, MADV_NOHUGEPAGE, faulted in, so that
 *   it is never one folio. One batch: cfg->batch rings registered (bgid
 *   0..batch-1) on one io_uring, then unregistered.
 *
 * buffers (vmalloc): a registered buffer (io_uring_register_buffers()); its
 *   kernel page table (io_uring/rsrc.c: io_alloc_imu(), 16 bytes per bvec,
 *   and io_pin_pages()' page array, 8 bytes per page) is kvmalloc'ed, so a
 *   true vmalloc area only when kmalloc fails or above KMALLOC_MAX_SIZE
 *   (4 MiB: buffers above about 1 GiB). The buffer is sized for a table of
 *   cfg->bytes (cfg->bytes x 256), within what RLIMIT_MEMLOCK leaves. One
 *   batch: the buffer registered once (IORING_REGISTER_BUFFERS), then
 *   unregistered, whatever cfg->batch asks (ops->fixed_batch): its table
 *   is the allocation, and pinning up to 1 GiB per item would make a
 *   batch of many take seconds.
 *
 * Each kind is a holder kind (holder.h) with an io_uring of its own.
 * RLIMIT_MEMLOCK (per user, shared by every worker, io_uring accounts both
 * kinds against it without CAP_IPC_LOCK): the batch is clamped to half of
 * what the limit holds and, on ENOMEM, to what the kernel accepted; both
 * said once. ENOMEM with nothing registered is retried for 50 ms (other
 * workers hold the limit for a moment).
 *
 * Setup errors (a SKIP): the errno of io_uring_queue_init() (ENOSYS,
 * EPERM with kernel.io_uring_disabled); for "rings", the errno of the first
 * registration or -EOPNOTSUPP when it adds no vmap area; for "buffers",
 * -EOPNOTSUPP when the table the limit allows is served by kmalloc (the
 * reason names the RLIMIT_MEMLOCK that would be needed). With "both", one
 * kind that cannot run is left out with a note, and everything it had
 * (its io_uring, its buffer) is freed at once.
 */
#ifndef SMM_PATH_IO_URING_H
#define SMM_PATH_IO_URING_H

#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_io_uring;

#endif /* SMM_PATH_IO_URING_H */
