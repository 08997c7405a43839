/*
 * file.c: a module read function by function, the way every IR tool reads
 * its input, so that a tool's memory does not grow with the module.
 *
 * A first pass over the text finds where each function starts (a line
 * whose first word is func, kernel or backward), its name, and which
 * functions any body names with '@' (outside strings and comments): the
 * module then knows every function by name and kind (ir_func_declare),
 * and which are called.  The head (the version, the source line, the
 * structs) is the text before the first function and is read at once.
 * Then ir_file_next reads each function's text — from its first line to
 * the next function's — into the module, with its body in an arena of its
 * own, and ir_file_drop frees the body and keeps what the calls below
 * need: the signature (ir_keep_signature).  A call names a function above
 * it (doc/ir.md; ir_verify_func checks it), so each function is complete
 * when it is read.
 *
 * Nothing in the first pass is an error: what it cannot make sense of (a
 * function line without a name, a null byte, a name defined twice) is left
 * to the reader, which reports it where it stands when it gets there, with
 * the line shown (Src.line0 is the piece's first line).  Standard input,
 * which cannot be read twice, is copied to a temporary file as it is
 * scanned.  A text in memory (ir_read) is scanned and read the same way,
 * its bodies kept.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A line that opens a function: blanks, func|kernel|backward as a word.
 * Returns 0 if not, else 1 for func, 2 for kernel, 3 for backward, with
 * the '@name' that follows in *name, *nlen (length 0: none). */
static int header(const char *l, size_t len, const char **name, size_t *nlen)
{
	static const char *const kw[] = {"func", "kernel", "backward"};
	const char *p = l, *end = l + len;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	size_t k;
	for (k = 0; k < KS_NELEM(kw); k++) {
		size_t n = strlen(kw[k]);
		if ((size_t)(end - p) >= n && !memcmp(p, kw[k], n) &&
		    (p + n == end || !is_ident((unsigned char)p[n])))
			break;
	}
	if (k == KS_NELEM(kw))
		return 0;
	p += strlen(kw[k]);
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	*name = p + 1;
	*nlen = 0;
	if (p < end && *p == '@')
		while (p + 1 + *nlen < end && is_ident((unsigned char)p[1 + *nlen]))
			(*nlen)++;
	return (int)k + 1;
}

/* The function named at a body line's '@'s: called. */
static void mark_calls(IrFile *r, const char *l, size_t len)
{
	Module *m = r->m;
	const char *end = l + len;
	int str = 0;
	for (const char *p = l; p < end; p++) {
		if (str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				str = 0;
			continue;
		}
		if (*p == '"')
			str = 1;
		if (*p == '#')
			return;
		if (*p != '@')
			continue;
		const char *q = p + 1;
		while (q < end && is_ident((unsigned char)*q))
			q++;
		buf_put(&r->name_buf, p + 1, (size_t)(q - p - 1));
		buf_putc(&r->name_buf, 0);
		int fi = ir_func_find(m, r->name_buf.p);
		r->name_buf.n = 0;
		if (fi >= 0)
			r->called[fi] = 1;
		p = q - 1;
	}
}

/* The first pass (above).  A call names a function above it, so the
 * functions a line calls are known when it is read; one named further
 * down is an error the reader reports. */
static void scan(IrFile *r)
{
	Module *m = r->m;
	int line = 0, cap = 0, capcalled = 0;
	Lines *in = &r->in;
	while (lines_next(in)) {
		line++;
		const char *nm;
		size_t nn;
		int h = header(in->p, in->n, &nm, &nn);
		if (h) {
			if (r->npiece + 2 > cap) {
				cap = 2 * (r->npiece + 2);
				r->piece = xrealloc(r->piece, (size_t)cap * sizeof *r->piece);
			}
			IrPiece *pc = &r->piece[r->npiece++];
			pc->off = in->off;
			pc->line0 = line;
			pc->fn = -1;
			if (nn) {
				buf_put(&r->name_buf, nm, nn);
				buf_putc(&r->name_buf, 0);
				ir_func_declare(m, r->name_buf.p,
						h == 3   ? FN_BACKWARD
						: h == 2 ? FN_KERNEL
							 : FN_FUNC);
				r->name_buf.n = 0;
				pc->fn = m->nfn - 1;
				if (m->nfn > capcalled) {
					int old = capcalled;
					capcalled = 2 * m->nfn;
					r->called = xrealloc(r->called, (size_t)capcalled);
					memset(r->called + old, 0, (size_t)(capcalled - old));
				}
			}
		} else if (r->npiece && memchr(in->p, '@', in->n)) {
			mark_calls(r, in->p, in->n);
		}
	}
	r->piece = xrealloc(r->piece, (size_t)(r->npiece + 1) * sizeof *r->piece);
	r->piece[r->npiece].off = in->off;
	if (!r->called)
		r->called = xmalloc(1);
	buf_free(&r->name_buf);
}

/* Bytes [from, to) of the input as r->src, whose first line is line0. */
static const Src *piece(IrFile *r, long from, long to, int line0)
{
	r->src.name = r->in.name;
	r->src.text = lines_range(&r->in, from, to, &r->src.len);
	r->src.line0 = line0;
	return &r->src;
}

static void start(IrFile *r)
{
	r->m = r->m ? r->m : ir_module_new();
	scan(r);
	ir_read_head(r->m, piece(r, 0, r->piece[0].off, 1));
}

Module *ir_file_open(IrFile *r, const char *path)
{
	memset(r, 0, sizeof *r);
	lines_open(&r->in, path);
	start(r);
	return r->m;
}

int ir_file_next(IrFile *r)
{
	if (r->next >= r->npiece)
		return -1;
	const IrPiece *pc = &r->piece[r->next++];
	const Src *s = piece(r, pc->off, pc[1].off, pc->line0);
	Module *m = r->m;
	if (!r->whole) {
		r->keep = m->arena;
		memset(&m->arena, 0, sizeof m->arena);
		m->fnarena = &r->keep;
		r->reading = 1;
	}
	ir_read_func(m, s, pc->fn);
	return pc->fn;
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
	f->file = NULL; /* in the arena of its body */
	f->val = val;
	f->nval = f->capval = np;
	f->param = param;
	f->nparam = np;
	f->ret = ret;
	f->nret = nr;
	memset(&f->body, 0, sizeof f->body);
}

void ir_file_drop(IrFile *r, int fi)
{
	Module *m = r->m;
	if (m->fnkind[fi] == FN_FUNC)
		ir_keep_signature(m, m->fn[fi]);
	else
		ir_func_forget(m, fi); /* nothing calls a kernel */
	arena_free(&m->arena);
	m->arena = r->keep;
	memset(&r->keep, 0, sizeof r->keep);
	m->fnarena = NULL;
	r->reading = 0;
}

void ir_file_close(IrFile *r)
{
	if (r->reading) {
		arena_free(&r->m->arena);
		r->m->arena = r->keep;
		r->m->fnarena = NULL;
	}
	ir_module_free(r->m);
	lines_close(&r->in);
	free(r->piece);
	free(r->called);
	memset(r, 0, sizeof *r);
}

void ir_read_into(Module *m, const Src *s)
{
	/* static: a longjmp out (ks_recover) leaves what it holds reachable,
	 * and the next call frees it */
	static IrFile r;
	lines_close(&r.in);
	free(r.piece);
	free(r.called);
	memset(&r, 0, sizeof r);
	r.m = m;
	r.whole = 1;
	lines_mem(&r.in, s->name, s->text, s->len);
	start(&r);
	while (r.next < r.npiece)
		ir_file_next(&r);
	lines_close(&r.in);
	free(r.piece);
	free(r.called);
	r.piece = NULL;
	r.called = NULL;
}

Module *ir_read(const Src *s)
{
	Module *m = ir_module_new();
	ir_read_into(m, s);
	return m;
}
