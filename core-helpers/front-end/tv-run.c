// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tv-run.c - run the kernel's test_vmalloc and collect what it printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmodule.h"
#include "params.h"

#include "tv-run.h"

void smm_tv_options(const struct smm_tv_params *p, char *buf, size_t len)
{
	int n = snprintf(
		buf, len, "nr_pages=%llu nr_threads=%u run_test_mask=%u",
		(unsigned long long)p->nr_pages, p->nr_threads, p->mask);

	if (p->loops && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " test_loop_count=%llu",
			 (unsigned long long)p->loops);
}

/* Every record /dev/kmsg holds past @fd's position, text only. */
static void copy_log(int fd, int out)
{
	char rec[8192];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
	       (n < 0 && errno == EPIPE)) {
		char *text;

		if (n <= 0)
			continue; /* EPIPE: records overwritten, go on */
		rec[n] = '\0';
		text = strchr(rec, ';');
		text = text ? text + 1 : rec;
		/* continuation lines (" KEY=value") follow the text */
		text[strcspn(text, "\n")] = '\0';
		if (dprintf(out, "%s\n", text) < 0)
			break;
	}
}

static int load(struct kmod_ctx *ctx, const char *opts, char *why, size_t len)
{
	struct kmod_module *mod;
	int rc;

	mod = smm_kmodule_lookup(ctx, "test_vmalloc");
	if (!mod) {
		snprintf(
			why, len,
			"no test_vmalloc module for this kernel (CONFIG_TEST_VMALLOC=m; Debian's kernels build none, the lab's do)");
		return -ENOENT;
	}
	if (kmod_module_get_initstate(mod) >= 0) {
		kmod_module_unref(mod);
		snprintf(why, len, "test_vmalloc is loaded already");
		return -EEXIST;
	}
	rc = kmod_module_insert_module(mod, 0, opts);
	kmod_module_unref(mod);
	if (rc == -EAGAIN || rc == 0) /* -EAGAIN: done, by design */
		return 0;
	snprintf(why, len, "loading test_vmalloc %s: errno=%d (%s)", opts, -rc,
		 strerror(-rc));
	return rc;
}

int smm_tv_run(const struct smm_tv_params *p, int log_fd, char *why, size_t len)
{
	struct kmod_ctx *ctx;
	char opts[256];
	int kfd, rc;

	rc = smm_kmodule_may_load("test_vmalloc", why, len);
	if (rc)
		return rc;
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd < 0) {
		rc = -errno;
		snprintf(why, len, "/dev/kmsg: errno=%d (%s)", -rc,
			 strerror(-rc));
		return rc;
	}
	lseek(kfd, 0, SEEK_END); /* only what the load prints */
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		close(kfd);
		snprintf(why, len, "libkmod: kmod_new failed");
		return -ENOMEM;
	}
	smm_tv_options(p, opts, sizeof(opts));
	rc = load(ctx, opts, why, len);
	kmod_unref(ctx);
	if (rc == 0)
		copy_log(kfd, log_fd);
	close(kfd);
	return rc;
}

bool smm_tv_asked(const struct smm_run_cfg *cfg, int s)
{
	return s >= 0 && smm_opts_method(cfg, s, "test-vmalloc");
}

void smm_tv_params_of(const struct smm_run_cfg *cfg, int s,
		      struct smm_tv_params *p)
{
	const char *bytes_text = smm_param_value(&smm_stressors[s], &cfg->st[s],
						 "vmalloc-order-bytes");
	uint64_t bytes = 16384, page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (bytes_text)
		smm_parse_size(bytes_text, &bytes);
	p->nr_pages = (bytes + page - 1) / page;
	p->nr_threads = cfg->st[s].workers
				? (unsigned int)cfg->st[s].workers
				: (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	p->loops = cfg->st[s].ops;
	p->mask = smm_tv_mask(cfg->tv_tests);
}

void smm_tv_child(const struct smm_run_cfg *cfg, int s, const char *log_path)
{
	const struct smm_stressor *st = &smm_stressors[s];
	struct smm_tv_params p;
	char why[512], opts[256];
	struct timespec t0, t1;
	int fd, rc;

	smm_tv_params_of(cfg, s, &p);
	smm_tv_options(&p, opts, sizeof(opts));
	printf("%s: test-vmalloc: loading test_vmalloc %s\n", st->name, opts);
	fflush(stdout);
	fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		printf("%s: FAIL: test-vmalloc: %s: errno=%d (%s)\n", st->name,
		       log_path, errno, strerror(errno));
		exit(2);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = smm_tv_run(&p, fd, why, sizeof(why));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	if (rc == -ENOSYS || rc == -EPERM || rc == -ENOENT || rc == -EEXIST) {
		printf("%s: SKIP: test-vmalloc: %s: errno=%d\n", st->name, why,
		       rc == -ENOENT ? EOPNOTSUPP : -rc);
		exit(4);
	}
	if (rc) {
		printf("%s: FAIL: test-vmalloc: %s\n", st->name, why);
		exit(2);
	}
	printf("%s: test-vmalloc: the tests ran in %.1f s\n", st->name,
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	exit(0);
}

uint64_t smm_tv_bogo_ops(const struct smm_tv_report *rep)
{
	uint64_t ops = 0;

	for (int i = 0; i < rep->ntests; i++)
		ops += (uint64_t)rep->tests[i].passed *
		       (uint64_t)rep->tests[i].loops;
	return ops;
}
