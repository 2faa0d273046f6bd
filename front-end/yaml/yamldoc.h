/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yamldoc.h - build the front end's YAML report with libyaml's document API:
 * load stress-ng's own --yaml files, copy their nodes (restoring stressor
 * names), add the stress-mm section, and dump it. Nodes are libyaml node
 * indices (1-based; 0 means none).
 */
#ifndef SMM_YAMLDOC_H
#define SMM_YAMLDOC_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

/* smm_yaml_load() - parse the first document of @path. Return 0 or -errno
 * (-EINVAL: not YAML, or empty). */
int smm_yaml_load(const char *path, yaml_document_t *doc);

/* smm_yaml_get() - value node of @key in mapping @map, or 0. */
int smm_yaml_get(yaml_document_t *doc, int map, const char *key);

/*
 * smm_yaml_copy() - deep copy of @node of @src into @dst; a mapping pair
 * "stressor: @from" becomes "stressor: @to" (@from NULL: no renaming).
 * Return: the new node, or 0 on allocation failure.
 */
int smm_yaml_copy(yaml_document_t *dst, yaml_document_t *src, int node,
		  const char *from, const char *to);

/* Add "key: value" pairs to mapping @map; the new node is returned for
 * maps and sequences. */
void smm_yaml_str(yaml_document_t *d, int map, const char *key,
		  const char *value);
void smm_yaml_u64(yaml_document_t *d, int map, const char *key, uint64_t v);
void smm_yaml_i64(yaml_document_t *d, int map, const char *key, int64_t v);
void smm_yaml_dbl(yaml_document_t *d, int map, const char *key, double v);
int smm_yaml_map(yaml_document_t *d, int map, const char *key);
int smm_yaml_seq(yaml_document_t *d, int map, const char *key);

/* Append to sequence @seq: a new mapping (returned), or a string. */
int smm_yaml_item_map(yaml_document_t *d, int seq);
void smm_yaml_item_str(yaml_document_t *d, int seq, const char *value);

/* smm_yaml_write() - dump @doc (which libyaml then frees) to @path.
 * Return: 0, or -errno (also left in errno: ENOSPC, EIO when libyaml
 * gives no errno), and then no file is left at @path. */
int smm_yaml_write(yaml_document_t *doc, const char *path);

#endif /* SMM_YAMLDOC_H */
