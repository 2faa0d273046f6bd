/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smm-kernel.h - the few kernel types bpf/counters.bpf.c reads, declared
 * with only the fields it uses. preserve_access_index makes every access a
 * CO-RE relocation: libbpf puts in the running kernel's offsets and sizes
 * from its BTF (/sys/kernel/btf/vmlinux) at load time, so nothing here
 * depends on the kernel the program was built on. A field missing in the
 * running kernel fails the load of the program that reads it (the front end
 * then reports the zone-lock waits as absent with libbpf's reason).
 *
 * include/linux/mmzone.h: struct zone { ... struct pglist_data *zone_pgdat;
 * ... const char *name; ... spinlock_t lock; ... } and struct pglist_data
 * { struct zone node_zones[MAX_NR_ZONES]; ... int node_id; ... }.
 */
#ifndef SMM_KERNEL_H
#define SMM_KERNEL_H

struct spinlock {
	int smm_unused;
} __attribute__((preserve_access_index));

struct pglist_data;

struct zone {
	struct pglist_data *zone_pgdat;
	const char *name;
	struct spinlock lock;
} __attribute__((preserve_access_index));

struct pglist_data {
	struct zone node_zones[1]; /* MAX_NR_ZONES in the kernel */
	int node_id;
} __attribute__((preserve_access_index));

enum zone_type {
	__MAX_NR_ZONES = 1,
};

struct page;

#endif /* SMM_KERNEL_H */
