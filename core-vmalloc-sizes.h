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
#ifndef CORE_VMALLOC_SIZES_H
#define CORE_VMALLOC_SIZES_H

/*
 *  The kernel's sizes that the vmalloc paths compute with, and that a
 *  program raising limits for them needs too (the memory the io-uring
 *  buffers path pins, the descriptors the fdtable path opens). Plain C,
 *  so that any program can use it.
 */

#include <stdint.h>

/* mm/slub.c: kmalloc() serves up to KMALLOC_MAX_SIZE (4 MiB with 4K
 * pages and MAX_PAGE_ORDER 10); kvmalloc() falls back to vmalloc above */
#define STRESS_VMALLOC_KMALLOC_MAX	(4ULL << 20)

/* io_uring/rsrc.c: one struct bio_vec per page of a registered buffer,
 * kvmalloc'ed with it; io_buffer_validate() refuses one above SZ_1G */
#define STRESS_VMALLOC_BVEC		(16ULL)
#define STRESS_VMALLOC_BUFFER_MAX	(1ULL << 30)

/* fs/file.c alloc_fdtable(): a file pointer per descriptor slot */
#define STRESS_VMALLOC_FD_SLOT		(8ULL)

/*
 *  stress_vmalloc_buffer_bytes()
 *	bytes of the registered buffer whose page table is table_bytes,
 *	with pages of page bytes, at most STRESS_VMALLOC_BUFFER_MAX
 */
static inline uint64_t stress_vmalloc_buffer_bytes(const uint64_t table_bytes,
	const uint64_t page)
{
	const uint64_t bytes = table_bytes / STRESS_VMALLOC_BVEC * page;

	return (bytes > STRESS_VMALLOC_BUFFER_MAX) ? STRESS_VMALLOC_BUFFER_MAX : bytes;
}

/*
 *  stress_vmalloc_fdtable_slots()
 *	descriptor slots of an fd table of table_bytes
 */
static inline uint64_t stress_vmalloc_fdtable_slots(const uint64_t table_bytes)
{
	return table_bytes / STRESS_VMALLOC_FD_SLOT;
}

#endif
