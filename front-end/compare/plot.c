// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plot.c - stress-mm compare --plot: a gnuplot script per comparison, run
 * by gnuplot (plot.h has the picture's contract).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errors.h"
#include "plot.h"

#define PANEL_W 440
#define PANEL_H 330
#define BASE_COLOUR "#1f77b4"
#define CAND_COLOUR "#d62728"

/* Output formats by extension: gnuplot's terminal and its options. */
static const struct {
	const char *ext, *terminal, *options;
} formats[] = {
	{ ".svg", "svg", "dynamic noenhanced font 'sans,10'" },
	{ ".png", "pngcairo", "noenhanced font 'sans,9'" },
};

static int format_of(const char *file)
{
	size_t n = strlen(file);

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		size_t e = strlen(formats[i].ext);

		if (n > e && !strcasecmp(file + n - e, formats[i].ext))
			return (int)i;
	}
	return -1;
}

static int gnuplot_in_path(void)
{
	const char *path = getenv("PATH");
	char *copy = strdup(path ? path : "/usr/bin:/bin"), *dir, *save = NULL;
	char p[PATH_MAX];
	int found = 0;

	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(p, sizeof(p), "%s/gnuplot", dir);
		found = access(p, X_OK) == 0;
	}
	free(copy);
	return found;
}

int smm_plot_check(const char *file, char *err, size_t len)
{
	if (format_of(file) < 0)
		return smm_errmsg(
			err, len,
			"--plot='%s': the file must end in .svg or .png", file);
	if (!gnuplot_in_path())
		return smm_errmsg(
			err, len,
			"--plot %s needs gnuplot, which is not in PATH (apt-get install gnuplot-nox)",
			file);
	return 0;
}

/* A gnuplot string: double quotes, with \ and " escaped, newlines as \n. */
static void gp_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s >= ' ')
			fputc(*s, f);
	}
	fputc('"', f);
}

/* Runs at @x, spread over at most 0.5 in run order. */
static void points(FILE *f, const char *name, size_t i, double x,
		   const double *v, size_t n)
{
	double w = n > 1 ? 0.5 / (double)n : 0;

	if (w > 0.06)
		w = 0.06;
	fprintf(f, "$%s%zu << EOD\n", name, i);
	for (size_t k = 0; k < n; k++)
		fprintf(f, "%.6f %.17g\n",
			x + ((double)k - (double)(n - 1) / 2) * w, v[k]);
	fprintf(f, "EOD\n");
}

static void value_range(const struct smm_plot_panel *q, double *lo, double *hi)
{
	double a = q->base[0], b = q->base[0], pad;

	for (size_t k = 0; k < q->nb; k++) {
		a = q->base[k] < a ? q->base[k] : a;
		b = q->base[k] > b ? q->base[k] : b;
	}
	for (size_t k = 0; k < q->nc; k++) {
		a = q->cand[k] < a ? q->cand[k] : a;
		b = q->cand[k] > b ? q->cand[k] : b;
	}
	pad = b > a ? (b - a) * 0.12 : (a != 0 ? a * 0.1 : 1);
	if (pad < 0)
		pad = -pad;
	*lo = a - pad;
	*hi = b + pad;
}

static void panel(FILE *f, const struct smm_plot *p, size_t i)
{
	const struct smm_plot_panel *q = &p->panels[i];
	const char *colour = "#000000";
	char title[512];
	double lo, hi;

	if (!strcmp(q->verdict, "regression"))
		colour = "#c0392b";
	else if (!strcmp(q->verdict, "improvement"))
		colour = "#1e8449";
	if (q->has_interval)
		snprintf(title, sizeof(title),
			 "%s\nchange %+.1f%% [%+.1f%%, %+.1f%%]: %s", q->figure,
			 q->change_pct, q->lo_pct, q->hi_pct, q->verdict);
	else
		snprintf(title, sizeof(title),
			 "%s\nchange %+.1f%%, no interval: %s", q->figure,
			 q->change_pct, q->verdict);
	points(f, "b", i, 1, q->base, q->nb);
	points(f, "c", i, 2, q->cand, q->nc);
	fprintf(f,
		"$m%zu << EOD\n0.78 %.17g 0.44 0\n1.78 %.17g 0.44 0\nEOD\n"
		"$l%zu << EOD\n1.22 %.17g\n1.78 %.17g\nEOD\n",
		i, q->base_median, q->cand_median, i, q->base_median,
		q->cand_median);
	value_range(q, &lo, &hi);
	fprintf(f, "set title ");
	gp_str(f, title);
	fprintf(f, " textcolor rgb '%s'\nset yrange [%.17g:%.17g]\n", colour,
		lo, hi);
	fprintf(f,
		"plot $m%zu using 1:2:3:4 with vectors nohead lw 3 lc rgb '#404040', \\\n"
		"     $l%zu using 1:2 with lines dt 2 lw 1 lc rgb '#808080', \\\n"
		"     $b%zu using 1:2 with points pt 7 ps 0.8 lc rgb '" BASE_COLOUR
		"', \\\n"
		"     $c%zu using 1:2 with points pt 5 ps 0.7 lc rgb '" CAND_COLOUR
		"'\n",
		i, i, i, i);
}

void smm_plot_script(FILE *f, const struct smm_plot *p, const char *out)
{
	size_t cols = p->n <= 1 ? 1 : p->n <= 4 ? 2 : 3;
	size_t rows = (p->n + cols - 1) / cols;
	char title[1024];
	int fmt = format_of(out);

	fmt = fmt < 0 ? 0 : fmt;
	fprintf(f, "set terminal %s size %zu,%zu %s background rgb 'white'\n",
		formats[fmt].terminal, cols * PANEL_W, rows * PANEL_H + 70,
		formats[fmt].options);
	fprintf(f, "set output ");
	gp_str(f, out);
	fprintf(f, "\nset encoding utf8\nunset key\nset grid ytics\n"
		   "set xrange [0.4:2.6]\nset format y '%%.4g'\n"
		   "set lmargin 10\n");
	/* a side's reports can be long: one line each */
	snprintf(title, sizeof(title), "%s\nbase: %s\ncandidate: %s", p->title,
		 p->base_label, p->cand_label);
	fprintf(f,
		"set xtics ('base' 1, 'candidate' 2) scale 0\n"
		"set multiplot layout %zu,%zu title ",
		rows, cols);
	gp_str(f, title);
	fprintf(f, " font ',11'\n");
	for (size_t i = 0; i < p->n; i++)
		panel(f, p, i);
	fprintf(f, "unset multiplot\nunset output\n");
}

/* gnuplot with @script on its standard input; its exit status. */
static int run_gnuplot(const char *script, size_t n, char *err, size_t len)
{
	int fd[2], status = 0;
	pid_t pid;

	if (pipe(fd) != 0)
		return smm_errmsg(err, len, "--plot: pipe: %s",
				  strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return smm_errmsg(err, len, "--plot: fork: %s",
				  strerror(errno));
	}
	if (pid == 0) {
		close(fd[1]);
		if (dup2(fd[0], STDIN_FILENO) < 0)
			_exit(127);
		close(fd[0]);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	/* gnuplot reads it all before it ends; one that died early gives
	 * EPIPE here (SIGPIPE is the caller's: ignored while we write) */
	for (size_t off = 0; off < n;) {
		ssize_t w = write(fd[1], script + off, n - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fd[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return smm_errmsg(
			err, len,
			"--plot: gnuplot could not be run (apt-get install gnuplot-nox)");
	return smm_errmsg(err, len, "--plot: gnuplot failed (%s %d)",
			  WIFEXITED(status) ? "exit status" : "signal",
			  WIFEXITED(status) ? WEXITSTATUS(status)
					    : WTERMSIG(status));
}

int smm_plot_write(const char *file, const struct smm_plot *p, char *err,
		   size_t len)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	char tmp[PATH_MAX], *script = NULL;
	int fmt = format_of(file), fd, rc;
	size_t n = 0;
	mode_t mask;
	FILE *f;

	if (fmt < 0)
		return smm_plot_check(file, err, len);
	/* beside @file, with its extension (the format) */
	if (snprintf(tmp, sizeof(tmp), "%.*s.tmp-XXXXXX%s",
		     (int)(strlen(file) - strlen(formats[fmt].ext)), file,
		     formats[fmt].ext) >= (int)sizeof(tmp))
		return smm_errmsg(err, len, "--plot %s: name too long", file);
	fd = mkstemps(tmp, (int)strlen(formats[fmt].ext));
	if (fd < 0)
		return smm_errmsg(err, len, "--plot %s: %s", file,
				  strerror(errno));
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return smm_errmsg(err, len, "--plot %s: %s", file,
				  strerror(-rc));
	}
	close(fd);
	f = open_memstream(&script, &n);
	if (!f) {
		unlink(tmp);
		return smm_errmsg(err, len, "--plot: %s", strerror(errno));
	}
	smm_plot_script(f, p, tmp);
	fclose(f);
	sigaction(SIGPIPE, &ign, &old);
	rc = run_gnuplot(script, n, err, len);
	sigaction(SIGPIPE, &old, NULL);
	free(script);
	if (rc == 0 && rename(tmp, file) != 0)
		rc = smm_errmsg(err, len, "--plot %s: %s", file,
				strerror(errno));
	if (rc)
		unlink(tmp);
	return rc;
}
