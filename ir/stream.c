/*
 * stream.c: reads a module function by function, so that a tool's memory
 * does not grow with the module.
 *
 * A first pass reads the text line by line and keeps only where each
 * function starts, its name and which functions are called.  The module
 * streams when every call names a function defined above the caller (what
 * kparse and kdiff write); otherwise — forward or recursive calls, a name
 * defined twice, a string or a null byte in a body, anything unusual —
 * ir_stream_open says no and the tool reads the module whole, as before.
 *
 * Then each function's text is read, parsed into the module with its body
 * in an arena of its own, used, and dropped: what stays is its signature
 * (name, parameters, results), which later calls need.  Tools stream with
 * errors quiet and recoverable (ks_recover); on an error they read the
 * module whole to report it exactly as the whole-module path does.
 * Standard input, which cannot be read twice, is first copied to a
 * temporary file.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

static int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A line that opens a function: blanks, func|kernel|backward, blanks, '@'.
 * Returns 0 if not, 1 for func, 2 for kernel, 3 for backward, -1 for a line
 * the keyword opens but that is not well formed; *name gets the name. */
static int header(const char *l, size_t len, const char **name, size_t *nlen)
{
	const char *p = l, *end = l + len;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	static const char *const kw[] = {"func", "kernel", "backward"};
	size_t k;
	for (k = 0; k < 3; k++) {
		size_t n = strlen(kw[k]);
		if ((size_t)(end - p) >= n && !memcmp(p, kw[k], n) &&
		    (p + n == end || !is_ident((unsigned char)p[n]))) {
			p += n;
			break;
		}
	}
	if (k == 3)
		return 0;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (p >= end || *p != '@')
		return -1;
	const char *s = ++p;
	while (p < end && is_ident((unsigned char)*p))
		p++;
	if (p == s)
		return -1;
	*name = s;
	*nlen = (size_t)(p - s);
	return (int)k + 1;
}

/* The first pass: 1 when the module can stream. */
static int scan(IrStream *s)
{
	Module *m = s->m;
	char *l = NULL, name[256];
	size_t cap = 0;
	ssize_t len;
	long pos = 0;
	int line = 0, ok = 1, capoff = 0;
	while (ok && (len = getline(&l, &cap, s->f)) > 0) {
		line++;
		const char *nm = NULL;
		size_t nn = 0;
		int h = header(l, (size_t)len, &nm, &nn);
		if (memchr(l, 0, (size_t)len) || h < 0 || (m->nfn && memchr(l, '"', (size_t)len))) {
			ok = 0;
		} else if (h) {
			if (nn >= sizeof name) {
				ok = 0;
				break;
			}
			memcpy(name, nm, nn);
			name[nn] = 0;
			if ((h == 3 ? ir_backward_find : ir_func_find)(m, name) >= 0) {
				ok = 0;
				break;
			}
			Loc none = {0, 0};
			ir_func_new(m, name, h >= 2, none)->backward = h == 3;
			if (m->nfn + 1 > capoff) {
				capoff = 2 * (m->nfn + 1);
				s->off = xrealloc(s->off, (size_t)capoff * sizeof *s->off);
				s->line = xrealloc(s->line, (size_t)capoff * sizeof *s->line);
				s->called = xrealloc(s->called, (size_t)capoff);
			}
			s->off[m->nfn - 1] = pos;
			s->line[m->nfn - 1] = line;
			s->called[m->nfn - 1] = 0;
		} else {
			/* a body line (or the head): every @name is a call, and must
			 * name a function defined above this one */
			for (const char *p = l; p < l + len && *p != '#'; p++) {
				if (*p != '@')
					continue;
				const char *q = ++p;
				while (p < l + len && is_ident((unsigned char)*p))
					p++;
				size_t n = (size_t)(p - q);
				int callee = -1;
				if (m->nfn && n && n < sizeof name) {
					memcpy(name, q, n);
					name[n] = 0;
					callee = ir_func_find(m, name);
				}
				if (callee < 0 || callee >= m->nfn - 1) {
					ok = 0;
					break;
				}
				s->called[callee] = 1;
				p--;
			}
		}
		pos += len;
	}
	free(l);
	if (ferror(s->f))
		ks_fatal("%s: read error", s->name);
	if (!ok || !m->nfn)
		return 0;
	s->off[m->nfn] = pos;
	return 1;
}

/* Read bytes [from, to) of the input into s->buf as the Src s->src. */
static const Src *piece(IrStream *s, long from, long to)
{
	size_t n = (size_t)(to - from);
	if (n + 1 > s->cap) {
		s->cap = 2 * (n + 1);
		s->buf = xrealloc(s->buf, s->cap);
	}
	if (fseek(s->f, from, SEEK_SET) || fread(s->buf, 1, n, s->f) != n)
		ks_fatal("%s: read error", s->name);
	s->buf[n] = 0;
	s->src.name = s->name;
	s->src.text = s->buf;
	s->src.len = n;
	return &s->src;
}

int ir_stream_open(IrStream *s, const char *path, Module *m)
{
	memset(s, 0, sizeof *s);
	s->m = m;
	int is_stdin = !path || !strcmp(path, "-");
	s->name = is_stdin ? "<stdin>" : path;
	s->f = src_open_seekable(path, s->name);
	if (!scan(s))
		return 0;
	ir_read_head(m, piece(s, 0, s->off[0]));
	return 1;
}

const Src *ir_stream_read(IrStream *s, int fi)
{
	const Src *src = piece(s, s->off[fi], s->off[fi + 1]);
	s->keep = s->m->arena;
	memset(&s->m->arena, 0, sizeof s->m->arena);
	s->reading = 1;
	s->m->fnarena = &s->keep;
	ir_read_func(s->m, src, s->line[fi], fi);
	return src;
}

void ir_keep_signature(Module *m, Func *f)
{
	Arena *a = m->fnarena;
	/* a func keeps its signature (for the calls below it); a kernel,
	 * which nothing calls, its name */
	int np = f->is_kernel ? 0 : f->nparam;
	for (int i = 0; i < np; i++)
		ir_param_view(m, f, i); /* while the body is there */
	Value *val = arena_alloc(a, (size_t)(np ? np : 1) * sizeof *val);
	int32_t *param = arena_alloc(a, (size_t)(np ? np : 1) * sizeof *param);
	for (int i = 0; i < np; i++) {
		val[i] = f->val[f->param[i]];
		val[i].name = arena_strdup(a, val[i].name);
		param[i] = i;
	}
	int nr = f->is_kernel ? 0 : f->nret;
	Type *ret = arena_alloc(a, (size_t)(nr ? nr : 1) * sizeof *ret);
	if (nr)
		memcpy(ret, f->ret, (size_t)nr * sizeof *ret);
	f->val = val;
	f->nval = f->capval = np;
	f->param = param;
	f->nparam = np;
	f->ret = ret;
	f->nret = nr;
	memset(&f->body, 0, sizeof f->body);
}

void ir_stream_drop(IrStream *s, int fi)
{
	Module *m = s->m;
	ir_keep_signature(m, m->fn[fi]);
	arena_free(&m->arena);
	m->arena = s->keep;
	m->fnarena = NULL;
	s->reading = 0;
}

void ir_stream_src(IrStream *s, Src *src)
{
	if (s->reading) {
		arena_free(&s->m->arena);
		s->m->arena = s->keep;
		s->m->fnarena = NULL;
		s->reading = 0;
	}
	if (fseek(s->f, 0, SEEK_END))
		ks_fatal("%s: read error", s->name);
	long end = ftell(s->f);
	if (end < 0)
		ks_fatal("%s: read error", s->name);
	piece(s, 0, end);
	src->name = s->name;
	src->text = s->buf;
	src->len = s->src.len;
	s->buf = NULL;
	s->cap = 0;
}

void ir_stream_close(IrStream *s)
{
	if (s->reading) {
		arena_free(&s->m->arena);
		s->m->arena = s->keep;
		s->m->fnarena = NULL;
		s->reading = 0;
	}
	if (s->f)
		fclose(s->f);
	free(s->off);
	free(s->line);
	free(s->called);
	free(s->buf);
	memset(s, 0, sizeof *s);
}

/* The state a longjmp must find intact lives here, not in locals. */
static IrStream run_s;
static Module *run_m;
static int run_begun;

int ir_stream_run(const char *path, const char *outpath, const IrStreamTool *t, void *ctx, Src *whole)
{
	jmp_buf jb;
	jmp_buf *saved = ks_recover;
	int quiet = ks_quiet;
	run_m = ir_module_new();
	run_begun = 0;
	memset(&run_s, 0, sizeof run_s);
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		if (ir_stream_open(&run_s, path, run_m)) {
			FILE *out = out_open_spool(outpath);
			run_begun = 1;
			t->begin(ctx, out, run_m, &run_s);
			int n = run_m->nfn; /* each may add functions */
			for (int i = 0; i < n; i++) {
				const Src *src = ir_stream_read(&run_s, i);
				t->each(ctx, out, run_m, i, src);
				ir_stream_drop(&run_s, i);
			}
			t->end(ctx, out, run_m);
			ks_recover = saved;
			ks_quiet = quiet;
			if (fflush(out) || ferror(out))
				ks_fatal("write error:");
			out_commit();
			t->free(ctx);
			ir_stream_close(&run_s);
			ir_module_free(run_m);
			return 1;
		}
	}
	/* cannot stream, or an error: start again on the whole text */
	ks_recover = saved;
	ks_quiet = quiet;
	out_abort();
	if (run_begun)
		t->free(ctx);
	if (run_s.f)
		ir_stream_src(&run_s, whole);
	else
		src_read(whole, path);
	ir_stream_close(&run_s);
	ir_module_free(run_m);
	run_m = NULL;
	return 0;
}
