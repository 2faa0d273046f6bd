// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * yamldoc.c - libyaml document helpers for the report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "yamldoc.h"

#define PLAIN YAML_PLAIN_SCALAR_STYLE

int smm_yaml_load(const char *path, yaml_document_t *doc)
{
	yaml_parser_t parser;
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	ok = yaml_parser_load(&parser, doc);
	yaml_parser_delete(&parser);
	fclose(f);
	if (!ok)
		return -EINVAL;
	if (!yaml_document_get_root_node(doc)) {
		yaml_document_delete(doc);
		return -EINVAL;
	}
	return 0;
}

/* Depth of nesting and number of documents, from the event stream. */
static int check_events(FILE *f, int max_depth, char *err, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, docs = 0, rc = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_file(&parser, f);
	for (;;) {
		if (!yaml_parser_parse(&parser, &ev)) {
			snprintf(err, len, "not YAML: %s at line %zu",
				 parser.problem ? parser.problem : "error",
				 parser.problem_mark.line + 1);
			rc = -EINVAL;
			break;
		}
		if (ev.type == YAML_SEQUENCE_START_EVENT ||
		    ev.type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (ev.type == YAML_SEQUENCE_END_EVENT ||
			 ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		else if (ev.type == YAML_DOCUMENT_START_EVENT)
			docs++;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
		if (depth > max_depth) {
			snprintf(err, len, "nested deeper than %d levels",
				 max_depth);
			rc = -ELOOP;
			break;
		}
	}
	yaml_parser_delete(&parser);
	if (!rc && docs != 1) {
		snprintf(err, len, "%s",
			 docs ? "more than one document"
			      : "not YAML, or empty");
		rc = -EINVAL;
	}
	return rc;
}

static int cmp_key(const void *a, const void *b)
{
	const yaml_node_t *x = *(yaml_node_t *const *)a;
	const yaml_node_t *y = *(yaml_node_t *const *)b;
	size_t n = x->data.scalar.length < y->data.scalar.length
			   ? x->data.scalar.length
			   : y->data.scalar.length;
	int c = memcmp(x->data.scalar.value, y->data.scalar.value, n);

	if (c)
		return c;
	return (x->data.scalar.length > y->data.scalar.length) -
	       (x->data.scalar.length < y->data.scalar.length);
}

/* A duplicate scalar key in any mapping of @doc: sort each mapping's
 * keys, compare neighbours. */
static int check_dup_keys(yaml_document_t *doc, char *err, size_t len)
{
	for (yaml_node_t *n = doc->nodes.start; n < doc->nodes.top; n++) {
		size_t nk = 0, np;
		yaml_node_t **keys;
		int rc = 0;

		if (n->type != YAML_MAPPING_NODE)
			continue;
		np = (size_t)(n->data.mapping.pairs.top -
			      n->data.mapping.pairs.start);
		keys = calloc(np ? np : 1, sizeof(void *));
		if (!keys)
			return -ENOMEM;
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);

			if (k && k->type == YAML_SCALAR_NODE)
				keys[nk++] = k;
		}
		qsort(keys, nk, sizeof(void *), cmp_key);
		for (size_t i = 1; i < nk && !rc; i++)
			if (!cmp_key(&keys[i - 1], &keys[i])) {
				snprintf(
					err, len,
					"key '%.*s' appears twice in one mapping (line %zu)",
					(int)keys[i]->data.scalar.length,
					(char *)keys[i]->data.scalar.value,
					keys[i]->start_mark.line + 1);
				rc = -EEXIST;
			}
		free(keys);
		if (rc)
			return rc;
	}
	return 0;
}

int smm_yaml_load_strict(const char *path, yaml_document_t *doc, long max_bytes,
			 int max_depth, char *err, size_t len)
{
	struct stat st;
	FILE *f;
	int rc;

	if (stat(path, &st) != 0) {
		rc = -errno;
		snprintf(err, len, "%s", strerror(errno));
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, len, "is a directory");
		return -EISDIR;
	}
	if (st.st_size > max_bytes) {
		snprintf(err, len,
			 "%lld bytes, above the %ld a report may have",
			 (long long)st.st_size, max_bytes);
		return -EFBIG;
	}
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		snprintf(err, len, "%s", strerror(errno));
		return rc;
	}
	rc = check_events(f, max_depth, err, len);
	fclose(f);
	if (rc)
		return rc;
	rc = smm_yaml_load(path, doc);
	if (rc) {
		snprintf(err, len, "not YAML, or empty");
		return rc;
	}
	rc = check_dup_keys(doc, err, len);
	if (rc)
		yaml_document_delete(doc);
	return rc;
}

static int is_scalar(yaml_node_t *n, const char *s)
{
	return n && n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.length == strlen(s) &&
	       memcmp(n->data.scalar.value, s, n->data.scalar.length) == 0;
}

int smm_yaml_get(yaml_document_t *doc, int map, const char *key)
{
	yaml_node_t *m = yaml_document_get_node(doc, map);

	if (!m || m->type != YAML_MAPPING_NODE)
		return 0;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++)
		if (is_scalar(yaml_document_get_node(doc, p->key), key))
			return p->value;
	return 0;
}

int smm_yaml_copy(yaml_document_t *dst, yaml_document_t *src, int node,
		  const char *from, const char *to)
{
	yaml_node_t *n = yaml_document_get_node(src, node);
	int out = 0;

	if (!n)
		return 0;
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return yaml_document_add_scalar(dst, NULL, n->data.scalar.value,
						(int)n->data.scalar.length,
						n->data.scalar.style);
	case YAML_SEQUENCE_NODE:
		out = yaml_document_add_sequence(dst, NULL,
						 YAML_BLOCK_SEQUENCE_STYLE);
		for (yaml_node_item_t *i = n->data.sequence.items.start;
		     out && i < n->data.sequence.items.top; i++)
			yaml_document_append_sequence_item(
				dst, out,
				smm_yaml_copy(dst, src, *i, from, to));
		return out;
	case YAML_MAPPING_NODE:
		out = yaml_document_add_mapping(dst, NULL,
						YAML_BLOCK_MAPPING_STYLE);
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     out && p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(src, p->key);
			yaml_node_t *v = yaml_document_get_node(src, p->value);
			int kk = smm_yaml_copy(dst, src, p->key, from, to);
			int vv;

			if (from && is_scalar(k, "stressor") &&
			    is_scalar(v, from))
				vv = yaml_document_add_scalar(dst, NULL,
							      (yaml_char_t *)to,
							      -1, PLAIN);
			else
				vv = smm_yaml_copy(dst, src, p->value, from,
						   to);
			yaml_document_append_mapping_pair(dst, out, kk, vv);
		}
		return out;
	default:
		return 0;
	}
}

static void pair(yaml_document_t *d, int map, const char *key, int value)
{
	int k = yaml_document_add_scalar(d, NULL, (yaml_char_t *)key, -1,
					 PLAIN);

	yaml_document_append_mapping_pair(d, map, k, value);
}

void smm_yaml_str(yaml_document_t *d, int map, const char *key,
		  const char *value)
{
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)value, -1,
				      YAML_ANY_SCALAR_STYLE));
}

void smm_yaml_u64(yaml_document_t *d, int map, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)buf, -1, PLAIN));
}

void smm_yaml_i64(yaml_document_t *d, int map, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)buf, -1, PLAIN));
}

void smm_yaml_dbl(yaml_document_t *d, int map, const char *key, double v)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%.6f", v);
	pair(d, map, key,
	     yaml_document_add_scalar(d, NULL, (yaml_char_t *)buf, -1, PLAIN));
}

int smm_yaml_map(yaml_document_t *d, int map, const char *key)
{
	int m = yaml_document_add_mapping(d, NULL, YAML_BLOCK_MAPPING_STYLE);

	pair(d, map, key, m);
	return m;
}

int smm_yaml_seq(yaml_document_t *d, int map, const char *key)
{
	int s = yaml_document_add_sequence(d, NULL, YAML_BLOCK_SEQUENCE_STYLE);

	pair(d, map, key, s);
	return s;
}

int smm_yaml_item_map(yaml_document_t *d, int seq)
{
	int m = yaml_document_add_mapping(d, NULL, YAML_BLOCK_MAPPING_STYLE);

	yaml_document_append_sequence_item(d, seq, m);
	return m;
}

void smm_yaml_item_str(yaml_document_t *d, int seq, const char *value)
{
	yaml_document_append_sequence_item(
		d, seq,
		yaml_document_add_scalar(d, NULL, (yaml_char_t *)value, -1,
					 YAML_ANY_SCALAR_STYLE));
}

int smm_yaml_write(yaml_document_t *doc, const char *path)
{
	yaml_emitter_t em;
	FILE *f = fopen(path, "we");
	int ok;

	if (!f) {
		yaml_document_delete(doc);
		return -errno;
	}
	if (!yaml_emitter_initialize(&em)) {
		fclose(f);
		yaml_document_delete(doc);
		return -ENOMEM;
	}
	yaml_emitter_set_output_file(&em, f);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1); /* one line per scalar, for grep */
	ok = yaml_emitter_open(&em) && yaml_emitter_dump(&em, doc) &&
	     yaml_emitter_close(&em);
	yaml_emitter_delete(&em);
	if (fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -EIO;
}
