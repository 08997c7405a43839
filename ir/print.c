/*
 * print.c: writes a Module as IR text in its one canonical form (the
 * grammar is in doc/ir.md).  Canonical means: two-space indentation per
 * block, temps renumbered %0, %1, ... in order of definition within each
 * function, floats in the shortest form that reads back to the same
 * float32, and nothing but the module's content (no comments).  So
 * kfmt(kfmt(x)) == kfmt(x) and kfmt(kparse(x)) == kparse(x).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct Printer {
	FILE *out;
	const Func *f;
	int32_t *num; /* canonical temp numbers, -1 until defined */
	int next;
} Printer;

/* v in decimal, as %d writes it (printf costs more than what it prints) */
static void put_int(FILE *out, int v)
{
	char s[16], *q = s + sizeof s;
	unsigned u = v < 0 ? 0 - (unsigned)v : (unsigned)v;
	do
		*--q = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--q = '-';
	fwrite(q, 1, (size_t)(s + sizeof s - q), out);
}

/* " !LINE:COL", then tail */
static void put_loc(FILE *out, Loc l, const char *tail)
{
	fputs(" !", out);
	put_int(out, l.line);
	fputc(':', out);
	put_int(out, l.col);
	fputs(tail, out);
}

static void print_value(Printer *p, int id)
{
	const Value *v = &p->f->val[id];
	char buf[64];
	switch (v->kind) {
	case VK_PARAM:
	case VK_VAR:
		fputc('%', p->out);
		fputs(v->name, p->out);
		return;
	case VK_TEMP:
		if (p->num[id] < 0)
			p->num[id] = p->next++;
		fputc('%', p->out);
		put_int(p->out, p->num[id]);
		return;
	case VK_CONST:
		if (v->ty == TY_BOOL)
			fputs(v->k.i ? "true" : "false", p->out);
		else if (v->ty == TY_INT)
			put_int(p->out, (int)v->k.i);
		else {
			ks_fmt_float(buf, sizeof buf, v->k.f);
			fputs(buf, p->out);
		}
		return;
	}
}

static void print_defs(Printer *p, const Inst *in)
{
	for (int i = 0; i < in->nres; i++) {
		if (i)
			fputs(", ", p->out);
		print_value(p, in->res[i]);
		fputs(": ", p->out);
		fputs(ty_name(p->f->val[in->res[i]].ty), p->out);
	}
}

static void print_args(Printer *p, const Inst *in, int from, const char *lead)
{
	for (int i = from; i < in->narg; i++) {
		fputs(i == from ? lead : ", ", p->out);
		print_value(p, in->arg[i]);
	}
}

static void indent(Printer *p, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", p->out);
}

static void print_block(Printer *p, const Module *m, const Block *b, int depth);

/* inst := defs '=' op args loc | op args loc | if/for/loop ... '{' block '}' */
static void print_inst(Printer *p, const Module *m, const Inst *in, int depth)
{
	FILE *out = p->out;
	indent(p, depth);
	switch (in->op) {
	case OP_IF:
		fputs("if ", out);
		print_value(p, in->arg[0]);
		put_loc(out, in->loc, " {\n");
		print_block(p, m, &in->body, depth + 1);
		if (in->els.n) {
			indent(p, depth);
			fputs("} else {\n", out);
			print_block(p, m, &in->els, depth + 1);
		}
		indent(p, depth);
		fputs("}\n", out);
		return;
	case OP_FOR:
		fputs("for ", out);
		print_defs(p, in);
		print_args(p, in, 0, " = ");
		put_loc(out, in->loc, " {\n");
		print_block(p, m, &in->body, depth + 1);
		indent(p, depth);
		fputs("}\n", out);
		return;
	case OP_LOOP:
		fputs("loop", out);
		put_loc(out, in->loc, " {\n");
		print_block(p, m, &in->body, depth + 1);
		indent(p, depth);
		fputs("}\n", out);
		return;
	}
	if (in->nres) {
		/* temps are numbered in order of definition */
		for (int i = 0; i < in->nres; i++)
			if (p->f->val[in->res[i]].kind == VK_TEMP && p->num[in->res[i]] < 0)
				p->num[in->res[i]] = p->next++;
		print_defs(p, in);
		fputs(" = ", out);
	}
	if (in->op == OP_BUILTIN) {
		fputs(ir_builtins[in->callee].name, out);
	} else if (in->op == OP_CALL) {
		fputs("call @", out);
		fputs(m->fn[in->callee]->name, out);
	} else {
		fputs(ir_ops[in->op].name, out);
	}
	print_args(p, in, 0, " ");
	put_loc(out, in->loc, "\n");
}

static void print_block(Printer *p, const Module *m, const Block *b, int depth)
{
	for (int i = 0; i < b->n; i++)
		print_inst(p, m, &b->v[i], depth);
}

static void print_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c < 32 || *c >= 127)
			fprintf(out, "\\x%02x", *c);
		else
			fputc(*c, out);
	}
	fputc('"', out);
}

/* func := ('func' | 'kernel') '@' NAME '(' params ')' ['->' types] loc '{' */
static void print_func(FILE *out, const Module *m, const Func *f)
{
	Printer p = {out, f, xmalloc((size_t)(f->nval ? f->nval : 1) * sizeof(int32_t)), 0};
	for (int i = 0; i < f->nval; i++)
		p.num[i] = -1;
	fprintf(out, "%s @%s(", f->backward ? "backward" : f->is_kernel ? "kernel" : "func", f->name);
	for (int i = 0; i < f->nparam; i++) {
		const Value *v = &f->val[f->param[i]];
		fprintf(out, "%s%%%s: %s", i ? ", " : "", v->name, ty_name(v->ty));
	}
	fputc(')', out);
	for (int i = 0; i < f->nret; i++)
		fprintf(out, "%s%s", i ? ", " : " -> ", ty_name(f->ret[i]));
	fprintf(out, " !%d:%d {\n", f->loc.line, f->loc.col);
	print_block(&p, m, &f->body, 1);
	fputs("}\n", out);
	free(p.num);
}

void ir_print_head(FILE *out, const Module *m)
{
	fprintf(out, "ksynth-ir %d\n", m->version);
	if (m->source) {
		fputs("source ", out);
		print_string(out, m->source);
		fputc('\n', out);
	}
}

void ir_print_func(FILE *out, const Module *m, const Func *f)
{
	fputc('\n', out);
	print_func(out, m, f);
}

void ir_print(FILE *out, const Module *m)
{
	ir_print_head(out, m);
	for (int i = 0; i < m->nfn; i++)
		ir_print_func(out, m, m->fn[i]);
}
