// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/compat.c - the stress-ng functions the stressor files call, as the
 * plugin provides them (compat/stress-ng.h), and the glue's lines and stop
 * signals (compat.h); the settings are in plugin/settings.c.
 */
#include "stress-ng.h"
#include "core-capabilities.h"
#include "core-killpid.h"
#include "core-memory.h"
#include "core-mmap.h"
#include "core-signal.h"

#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>

#include "compat.h"
#include "core-shm-pcp.h"
#include "params-table.h"
#include "report.h"
#include "shared-page.h"

#define INSTANCES_MAX 512 /* workers of one stressor at once */
#define STRESSORS_MAX 2 /* vmalloc-order, shm-pcp */
#define REAP_LOOKS 5000 /* 1 ms each: 5 s before SIGKILL */

uint64_t g_opt_flags;
volatile bool g_stress_continue_flag = true;

/* Instances: one row of pids per stressor, shared by the run's workers. */
static pid_t (*instances)[INSTANCES_MAX];

static stress_args_t *cur_args; /* whose lines these are */
static struct smm_stats_file *cur_rec;
static char skip_text[700];
static unsigned int fails;

void smm_compat_load_common(void)
{
	static bool loaded;
	const struct smm_param *p = &smm_common_params[SMM_COMMON_P_STATS_DIR];
	char err[600];
	uint64_t v;
	int rc;

	if (loaded)
		return;
	loaded = true;
	smm_compat_warn_unknown();
	rc = smm_param_parse_stressor(p, getenv(p->env), &v, err, sizeof(err));
	if (rc) {
		/* a full filesystem is no resource, not bad input */
		fprintf(stderr, "stress-mm: %s\n", err);
		exit(smm_errno_exit_status(-rc) == SMM_EX_NORES
			     ? EXIT_NO_RESOURCE
			     : EXIT_FAILURE);
	}
	(void)smm_report_init();
	(void)smm_shared_map((void **)&instances,
			     STRESSORS_MAX * sizeof(*instances));
}

/* ---- workers and lines ------------------------------------------------- */

/* The lowest instance of @name's row that is free or whose worker is dead
 * (a worker stress-ng re-forks takes over the one it replaces), 0 without
 * the shared page. */
static uint32_t instance_claim(const char *name)
{
	pid_t *row, self = getpid();

	if (!instances)
		return 0;
	row = instances[strcmp(name, "shm-pcp") == 0];
	for (uint32_t i = 0; i < INSTANCES_MAX; i++)
		if (__atomic_load_n(&row[i], __ATOMIC_ACQUIRE) == self)
			return i;
	for (uint32_t i = 0; i < INSTANCES_MAX; i++) {
		pid_t owner = __atomic_load_n(&row[i], __ATOMIC_ACQUIRE);

		if (owner && !stress_shm_pcp_pid_dead((pid_t)owner))
			continue;
		if (__atomic_compare_exchange_n(&row[i], &owner, self, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return i;
	}
	return INSTANCES_MAX;
}

/* Whether plugin method @m ("vmalloc_order_stack", none: all) runs a
 * worker of stressor @name. */
static bool method_of(const char *m, const char *name)
{
	const char *prefix =
		strcmp(name, "shm-pcp") == 0 ? "shm_pcp" : "vmalloc_order";

	return !m || strcmp(m, "all") == 0 ||
	       strncmp(m, prefix, strlen(prefix)) == 0;
}

/* The workers a --plugin N group starts: N, 0 one per online CPU. */
static uint64_t group_workers(const char *n)
{
	const unsigned long v = strtoul(n, NULL, 10);

	return v ? (uint64_t)v : (uint64_t)stress_cpus_online_get();
}

/* Workers of @name in the run, as stress-ng's command line starts them:
 * the N of each --plugin N group whose --plugin-method, or none ("all"),
 * runs @name; 1 when unreadable. */
static uint32_t instances_count(const char *name)
{
	char cmd[8192];
	const char *a, *end, *group = NULL;
	uint64_t total = 0;
	ssize_t len;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 1;
	len = read(fd, cmd, sizeof(cmd) - 1);
	(void)close(fd);
	if (len <= 0)
		return 1;
	cmd[len] = '\0';
	end = cmd + len;
	for (a = cmd; a < end; a += strlen(a) + 1) {
		const char *next = a + strlen(a) + 1;

		if (next >= end)
			break;
		if (strcmp(a, "--plugin") == 0) {
			if (group && method_of(NULL, name))
				total += group_workers(group);
			group = next;
		} else if (strcmp(a, "--plugin-method") == 0 && group) {
			if (method_of(next, name))
				total += group_workers(group);
			group = NULL;
		}
	}
	if (group && method_of(NULL, name))
		total += group_workers(group);
	return total ? (uint32_t)STRESS_MINIMUM(total, INSTANCES_MAX) : 1;
}

void smm_compat_args_init(stress_args_t *args, const char *name)
{
	memset(args, 0, sizeof(*args));
	args->name = name;
	args->instance = instance_claim(name);
	args->instances = instances_count(name);
	args->page_size = stress_memory_page_size_get();
	args->bogo.max_ops = UINT64_MAX;
}

void smm_compat_begin(stress_args_t *args, struct smm_stats_file *rec)
{
	cur_args = args;
	cur_rec = rec;
	skip_text[0] = '\0';
	fails = 0;
}

static const char *line_name(void)
{
	return cur_args ? cur_args->name : "stress-mm";
}

/* Format into @buf without the "<stressor>: " the stressors start with
 * and without the newline they end with. */
static FORMAT(printf, 3, 0) void line_format(char *buf, size_t len,
					     const char *fmt, va_list ap)
{
	char text[1024];
	const char *name = line_name(), *t = text;
	size_t n = strlen(name);

	vsnprintf(text, sizeof(text), fmt, ap);
	if (strncmp(t, name, n) == 0 && strncmp(t + n, ": ", 2) == 0)
		t += n + 2;
	(void)shim_strscpy(buf, t, len);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
}

void pr_inf(const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	line_format(text, sizeof(text), fmt, ap);
	va_end(ap);
	smm_note_once(NULL, line_name(), "%s", text);
}

void pr_inf_skip(const char *fmt, ...)
{
	static const char tail[] = "skipping stressor";
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	line_format(skip_text, sizeof(skip_text), fmt, ap);
	va_end(ap);
	n = strlen(skip_text);
	if (n >= sizeof(tail) - 1 &&
	    strcmp(skip_text + n - (sizeof(tail) - 1), tail) == 0) {
		n -= sizeof(tail) - 1;
		while (n &&
		       (skip_text[n - 1] == ' ' || skip_text[n - 1] == ',' ||
			skip_text[n - 1] == ':'))
			n--;
		skip_text[n] = '\0';
	}
}

void pr_fail(const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	line_format(text, sizeof(text), fmt, ap);
	va_end(ap);
	fails++;
	/* the line as the stressor wrote it, its errno (if any) in the text */
	smm_fail(cur_rec, line_name(), 0, "%s", text);
}

int smm_compat_end(int rc, int skip_err, void (*deinit)(void))
{
	const char *name = line_name();
	const bool nores = rc == EXIT_NO_RESOURCE;

	if (nores || rc == EXIT_NOT_IMPLEMENTED) {
		const int want = nores ? SMM_EX_NORES : SMM_EX_NOTIMPL;
		int err = nores ? ENOMEM : EOPNOTSUPP;
		char reason[sizeof(skip_text)];

		if (skip_err && smm_errno_exit_status(skip_err) == want)
			err = skip_err;
		/* kept from deinit(), which runs the stressor's code */
		(void)shim_strscpy(reason, skip_text, sizeof(reason));
		deinit();
		smm_skip(cur_rec, name, err, "%s",
			 reason[0] ? reason : "no reason given");
	}
	if (!fails)
		pr_fail("%s: ended with status %d\n", name, rc);
	deinit();
	return -1;
}

void stress_metrics_set(stress_args_t *args, const char *description,
			const double value, const int mean_type)
{
	/* stress-ng takes no metrics from a plugin and the record has no
	 * field for them: the front end computes its figures from the
	 * record's counters. */
	(void)args;
	(void)description;
	(void)value;
	(void)mean_type;
}

/* ---- stop signals ------------------------------------------------------ */

static const int stop_signals[] = { SIGALRM, SIGINT, SIGTERM };
#define NR_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

/* each glue's, in the order installed (stress-ng's method "all" runs
 * both stressors in one process) */
static void (*stop_cbs[STRESSORS_MAX])(void);
static pid_t stop_pid;
static struct sigaction stop_chained[NR_STOP_SIGNALS];

static void stop_handler(int sig, siginfo_t *info, void *uc)
{
	const int saved = errno;
	size_t i;

	g_stress_continue_flag = false;
	if (getpid() != stop_pid) {
		errno = saved;
		return; /* a companion or a parked child: the flag is enough */
	}
	for (i = 0; i < STRESSORS_MAX && stop_cbs[i]; i++)
		stop_cbs[i]();
	for (i = 0; i < NR_STOP_SIGNALS && stop_signals[i] != sig; i++)
		;
	if (i < NR_STOP_SIGNALS) {
		const struct sigaction *o = &stop_chained[i];

		if (o->sa_flags & SA_SIGINFO) {
			o->sa_sigaction(sig, info, uc);
		} else if (o->sa_handler == SIG_DFL) {
			signal(sig, SIG_DFL);
			raise(sig); /* delivered when this handler returns */
		} else if (o->sa_handler != SIG_IGN) {
			o->sa_handler(sig);
		}
	}
	errno = saved;
}

void smm_compat_stop_install(void (*on_stop)(void))
{
	struct sigaction sa;
	size_t i;

	g_stress_continue_flag = true;
	if (stop_pid != getpid())
		memset(stop_cbs, 0, sizeof(stop_cbs));
	for (i = 0; i < STRESSORS_MAX && stop_cbs[i] && stop_cbs[i] != on_stop;
	     i++)
		;
	if (i < STRESSORS_MAX)
		stop_cbs[i] = on_stop;
	if (stop_pid == getpid())
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = stop_handler;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &stop_chained[i]);
	stop_pid = getpid();
	/* the stressor process dead (SIGKILL, the OOM killer): the run is
	 * over for its worker too */
	if (prctl(PR_SET_PDEATHSIG, SIGALRM) == 0 && getppid() == 1)
		(void)raise(SIGALRM);
}

/* ---- stress-ng's helpers ----------------------------------------------- */

double stress_time_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void stress_proc_state_set(const char *name, const int state)
{
	(void)name;
	(void)state;
}

void stress_sync_start_wait(stress_args_t *args)
{
	(void)args;
}

void stress_parent_died_alarm(void)
{
	(void)prctl(PR_SET_PDEATHSIG, SIGALRM);
}

int32_t stress_cpus_online_get(void)
{
	const long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : (int32_t)n;
}

int stress_unimplemented(stress_args_t *args)
{
	(void)args;
	return EXIT_NOT_IMPLEMENTED;
}

int stress_memory_info_get(stress_memory_info_t *info)
{
	struct sysinfo si;

	memset(info, 0, sizeof(*info));
	if (sysinfo(&si) < 0)
		return -1;
	info->freemem = (size_t)si.freeram * si.mem_unit;
	info->totalmem = (size_t)si.totalram * si.mem_unit;
	info->freeswap = (size_t)si.freeswap * si.mem_unit;
	info->totalswap = (size_t)si.totalswap * si.mem_unit;
	return 0;
}

size_t stress_memory_page_size_get(void)
{
	const long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (size_t)n : 4096;
}

void *stress_mmap_populate(void *addr, size_t length, int prot, int flags,
			   int fd, off_t offset)
{
	return mmap(addr, length, prot, flags | MAP_POPULATE, fd, offset);
}

bool stress_capabilities_check(const int capability)
{
	unsigned long long eff = 0;
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return found && capability >= 0 && capability < 64 &&
	       ((eff >> capability) & 1ULL);
}

const char *stress_signal_name(const int signum)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGHUP, "SIGHUP" },	{ SIGINT, "SIGINT" },
		{ SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
		{ SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" },	{ SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
		{ SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" }, { SIGCHLD, "SIGCHLD" },
		{ SIGXCPU, "SIGXCPU" }, { SIGSYS, "SIGSYS" },
	};

	for (size_t i = 0; i < SIZEOF_ARRAY(names); i++)
		if (names[i].sig == signum)
			return names[i].name;
	return NULL;
}

int stress_signal_handler(const char *name, const int signum,
			  void (*handler)(int), struct sigaction *orig_action)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(signum, &sa, orig_action) < 0) {
		const int err = errno;

		pr_fail("%s: sigaction %d failed, errno=%d (%s)\n", name,
			signum, err, strerror(err));
		return -1;
	}
	return 0;
}

int stress_signal_default_handler(const int signum)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	return sigaction(signum, &sa, NULL);
}

int stress_signal_restore(const char *name, const int signum,
			  struct sigaction *orig_action)
{
	(void)name;
	return sigaction(signum, orig_action, NULL);
}

int stress_kill_and_wait_many(stress_args_t *args, const stress_pid_t *s_pids,
			      const size_t n_pids, const int signum,
			      const bool set_stress_force_killed_bogo)
{
	const struct timespec nap = { 0, 1000000L };
	int rc = EXIT_SUCCESS;

	(void)args;
	(void)set_stress_force_killed_bogo;
	for (size_t i = 0; i < n_pids; i++)
		if (s_pids[i].pid > 1)
			(void)kill(s_pids[i].pid, signum);
	for (size_t i = 0; i < n_pids; i++) {
		const pid_t pid = s_pids[i].pid;
		pid_t ret = 0;

		if (pid <= 1)
			continue;
		for (int look = 0; look < REAP_LOOKS && ret == 0; look++) {
			ret = waitpid(pid, NULL, WNOHANG);
			if (ret == 0 || (ret < 0 && errno == EINTR)) {
				ret = 0;
				nanosleep(&nap, NULL);
			}
		}
		if (ret == 0) {
			(void)kill(pid, SIGKILL);
			ret = shim_waitpid(pid, NULL, 0);
		}
		if (ret < 0 && errno != ECHILD)
			rc = EXIT_FAILURE;
	}
	return rc;
}

int shim_futex_wake(const void *futex, const int n)
{
	return (int)syscall(__NR_futex, futex, FUTEX_WAKE, n, NULL, NULL, 0);
}

int shim_futex_wait(const void *futex, const int val,
		    const struct timespec *timeout)
{
	return (int)syscall(__NR_futex, futex, FUTEX_WAIT, val, timeout, NULL,
			    0);
}

int shim_madvise(void *addr, size_t length, int advice)
{
	return madvise(addr, length, advice);
}

int shim_memfd_create(const char *name, unsigned int flags)
{
	return (int)syscall(__NR_memfd_create, name, flags);
}

int shim_modify_ldt(int func, void *ptr, unsigned long int bytecount)
{
#if defined(__NR_modify_ldt)
	return (int)syscall(__NR_modify_ldt, func, ptr, bytecount);
#else
	(void)func;
	(void)ptr;
	(void)bytecount;
	errno = ENOSYS;
	return -1;
#endif
}

ssize_t shim_strscpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (len == 0)
		return -E2BIG;
	n = strnlen(src, len);
	if (n >= len) {
		memcpy(dst, src, len - 1);
		dst[len - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return (ssize_t)n;
}

int shim_usleep(uint64_t usec)
{
	struct timespec t = { (time_t)(usec / 1000000),
			      (long)(usec % 1000000) * 1000L };

	while (nanosleep(&t, &t) < 0) {
		if (errno != EINTR || !stress_continue_flag())
			return -1;
	}
	return 0;
}

pid_t shim_waitpid(pid_t pid, int *wstatus, int options)
{
	for (int tries = 0;; tries++) {
		const pid_t ret = waitpid(pid, wstatus, options);

		if (ret >= 0 || errno != EINTR)
			return ret;
		/* stopping: make sure it goes too */
		if (!stress_continue_flag() && tries > 100)
			(void)kill(pid, SIGKILL);
	}
}
