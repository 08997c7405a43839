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
	Buf *out; /* the function's text, written out whole */
	const Func *f;
	int32_t *num; /* canonical temp numbers, -1 until defined */
	int next;
} Printer;

/* " !LINE:COL", then tail */
static void put_loc(Buf *out, Loc l, const char *tail)
{
	buf_puts(out, " !");
	buf_int(out, l.line);
	buf_putc(out, ':');
	buf_int(out, l.col);
	buf_puts(out, tail);
}

static void print_value(Printer *p, int id)
{
	const Value *v = &p->f->val[id];
	char buf[64];
	switch (v->kind) {
	case VK_PARAM:
	case VK_VAR:
		buf_putc(p->out, '%');
		buf_puts(p->out, v->name);
		return;
	case VK_TEMP:
		if (p->num[id] < 0)
			p->num[id] = p->next++;
		buf_putc(p->out, '%');
		buf_int(p->out, p->num[id]);
		return;
	case VK_CONST:
		ir_const_text(buf, sizeof buf, v);
		buf_puts(p->out, buf);
		return;
	}
}

static void print_defs(Printer *p, const Inst *in)
{
	for (int i = 0; i < in->nres; i++) {
		if (i)
			buf_puts(p->out, ", ");
		print_value(p, in->res[i]);
		buf_puts(p->out, ": ");
		buf_puts(p->out, ty_name(p->f->val[in->res[i]].ty));
	}
}

static void print_args(Printer *p, const Inst *in, int from, const char *lead)
{
	for (int i = from; i < in->narg; i++) {
		buf_puts(p->out, i == from ? lead : ", ");
		print_value(p, in->arg[i]);
	}
}

static void indent(Printer *p, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_puts(p->out, "  ");
}

static void print_block(Printer *p, const Module *m, const Block *b, int depth);

/* inst := defs '=' op args loc | op args loc | if/for/loop ... '{' block '}' */
static void print_inst(Printer *p, const Module *m, const Inst *in, int depth)
{
	Buf *out = p->out;
	indent(p, depth);
	switch (in->op) {
	case OP_IF:
		buf_puts(out, "if ");
		print_value(p, in->arg[0]);
		put_loc(out, in->loc, " {\n");
		print_block(p, m, &in->body, depth + 1);
		if (in->els.n) {
			indent(p, depth);
			buf_puts(out, "} else {\n");
			print_block(p, m, &in->els, depth + 1);
		}
		indent(p, depth);
		buf_puts(out, "}\n");
		return;
	case OP_FOR:
		buf_puts(out, "for ");
		print_defs(p, in);
		print_args(p, in, 0, " = ");
		put_loc(out, in->loc, " {\n");
		print_block(p, m, &in->body, depth + 1);
		indent(p, depth);
		buf_puts(out, "}\n");
		return;
	case OP_LOOP:
		buf_puts(out, "loop");
		put_loc(out, in->loc, " {\n");
		print_block(p, m, &in->body, depth + 1);
		indent(p, depth);
		buf_puts(out, "}\n");
		return;
	}
	if (in->nres) {
		/* temps are numbered in order of definition */
		for (int i = 0; i < in->nres; i++)
			if (p->f->val[in->res[i]].kind == VK_TEMP && p->num[in->res[i]] < 0)
				p->num[in->res[i]] = p->next++;
		print_defs(p, in);
		buf_puts(out, " = ");
	}
	if (in->op == OP_BUILTIN) {
		buf_puts(out, ir_builtins[in->callee].name);
	} else if (in->op == OP_CALL) {
		buf_puts(out, "call @");
		buf_puts(out, m->fn[in->callee]->name);
	} else if (in->op == OP_PRINTF) {
		const char *fmt = m->str[in->callee];
		buf_puts(out, "printf ");
		buf_cstring(out, fmt, strlen(fmt));
		print_args(p, in, 0, ", ");
		put_loc(out, in->loc, "\n");
		return;
	} else if (in->op == OP_FIELD || in->op == OP_SETFIELD) {
		/* field %s, NAME [, %x] */
		buf_puts(out, ir_ops[in->op].name);
		buf_putc(out, ' ');
		print_value(p, in->arg[0]);
		buf_puts(out, ", ");
		buf_puts(out, ty_field(p->f->val[in->arg[0]].ty, in->callee)->name);
		print_args(p, in, 1, ", ");
		put_loc(out, in->loc, "\n");
		return;
	} else {
		buf_puts(out, ir_ops[in->op].name);
	}
	print_args(p, in, 0, " ");
	put_loc(out, in->loc, "\n");
}

static void print_block(Printer *p, const Module *m, const Block *b, int depth)
{
	for (int i = 0; i < b->n; i++)
		print_inst(p, m, &b->v[i], depth);
}

/* func := ('func' | 'kernel' | 'backward') '@' NAME '(' params ')' ['->' types]
 *         ['no_backward'] {option} loc ['file' STRING] '{'
 * option := 'launch_bounds' '(' INT [',' INT] ')' | 'max_registers' '(' INT ')'
 *         | 'cluster_dim' '(' INT ')' | 'no_grid_stride' | 'smem_spilling' */
static void print_func(FILE *out, const Module *m, const Func *f)
{
	Buf b = {0};
	Printer p = {&b, f, xmalloc((size_t)(f->nval ? f->nval : 1) * sizeof(int32_t)), 0};
	for (int i = 0; i < f->nval; i++)
		p.num[i] = -1;
	buf_puts(&b, f->backward ? "backward @" : f->is_kernel ? "kernel @" : "func @");
	buf_puts(&b, f->name);
	buf_putc(&b, '(');
	for (int i = 0; i < f->nparam; i++) {
		const Value *v = &f->val[f->param[i]];
		buf_puts(&b, i ? ", %" : "%");
		buf_puts(&b, v->name);
		buf_puts(&b, ": ");
		buf_puts(&b, ty_name(v->ty));
	}
	buf_putc(&b, ')');
	for (int i = 0; i < f->nret; i++) {
		buf_puts(&b, i ? ", " : " -> ");
		buf_puts(&b, ty_name(f->ret[i]));
	}
	if (f->no_backward)
		buf_puts(&b, " no_backward");
	const KernelOpts *o = &f->opts;
	if (o->max_threads && o->min_blocks)
		buf_printf(&b, " launch_bounds(%d, %d)", o->max_threads, o->min_blocks);
	else if (o->max_threads)
		buf_printf(&b, " launch_bounds(%d)", o->max_threads);
	if (o->max_registers)
		buf_printf(&b, " max_registers(%d)", o->max_registers);
	if (o->cluster_dim)
		buf_printf(&b, " cluster_dim(%d)", o->cluster_dim);
	if (o->lean)
		buf_puts(&b, " no_grid_stride");
	if (o->smem_spilling)
		buf_puts(&b, " smem_spilling");
	put_loc(&b, f->loc, f->file ? " file " : " {\n");
	if (f->file) {
		buf_cstring(&b, f->file, strlen(f->file));
		buf_puts(&b, " {\n");
	}
	print_block(&p, m, &f->body, 1);
	buf_puts(&b, "}\n");
	fwrite(b.p, 1, b.n, out);
	buf_free(&b);
	free(p.num);
}

void ir_print_head(FILE *out, const Module *m)
{
	fprintf(out, "ksynth-ir %d\n", m->version);
	if (m->source) {
		Buf b = {0};
		buf_puts(&b, "source ");
		buf_cstring(&b, m->source, strlen(m->source));
		buf_putc(&b, '\n');
		fwrite(b.p, 1, b.n, out);
		buf_free(&b);
	}
	/* struct NAME { FIELD: TYPE, ... } */
	for (int i = 0; i < m->nst; i++) {
		Type t = m->st[i];
		fprintf(out, "struct %s {", ty_name(t));
		for (int k = 0; k < ty_nfield(t); k++)
			fprintf(out, "%s %s: %s", k ? "," : "", ty_field(t, k)->name, ty_name(ty_field(t, k)->ty));
		fputs(" }\n", out);
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
