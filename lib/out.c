/*
 * out.c: atomic output files.  A tool writes to PATH.tmp.PID and renames it
 * over PATH only once it has finished, so a failed or interrupted run never
 * leaves a partial file where a later step (or Make) would take it as done.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

static char *final_path, *tmp_path;
static FILE *out_file;

void out_abort(void)
{
	if (tmp_path) {
		if (out_file)
			fclose(out_file);
		remove(tmp_path);
		free(tmp_path);
		free(final_path);
		tmp_path = final_path = NULL;
		out_file = NULL;
	}
}

static void on_signal(int sig)
{
	if (tmp_path)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

FILE *out_open(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return stdout;
	size_t n = strlen(path) + 32;
	tmp_path = xmalloc(n);
	snprintf(tmp_path, n, "%s.tmp.%ld", path, (long)getpid());
	final_path = xstrdup(path);
	out_file = fopen(tmp_path, "wb");
	if (!out_file) {
		free(tmp_path);
		tmp_path = NULL;
		ks_fatal("%s:", path);
	}
	atexit(out_abort);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	return out_file;
}

void out_commit(void)
{
	if (!tmp_path) {
		if (fflush(stdout) || ferror(stdout))
			ks_fatal("write error on stdout");
		return;
	}
	if (fflush(out_file) || ferror(out_file))
		ks_fatal("%s: write error", final_path);
	if (fclose(out_file))
		ks_fatal("%s:", final_path);
	out_file = NULL;
	if (rename(tmp_path, final_path))
		ks_fatal("%s:", final_path);
	free(tmp_path);
	free(final_path);
	tmp_path = final_path = NULL;
}
