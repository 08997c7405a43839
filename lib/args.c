/*
 * args.c: the command line every filter tool shares,
 *     TOOL [options] [-o OUT] [FILE | -]
 *     TOOL [options] --each LIST
 * -h/--help prints the usage line on stdout and exits 0; an unknown option
 * or a second input prints it on stderr and exits 2.  A tool's own flags
 * are passed to its callback, which returns 1 when it took the flag.
 *
 * --each LIST runs the tool once per line `IN OUT` of LIST, as
 * `TOOL [options] IN -o OUT` would run, without starting a program per
 * file: ks_args forks a child per line and returns in the child, with IN
 * and OUT as its input and output, so each file is made by the tool's own
 * one-file path with nothing left from the others; the parent never
 * returns.  It prints a status line per LIST line, in order, `OUT ok` or
 * `OUT error: REASON` (REASON: the child's first non-blank line on stderr,
 * as krun --batch gives it: buf_first_line), copies the children's messages to
 * stderr and exits 0 when every line is ok, else 1.  A malformed LIST is
 * a located error before anything runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks.h"

typedef struct EachLine {
	const char *in, *out;
} EachLine;

/* LIST's lines `IN OUT` (blank lines and # lines skipped), in *n; the
 * strings live in the list's text, kept for the children. */
static EachLine *each_read(const char *list, int *n)
{
	static Src s;
	static char *t;
	src_read(&s, list);
	t = xmalloc(s.len + 1);
	memcpy(t, s.text, s.len + 1);
	static EachLine *l;
	size_t cap = 0;
	*n = 0;
	int line = 1;
	for (char *p = t; p < t + s.len; line++) {
		char *e = memchr(p, '\n', (size_t)(t + s.len - p));
		if (!e)
			e = t + s.len;
		*e = 0;
		if (strlen(p) != (size_t)(e - p))
			ks_error_at(&s, line, (int)strlen(p) + 1, "a NUL byte in an --each list");
		if (line == INT_MAX)
			ks_error_at(&s, line, 1, "an --each list of more than %d lines", INT_MAX - 1);
		char *f[3] = {0};
		int nf = 0;
		for (char *q = p; *q && nf < 3;) {
			while (*q == ' ' || *q == '\t' || *q == '\r')
				q++;
			if (!*q)
				break;
			if (nf == 0 && *q == '#')
				break;
			f[nf++] = q;
			while (*q && *q != ' ' && *q != '\t' && *q != '\r')
				q++;
			if (*q)
				*q++ = 0;
		}
		if (nf == 3)
			ks_error_at(&s, line, (int)(f[2] - p) + 1,
				    "an --each line is IN OUT; this is a third field");
		if (nf == 1)
			ks_error_at(&s, line, (int)(f[0] - p) + (int)strlen(f[0]) + 1,
				    "an --each line is IN OUT; OUT is missing");
		if (nf == 2) {
			if (!strcmp(f[0], "-") || !strcmp(f[1], "-"))
				ks_error_at(&s, line, (int)(f[!strcmp(f[0], "-") ? 0 : 1] - p) + 1,
					    "an --each line names files, not - (standard input or output)");
			if ((size_t)*n == cap) {
				cap = cap ? 2 * cap : 64;
				l = xrealloc(l, sizeof *l * cap);
			}
			l[(*n)++] = (EachLine){f[0], f[1]};
		}
		p = e + 1;
	}
	return l;
}

/* The --each parent: a child per line returns from here with *in and *out
 * set; the parent exits. */
static void each_run(const char *list, const char **in, const char **out)
{
	int n;
	EachLine *l = each_read(list, &n);
	const char *dir = getenv("TMPDIR");
	Buf path = {0};
	buf_printf(&path, "%s/ks-each-XXXXXX", dir && *dir ? dir : "/tmp");
	buf_put(&path, "", 1);
	int fd = mkstemp(path.p);
	if (fd >= 0 && fd <= 2) { /* stdin, stdout or stderr closed: not one of those */
		int hi = fcntl(fd, F_DUPFD, 3);
		close(fd);
		fd = hi;
	}
	if (fd < 0)
		ks_fatal("%s:", path.p);
	unlink(path.p);
	buf_free(&path);
	int bad = 0;
	static Buf err, reason; /* static: a child that returns leaves them reachable */
	for (int k = 0; k < n; k++) {
		fflush(stdout);
		fflush(stderr);
		if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) < 0)
			ks_fatal("the --each message file:");
		pid_t pid = fork();
		if (pid < 0)
			ks_fatal("fork:");
		if (pid == 0) {
			if (dup2(fd, 2) < 0)
				_exit(126);
			close(fd);
			*in = l[k].in;
			*out = l[k].out;
			return;
		}
		int st, r;
		while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
			;
		if (r < 0)
			ks_fatal("waitpid:");
		err.n = 0;
		char b[4096];
		ssize_t got;
		if (lseek(fd, 0, SEEK_SET) < 0)
			ks_fatal("the --each message file:");
		while ((got = read(fd, b, sizeof b)) > 0)
			buf_put(&err, b, (size_t)got);
		if (WIFSIGNALED(st))
			buf_printf(&err, "%s: %s: killed by signal %d\n", ks_prog, l[k].in, WTERMSIG(st));
		else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			if (!err.n)
				buf_printf(&err, "%s: %s: exit status %d\n", ks_prog, l[k].in, WEXITSTATUS(st));
		} else {
			if (err.n)
				fwrite(err.p, 1, err.n, stderr);
			printf("%s ok\n", l[k].out);
			continue;
		}
		bad = 1;
		fwrite(err.p, 1, err.n, stderr); /* not empty: a message was added above */
		reason.n = 0;
		buf_first_line(&reason, err.p, err.n);
		printf("%s error: %.*s\n", l[k].out, (int)reason.n, reason.p);
	}
	close(fd);
	buf_free(&err);
	buf_free(&reason);
	if (fflush(stdout) || ferror(stdout))
		ks_fatal("write error on stdout");
	exit(bad);
}

void ks_args(int argc, char **argv, const char *usage, int (*flag)(const char *arg, void *ctx), void *ctx,
	     const char **in, const char **out)
{
	int nin = 0;
	const char *each = NULL;
#define USAGE(f) \
	fprintf(f, "usage: %s\n       %s [options] --each LIST  (a run per line `IN OUT`)\n", usage, ks_prog)
	*in = "-";
	*out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") && i + 1 < argc) {
			*out = argv[++i];
		} else if (!strcmp(a, "--each") && i + 1 < argc) {
			each = argv[++i];
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			USAGE(stdout);
			exit(0);
		} else if (a[0] == '-' && a[1] && !(flag && flag(a, ctx))) {
			USAGE(stderr);
			exit(2);
		} else if (a[0] != '-' || !a[1]) {
			if (nin++) {
				USAGE(stderr);
				exit(2);
			}
			*in = a;
		}
	}
	if (each) {
		if (nin || *out) {
			USAGE(stderr);
			exit(2);
		}
		each_run(each, in, out);
	}
#undef USAGE
}
