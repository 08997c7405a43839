/*
 * out.c: atomic output files.  A tool writes to PATH.tmp.PID and renames it
 * over PATH only once it has finished, so a failed or interrupted run never
 * leaves a partial file where a later step (or Make) would take it as done.
 * A PATH that exists and is not a regular file (/dev/null, a FIFO) is
 * written in place, as stdout is: renaming over it would replace the
 * device.
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

static char *final_path, *tmp_path;
static FILE *out_file;
static FILE *spool;            /* the spool of stdout or a device (out_open_spool) */
static const char *spool_path; /* the device it goes to; NULL: stdout */
static FILE *direct;           /* a device or FIFO, written in place */
static const char *direct_path;
static char *whole_tmp; /* out_write_whole()'s file while it is written */

/* Is path an existing file that is not a regular file (nor a folder)? */
static int is_device(const char *path)
{
	struct stat st;
	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

void out_abort(void)
{
	if (spool) {
		fclose(spool);
		spool = NULL;
	}
	if (direct) {
		fclose(direct);
		direct = NULL;
	}
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
	if (whole_tmp)
		unlink(whole_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static int done;
	if (done++)
		return;
	atexit(out_abort);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
}

FILE *out_open(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return stdout;
	if (is_device(path)) {
		if (!(direct = fopen(path, "wb")))
			ks_fatal("%s:", path);
		direct_path = path;
		return direct;
	}
	size_t n = strlen(path) + 32;
	tmp_path = xmalloc(n);
	snprintf(tmp_path, n, "%s.tmp.%ld", path, (long)getpid());
	final_path = xstrdup(path);
	out_file = fopen(tmp_path, "wb");
	if (!out_file) {
		free(tmp_path);
		free(final_path);
		tmp_path = final_path = NULL;
		ks_fatal("%s:", path);
	}
	catch_signals();
	return out_file;
}

void out_write_whole(const char *path, const void *p, size_t n)
{
	size_t l = strlen(path) + 32;
	char *t = xmalloc(l);
	snprintf(t, l, "%s.tmp.%ld", path, (long)getpid());
	catch_signals();
	whole_tmp = t; /* before the file exists: a signal from now on removes it */
	FILE *f = fopen(t, "wb");
	if (!f) {
		whole_tmp = NULL;
		free(t);
		ks_fatal("%s:", path);
	}
	int bad = fwrite(p, 1, n, f) != n;
	bad |= fclose(f) != 0;
	if (bad || rename(t, path)) {
		int e = errno;
		remove(t);
		errno = e;
		whole_tmp = NULL;
		free(t);
		ks_fatal("%s:", path);
	}
	whole_tmp = NULL;
	free(t);
}

FILE *out_open_spool(const char *path)
{
	int to_stdout = !path || !strcmp(path, "-");
	if (!to_stdout && !is_device(path))
		return out_open(path);
	if (!(spool = tmpfile()))
		ks_fatal("temporary file:");
	spool_path = to_stdout ? NULL : path;
	return spool;
}

void out_commit(void)
{
	if (spool) {
		char buf[65536];
		size_t n;
		if (fflush(spool) || ferror(spool) || fseek(spool, 0, SEEK_SET))
			ks_fatal("temporary file: write error");
		FILE *to = stdout;
		if (spool_path && !(to = direct = fopen(spool_path, "wb")))
			ks_fatal("%s:", spool_path);
		direct_path = spool_path;
		while ((n = fread(buf, 1, sizeof buf, spool)) > 0)
			if (fwrite(buf, 1, n, to) != n)
				break;
		if (ferror(spool))
			ks_fatal("temporary file: read error");
		fclose(spool);
		spool = NULL;
	}
	if (direct) {
		if (fflush(direct) || ferror(direct))
			ks_fatal("%s: write error", direct_path);
		fclose(direct);
		direct = NULL;
		return;
	}
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
