/*
 * verify_util.c: what kverify's steps share (verify.h): its options,
 * files and paths, a set of strings, record ids, and running a tool in
 * a folder of the work folder, its output and errors to files, as a
 * batch's status lines say how each of its lines went.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pack/verify.h"

VfOpts vf_opt = {.shard = 50};

const char *const vf_dev_name[2] = {"cpu", "cuda"};

/* ---- files and text --------------------------------------------------- */

/* The whole of PATH, or NULL when it is not a regular file that can be
 * read (the dataset's files may be anything). */
char *vf_slurp(const char *path, size_t *len)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	char tmp[65536];
	size_t k;
	while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_put(&b, tmp, k);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		buf_free(&b);
		return NULL;
	}
	buf_putc(&b, 0);
	*len = b.n - 1;
	return b.p;
}

/* FMT's text (at most 4 KB), malloc'd */
char *vf_pathf(const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	char tmp[4096];
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_puts(&b, tmp);
	buf_putc(&b, 0);
	return b.p;
}

/* TEXT cut to one line of at most 200 bytes, control characters as spaces */
void vf_one_line(Buf *b, const char *s)
{
	size_t start = b->n;
	buf_first_line(b, s, strlen(s));
	if (b->n - start > 200)
		b->n = start + 200;
}

/* ---- a set of strings ------------------------------------------------- */

long *vf_set_find(Set *s, const char *k, int add)
{
	if (add && (s->n + 1) * 2 > s->cap) {
		Set t = {0};
		t.cap = s->cap ? 2 * s->cap : 1024;
		t.key = calloc(t.cap, sizeof *t.key);
		t.val = calloc(t.cap, sizeof *t.val);
		if (!t.key || !t.val)
			ks_fatal("out of memory");
		for (size_t i = 0; i < s->cap; i++)
			if (s->key[i]) {
				size_t j = ks_hash64(s->key[i], strlen(s->key[i]), 0) & (t.cap - 1);
				while (t.key[j])
					j = (j + 1) & (t.cap - 1);
				t.key[j] = s->key[i];
				t.val[j] = s->val[i];
			}
		free(s->key);
		free(s->val);
		t.n = s->n;
		*s = t;
	}
	if (!s->cap)
		return NULL;
	size_t j = ks_hash64(k, strlen(k), 0) & (s->cap - 1);
	for (; s->key[j]; j = (j + 1) & (s->cap - 1))
		if (!strcmp(s->key[j], k))
			return &s->val[j];
	if (!add)
		return NULL;
	s->key[j] = xstrdup(k);
	s->n++;
	return &s->val[j];
}

void vf_set_free(Set *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->key[i]);
	free(s->key);
	free(s->val);
	memset(s, 0, sizeof *s);
}

/* ---- running the tools ------------------------------------------------ */

char vf_bin_dir[4096];

void vf_find_bin(void)
{
	if (vf_opt.bin) {
		snprintf(vf_bin_dir, sizeof vf_bin_dir, "%s", vf_opt.bin);
		return;
	}
	ssize_t n = readlink("/proc/self/exe", vf_bin_dir, sizeof vf_bin_dir - 1);
	if (n <= 0)
		ks_fatal("cannot tell where kverify is: give --bin DIR, the folder of the tools");
	vf_bin_dir[n] = 0;
	*strrchr(vf_bin_dir, '/') = 0;
}

/* Run ARGV (ARGV[0] a tool's name, found in vf_bin_dir) in folder CWD, its
 * stdout to OUT and stderr to ERR (NULL: /dev/null); its exit status, or
 * 128 + the signal that ended it. */
int vf_run(const char *cwd, const char *const *argv, const char *out, const char *err)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		ks_fatal("fork:");
	if (!pid) {
		if (cwd && chdir(cwd))
			_exit(126);
		int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int e = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int in = open("/dev/null", O_RDONLY);
		if (o < 0 || e < 0 || in < 0)
			_exit(126);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", vf_bin_dir, argv[0]);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			ks_fatal("waitpid:");
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 126 || WEXITSTATUS(st) == 127))
		ks_fatal("%s/%s cannot be run in %s (give --bin DIR, the folder of the tools)", vf_bin_dir, argv[0],
			 cwd ? cwd : ".");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The first non-blank line of file PATH (a failed run's reason). */
char *vf_first_line_of(const char *path)
{
	size_t n;
	char *s = vf_slurp(path, &n);
	Buf b = {0};
	buf_first_line(&b, s ? s : "", s ? n : 0);
	buf_putc(&b, 0);
	free(s);
	return b.p;
}

void vf_write_if_changed(const char *path, const char *p, size_t n)
{
	size_t on;
	char *old = vf_slurp(path, &on);
	int same = old && on == n && !memcmp(old, p, n);
	free(old);
	if (!same)
		out_write_whole(path, p, n);
}

void vf_probe_cuda(VfCuda *c, const char *dir)
{
	memset(c, 0, sizeof *c);
	char *out = vf_pathf("%s/probe.out", dir), *err = vf_pathf("%s/probe.err", dir);
	const char *nv[] = {"krun", "--nvrtc", NULL};
	int rc = vf_run(dir, nv, out, err);
	char *o = vf_first_line_of(out), *m = vf_first_line_of(err);
	char w1[64] = "", w2[64] = "";
	if (rc == 0 && sscanf(o, "%63s %63[^: ]", w1, w2) == 2)
		snprintf(c->nvrtc, sizeof c->nvrtc, "%s %s", w1, w2);
	else
		snprintf(c->no_nvrtc, sizeof c->no_nvrtc, "%s", *m ? m : "krun --nvrtc found none");
	free(o);
	free(m);
	static const char probe[] = "import warp as wp\n\n\n@wp.kernel\ndef probe(x: wp.array(dtype=float)):\n"
				    "    i = wp.tid()\n    x[i] = x[i] + 1.0\n";
	char *py = vf_pathf("%s/probe.py", dir);
	vf_write_if_changed(py, probe, sizeof probe - 1);
	const char *gpu[] = {"krun", "--device", "cuda", "--dim", "1", "probe.py", NULL};
	c->gpu = vf_run(dir, gpu, out, err) == 0;
	m = vf_first_line_of(err);
	if (!c->gpu)
		snprintf(c->no_gpu, sizeof c->no_gpu, "%s", *m ? m : "krun --device cuda failed");
	free(m);
	free(py);
	free(out);
	free(err);
}

/* The status lines of a batch (`KEY ok` | `KEY error: REASON`): KEY's
 * reason, "" for ok, or NULL when the batch gave KEY no line. */
char *vf_status_of(const char *st, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = st; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (strncmp(p, key, kl) || p[kl] != ' ')
			continue;
		const char *r = p + kl + 1;
		size_t n = strcspn(r, "\n");
		if (n == 2 && !strncmp(r, "ok", 2))
			return xstrdup("");
		if (n > 7 && !strncmp(r, "error: ", 7)) {
			char *s = xmalloc(n - 6);
			memcpy(s, r + 7, n - 7);
			s[n - 7] = 0;
			return s;
		}
	}
	return NULL;
}

/* ---- record ids ---------------------------------------------------------- */

/* a Python name, as a record's name must be */
int vf_is_name(const char *s)
{
	if (!*s || strlen(s) > 200 || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

/* id = s<SEED>-<INDEX, 7 digits or more>-<cpu|cuda> */
int vf_parse_id(const char *id, unsigned long long *seed, unsigned long long *idx, int *dev)
{
	const char *p = id;
	if (*p++ != 's' || *p < '0' || *p > '9')
		return 0;
	char *e;
	errno = 0;
	*seed = strtoull(p, &e, 10);
	if (errno || *e != '-' || (p[0] == '0' && e - p > 1))
		return 0;
	p = e + 1;
	if (*p < '0' || *p > '9')
		return 0;
	errno = 0;
	*idx = strtoull(p, &e, 10);
	if (errno || *e != '-' || e - p < 7 || (e - p > 7 && p[0] == '0') || *idx > (1ull << 40))
		return 0;
	p = e + 1;
	*dev = !strcmp(p, "cpu") ? CPU : !strcmp(p, "cuda") ? CUDA : -1;
	return *dev >= 0;
}

void vf_free_why(char **why, int n)
{
	for (int i = 0; i < n; i++) {
		free(why[i]);
		why[i] = NULL;
	}
}
