// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * yamlstrict.c - bounded reading and strict parsing of untrusted YAML.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "yamlstrict.h"

#define READ_CHUNK (64u << 10)

/* At most @max + 1 bytes of @fd: one more than the bound is how a
 * larger input shows. */
static int read_fd(int fd, size_t max, unsigned char **buf, size_t *len)
{
	size_t cap = max + 1 < READ_CHUNK ? max + 1 : READ_CHUNK, n = 0;
	unsigned char *b = malloc(cap + 1);

	if (!b)
		return -ENOMEM;
	while (n <= max) {
		ssize_t r;

		if (n == cap) {
			size_t ncap = cap > (max + 1) / 2 ? max + 1 : 2 * cap;
			unsigned char *nb = realloc(b, ncap + 1);

			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap = ncap;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

int smm_read_bounded(const char *path, size_t max, unsigned char **buf,
		     size_t *len, char *err, size_t elen)
{
	struct stat st;
	int fd, rc;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, elen, "%s", strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(err, elen, "is a directory");
		return -EISDIR;
	}
	rc = read_fd(fd, max, buf, len);
	close(fd);
	if (rc) {
		snprintf(err, elen, "%s", strerror(-rc));
		return rc;
	}
	if (*len > max) {
		free(*buf);
		*buf = NULL;
		snprintf(err, elen, "more than the %zu bytes a report may have",
			 max);
		return -EFBIG;
	}
	return 0;
}

/* What the event stream may not hold: one line in @err, or 0. */
static int refuse_event(const yaml_event_t *ev, char *err, size_t elen)
{
	const yaml_char_t *tag = NULL, *anchor = NULL;
	size_t line = ev->start_mark.line + 1;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		snprintf(err, elen, "an alias at line %zu: a report has none",
			 line);
		return -EINVAL;
	case YAML_SCALAR_EVENT:
		tag = ev->data.scalar.tag;
		anchor = ev->data.scalar.anchor;
		if (strlen((const char *)ev->data.scalar.value) !=
		    ev->data.scalar.length) {
			snprintf(err, elen,
				 "a NUL byte in a scalar at line %zu", line);
			return -EINVAL;
		}
		break;
	case YAML_SEQUENCE_START_EVENT:
		tag = ev->data.sequence_start.tag;
		anchor = ev->data.sequence_start.anchor;
		break;
	case YAML_MAPPING_START_EVENT:
		tag = ev->data.mapping_start.tag;
		anchor = ev->data.mapping_start.anchor;
		break;
	default:
		return 0;
	}
	if (tag) {
		snprintf(err, elen,
			 "a tag (%.60s) at line %zu: a report has none",
			 (const char *)tag, line);
		return -EINVAL;
	}
	if (anchor) {
		snprintf(err, elen, "an anchor at line %zu: a report has none",
			 line);
		return -EINVAL;
	}
	return 0;
}

/* Depth, nodes, documents and refused constructs, from the events. */
static int check_events(const unsigned char *buf, size_t len, int max_depth,
			size_t max_nodes, char *err, size_t elen)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, docs = 0, rc = 0;
	size_t nodes = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, buf, len);
	while (!rc) {
		if (!yaml_parser_parse(&parser, &ev)) {
			snprintf(err, elen, "not YAML: %s at line %zu",
				 parser.problem ? parser.problem : "error",
				 parser.problem_mark.line + 1);
			rc = -EINVAL;
			break;
		}
		rc = refuse_event(&ev, err, elen);
		if (ev.type == YAML_SEQUENCE_START_EVENT ||
		    ev.type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (ev.type == YAML_SEQUENCE_END_EVENT ||
			 ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		else if (ev.type == YAML_DOCUMENT_START_EVENT)
			docs++;
		nodes += ev.type == YAML_SEQUENCE_START_EVENT ||
			 ev.type == YAML_MAPPING_START_EVENT ||
			 ev.type == YAML_SCALAR_EVENT;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
		if (!rc && depth > max_depth) {
			snprintf(err, elen, "nested deeper than %d levels",
				 max_depth);
			rc = -ELOOP;
		} else if (!rc && nodes > max_nodes) {
			snprintf(err, elen, "more than %zu YAML nodes",
				 max_nodes);
			rc = -E2BIG;
		} else if (!rc && docs > 1) {
			snprintf(err, elen, "more than one document");
			rc = -EINVAL;
		}
	}
	yaml_parser_delete(&parser);
	if (!rc && !docs) {
		snprintf(err, elen, "not YAML, or empty");
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

/* A duplicate scalar key in one mapping: sort its keys, compare
 * neighbours. */
static int check_mapping(yaml_document_t *doc, yaml_node_t *n, char *err,
			 size_t elen)
{
	size_t nk = 0, np = (size_t)(n->data.mapping.pairs.top -
				     n->data.mapping.pairs.start);
	yaml_node_t **keys = calloc(np ? np : 1, sizeof(void *));
	int rc = 0;

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
				err, elen,
				"key '%.*s' appears twice in one mapping (line %zu)",
				(int)(keys[i]->data.scalar.length < 80
					      ? keys[i]->data.scalar.length
					      : 80),
				(char *)keys[i]->data.scalar.value,
				keys[i]->start_mark.line + 1);
			rc = -EEXIST;
		}
	free(keys);
	return rc;
}

int smm_yaml_parse_strict(const unsigned char *buf, size_t len,
			  yaml_document_t *doc, int max_depth, size_t max_nodes,
			  char *err, size_t elen)
{
	yaml_parser_t parser;
	int rc, ok;

	rc = check_events(buf, len, max_depth, max_nodes, err, elen);
	if (rc)
		return rc;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, buf, len);
	ok = yaml_parser_load(&parser, doc);
	yaml_parser_delete(&parser);
	if (!ok) {
		snprintf(err, elen, "not YAML, or empty");
		return -EINVAL;
	}
	if (!yaml_document_get_root_node(doc)) {
		yaml_document_delete(doc);
		snprintf(err, elen, "not YAML, or empty");
		return -EINVAL;
	}
	for (yaml_node_t *n = doc->nodes.start; !rc && n < doc->nodes.top; n++)
		if (n->type == YAML_MAPPING_NODE)
			rc = check_mapping(doc, n, err, elen);
	if (rc)
		yaml_document_delete(doc);
	return rc;
}

int smm_yaml_load_strict(const char *path, yaml_document_t *doc,
			 size_t max_bytes, int max_depth, size_t max_nodes,
			 char *err, size_t elen)
{
	unsigned char *buf;
	size_t len;
	int rc;

	rc = smm_read_bounded(path, max_bytes, &buf, &len, err, elen);
	if (rc)
		return rc;
	rc = smm_yaml_parse_strict(buf, len, doc, max_depth, max_nodes, err,
				   elen);
	free(buf);
	return rc;
}
