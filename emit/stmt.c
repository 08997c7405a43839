/*
 * stmt.c: statements and control flow.  emit_block prints a block's live
 * statements that nothing folded (the folded ones are in the expressions
 * of those that read them), each ending with the source line it came from
 * (`  // line N`), and the declarations decl.c anchored in the block.
 * `if` chains are printed as else-if, `loop` whose body opens with
 * `if not c { break }` as `while (c)`, `for` as a C for loop (a bound the
 * body assigns copied first), a random draw advancing its state in place,
 * a call with several results passing them by pointer.
 *
 * Coverage (emit_coverage; emit.h) is made here: with emit_cover on, each
 * if and loop is a site, and each way of it opens with KS_COVER(site, way).
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_int.h"

static void indent(Emitter *e, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("    ", e->out);
}

/* "  // line N\n" */
static void put_line_comment(FILE *out, int line)
{
	char s[40] = "  // line ", *p = s + sizeof s;
	*--p = '\n';
	p = ks_dec(p, line) - 10;
	memcpy(p, s, 10);
	fwrite(p, 1, (size_t)(s + sizeof s - p), out);
}

static void line_end(Emitter *e, const Inst *in) { put_line_comment(e->out, in->loc.line); }

/* ---- coverage (emit_coverage) --------------------------------------------- */

int emit_cover;              /* instrument the code (emit_coverage) */
static EmitSite *cover_site; /* the sites written, in order */
static int ncover, capcover;

/* A new site for the if or loop in (of the function being emitted);
 * returns its number. */
static int cover_new(Emitter *e, const Inst *in, int loop)
{
	if (ncover == capcover) {
		capcover = capcover ? 2 * capcover : 64;
		cover_site = xrealloc(cover_site, (size_t)capcover * sizeof *cover_site);
	}
	cover_site[ncover] = (EmitSite){e->f->name, in->loc.line, in->loc.col, loop};
	return ncover++;
}

/* KS_COVER(site, way); as a block's first statement */
static void cover_line(Emitter *e, int depth, int site, int way)
{
	indent(e, depth);
	fprintf(e->out, "KS_COVER(%d, %d);\n", site, way);
}

void emit_coverage(int on)
{
	emit_cover = on;
	if (on)
		ncover = 0;
}

const EmitSite *emit_cover_sites(int *n)
{
	*n = ncover;
	return cover_site;
}

/* b's text, then tail */
static void put_text(Emitter *e, const Buf *b, const char *tail)
{
	fwrite(b->p, 1, b->n, e->out);
	fputs(tail, e->out);
}

/* Index of the only statement block b prints, or -1. */
static int sole_stmt(const Emitter *e, const Block *b)
{
	int found = -1;
	for (int i = 0; i < e->ndecl; i++)
		if (e->decl[i].b == b)
			return -1;
	for (int i = 0; i < b->n; i++) {
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (x->dead || x->root >= 0)
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

/* Index of the first statement block b prints (-1 if none), provided no
 * declaration comes before it. */
static int first_stmt(const Emitter *e, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (x->dead || x->root >= 0)
			continue;
		for (int k = 0; k < e->ndecl; k++)
			if (e->decl[k].b == b && e->decl[k].idx <= i)
				return -1;
		return i;
	}
	return -1;
}

/* A value instruction as a statement: "[T ]x = expr;" */
static void emit_assign(Emitter *e, const Inst *in, int depth)
{
	int r = in->res[0];
	const Value *rv = &e->f->val[r];
	Buf b = {0};
	indent(e, depth);
	if (in->op == OP_SETFIELD) {
		/* s.f = x; or, into another value, t = s; t.f = x; */
		if (in->arg[0] != r) {
			int declare = is_named_temp(e, r) ||
				      (rv->kind == VK_VAR && decl_inline(e, r) && in == first_occ(e, r));
			if (declare) {
				put_decl(&b, rv->ty, e->v[r].name);
			} else {
				buf_puts(&b, e->v[r].name);
			}
			buf_puts(&b, " = ");
			put_expr(e, &b, in->arg[0], 0);
			put_text(e, &b, ";");
			line_end(e, in);
			buf_free(&b);
			b = (Buf){0};
			indent(e, depth);
		}
		buf_puts(&b, e->v[r].name);
		buf_putc(&b, '.');
		buf_puts(&b, ty_field(rv->ty, in->callee)->name);
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[1], 0);
	} else if (in->op == OP_INSERT && in->arg[0] == r && !(ty_is_mat(rv->ty) && in->narg == 3)) {
		/* in-place component updates: v.c[k] = s;  m.c[i][j] = s; */
		buf_puts(&b, e->v[r].name);
		buf_puts(&b, ".c[");
		put_expr(e, &b, in->arg[1], 0);
		buf_putc(&b, ']');
		if (in->narg == 4) {
			buf_putc(&b, '[');
			put_expr(e, &b, in->arg[2], 0);
			buf_putc(&b, ']');
		}
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[in->narg - 1], 0);
	} else {
		int declare =
			is_named_temp(e, r) || (rv->kind == VK_VAR && decl_inline(e, r) && in == first_occ(e, r));
		if (declare) {
			if (is_handle(e, r)) {
				buf_puts(&b, "ks_trips ");
				buf_puts(&b, e->v[r].name);
			} else {
				put_decl(&b, rv->ty, e->v[r].name);
			}
			buf_puts(&b, " = ");
		} else {
			buf_puts(&b, e->v[r].name);
			buf_puts(&b, " = ");
		}
		put_inst(e, &b, in);
	}
	put_text(e, &b, ";");
	line_end(e, in);
	buf_free(&b);
}

/* A statement of its own: a call or atomic whose result is unused, or a
 * multi-result call or builtin (svd3), which writes its results through
 * pointers: ks_svd3_mat33(A, &U, &sigma, &V); */
static void emit_effect(Emitter *e, const Inst *in, int depth)
{
	Buf b = {0};
	int nr = multi_results(e, in, NULL);
	Type *rt = xmalloc((size_t)(nr ? nr : 1) * sizeof *rt);
	multi_results(e, in, rt);
	if (nr) {
		/* the temps it assigns, one declaration per type: float t3, t4; */
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k], seen = 0;
			if (!is_named_temp(e, r))
				continue;
			for (int q = 0; q < k && !seen; q++)
				seen = is_named_temp(e, in->res[q]) && e->f->val[in->res[q]].ty == e->f->val[r].ty;
			if (seen)
				continue;
			indent(e, depth);
			fprintf(e->out, "%s %s", local_ctype(e->f->val[r].ty), e->v[r].name);
			for (int q = k + 1; q < in->nres; q++)
				if (is_named_temp(e, in->res[q]) && e->f->val[in->res[q]].ty == e->f->val[r].ty)
					fprintf(e->out, ", %s", e->v[in->res[q]].name);
			fputc(';', e->out);
			line_end(e, in);
		}
		if (!in->nres) {
			/* results ignored: the function still writes them somewhere */
			indent(e, depth);
			fputs("{", e->out);
			line_end(e, in);
			depth++;
			for (int k = 0; k < nr; k++) {
				indent(e, depth);
				fprintf(e->out, "%s ignored%d;\n", ctype(rt[k]), k);
			}
		}
		indent(e, depth);
		if (in->op == OP_CALL) {
			buf_puts(&b, fn_name(e, in->callee));
		} else {
			char name[96];
			Type args[8];
			for (int k = 0; k < in->narg && k < 8; k++)
				args[k] = vty(e, in->arg[k]);
			ir_builtin_cname(in->callee, args, name, sizeof name);
			buf_puts(&b, name);
		}
		buf_putc(&b, '(');
		for (int k = 0; k < in->narg; k++) {
			if (k)
				buf_puts(&b, ", ");
			put_expr(e, &b, in->arg[k], P_COND);
		}
		for (int k = 0; k < nr; k++) {
			if (in->narg || k)
				buf_puts(&b, ", ");
			if (in->nres)
				buf_printf(&b, "&%s", e->v[in->res[k]].name);
			else
				buf_printf(&b, "&ignored%d", k);
		}
		buf_putc(&b, ')');
		put_text(e, &b, ";");
		line_end(e, in);
		if (!in->nres) {
			indent(e, depth - 1);
			fputs("}\n", e->out);
		}
	} else {
		indent(e, depth);
		put_inst(e, &b, in);
		put_text(e, &b, ";");
		line_end(e, in);
	}
	buf_free(&b);
	free(rt);
}

/* a = wp.randf(state): "float a = ks_randf(&state);", the draw advancing
 * the state in place.  A draw from anything but the variable it leaves its
 * state in copies that first: "uint32_t state = ks_rand_init(seed);". */
static void emit_draw(Emitter *e, const Inst *in, int depth)
{
	int r = in->res[0], st = in->res[1];
	Buf b = {0};
	if (st != in->arg[0]) {
		indent(e, depth);
		if (is_named_temp(e, st) || (decl_inline(e, st) && in == first_occ(e, st)))
			put_decl(&b, TY_UINT32, e->v[st].name);
		else
			buf_puts(&b, e->v[st].name);
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[0], 0);
		put_text(e, &b, ";");
		line_end(e, in);
		buf_free(&b);
		b = (Buf){0};
	}
	indent(e, depth);
	const Value *rv = &e->f->val[r];
	/* a value nobody reads (a backward replays draws for their state) is
	 * not kept */
	if (e->v[r].uses) {
		if (rv->kind == VK_TEMP || (decl_inline(e, r) && in == first_occ(e, r)))
			put_decl(&b, rv->ty, e->v[r].name);
		else
			buf_puts(&b, e->v[r].name);
		buf_puts(&b, " = ");
	}
	char name[96];
	Type args[8];
	for (int k = 0; k < in->narg && k < 8; k++)
		args[k] = vty(e, in->arg[k]);
	ir_builtin_cname(in->callee, args, name, sizeof name);
	buf_printf(&b, "%s(&%s", name, e->v[st].name);
	for (int k = 1; k < in->narg; k++) {
		buf_puts(&b, ", ");
		put_expr(e, &b, in->arg[k], P_COND);
	}
	put_text(e, &b, ");");
	line_end(e, in);
	buf_free(&b);
}

/* i, j = wp.tid(): int i = tid0;  int j = tid1; */
static void emit_tid(Emitter *e, const Inst *in, int depth)
{
	for (int k = 0; k < in->nres; k++) {
		int r = in->res[k];
		if (e->f->val[r].kind == VK_TEMP && !e->v[r].uses)
			continue; /* a dropped `_` of i, _, _ = wp.tid() */
		indent(e, depth);
		fprintf(e->out, "%s%s = tid%d;", decl_inline(e, r) && in == first_occ(e, r) ? "int " : "",
			e->v[r].name, k);
		line_end(e, in);
	}
}

static void emit_for(Emitter *e, const Inst *in, int depth)
{
	int k = in->res[0], lo = in->arg[0], hi = in->arg[1], st = in->arg[2];
	const char *kn = e->v[k].name;
	const Value *sv = &e->f->val[st];
	Buf b = {0}, hb = {0}, sb = {0};
	/* bounds are evaluated once: copy a bound the body reassigns */
	int bound[2] = {hi, st};
	Buf *out[2] = {&hb, &sb};
	for (int n = 0; n < 2; n++) {
		int val = bound[n], kind = e->f->val[val].kind;
		if ((kind == VK_VAR || kind == VK_PARAM) && assigns_in(&in->body, val)) {
			char base[300];
			snprintf(base, sizeof base, "%s_%s", kn, n ? "step" : "end");
			const char *nm = make_name(e, base, 0);
			indent(e, depth);
			fprintf(e->out, "int %s = %s;", nm, e->v[val].name);
			line_end(e, in);
			buf_puts(out[n], nm);
		} else {
			put_expr(e, out[n], val, n ? P_REL + 1 : P_REL + 1);
		}
	}
	if (sv->kind == VK_CONST && sv->k.i == 0) {
		indent(e, depth);
		fprintf(e->out, "/* for %s in range(..., 0): no iterations */", kn);
		line_end(e, in);
		buf_free(&hb);
		buf_free(&sb);
		return;
	}
	indent(e, depth);
	buf_puts(&b, "for (");
	if (decl_inline(e, k) && in == first_occ(e, k))
		buf_puts(&b, "int ");
	buf_cat(&b, kn, " = ", NULL);
	put_expr(e, &b, lo, 0);
	buf_puts(&b, "; ");
	if (sv->kind == VK_CONST) {
		int s = sv->k.i;
		buf_cat(&b, kn, s > 0 ? " < " : " > ", hb.p, "; ", kn, NULL);
		if (s == 1 || s == -1) {
			buf_puts(&b, s > 0 ? "++" : "--");
		} else {
			buf_puts(&b, s > 0 ? " += " : " -= ");
			buf_int(&b, s > 0 ? (long long)s : -(long long)s);
		}
	} else {
		/* range() with a step known only at run time: either sign, and
		 * none at all for a step of 0 */
		buf_printf(&b, "(%s > 0 && %s < %s) || (%s < 0 && %s > %s); %s += %s", sb.p, kn, hb.p, sb.p, kn,
			   hb.p, kn, sb.p);
	}
	put_text(e, &b, ") {");
	line_end(e, in);
	if (emit_cover)
		cover_line(e, depth + 1, cover_new(e, in, 1), 0);
	emit_block(e, &in->body, depth + 1, -1);
	indent(e, depth);
	fputs("}\n", e->out);
	buf_free(&b);
	buf_free(&hb);
	buf_free(&sb);
}

static void emit_stmt(Emitter *e, const Inst *in, int depth, int last)
{
	Buf b = {0};
	if (e->ii[inst_id(e, in)].sync)
		tile_sync(e, in, depth);
	if (tile_stmt(e, in)) {
		emit_tile(e, in, depth);
		if (e->ii[inst_id(e, in)].sync_after)
			tile_sync(e, in, depth);
		return;
	}
	switch (in->op) {
	case OP_IF:
		indent(e, depth);
		for (;;) {
			int site = emit_cover ? cover_new(e, in, 0) : -1;
			buf_puts(&b, "if (");
			put_expr(e, &b, in->arg[0], 0);
			put_text(e, &b, ") {");
			b.n = 0;
			line_end(e, in);
			if (emit_cover)
				cover_line(e, depth + 1, site, 0);
			emit_block(e, &in->body, depth + 1, -1);
			int s = in->els.n ? sole_stmt(e, &in->els) : -1;
			if (emit_cover) {
				/* the else way counted, an elif chain nested */
				indent(e, depth);
				fputs("} else {\n", e->out);
				cover_line(e, depth + 1, site, 1);
				emit_block(e, &in->els, depth + 1, -1);
				indent(e, depth);
				fputs("}\n", e->out);
				break;
			}
			if (s >= 0 && in->els.v[s].op == OP_IF) {
				indent(e, depth);
				fputs("} else ", e->out);
				in = &in->els.v[s];
				continue;
			}
			/* print the else branch unless nothing in it survives */
			int any = 0;
			for (int i = 0; i < in->els.n; i++)
				any |= !e->ii[inst_id(e, &in->els.v[i])].dead;
			if (any) {
				indent(e, depth);
				fputs("} else {\n", e->out);
				emit_block(e, &in->els, depth + 1, -1);
			}
			indent(e, depth);
			fputs("}\n", e->out);
			break;
		}
		break;
	case OP_FOR:
		emit_for(e, in, depth);
		break;
	case OP_LOOP: {
		/* loop { if not c { break } ... } is while (c) { ... } */
		int f0 = first_stmt(e, &in->body);
		const Inst *g = f0 >= 0 ? &in->body.v[f0] : NULL;
		int brk = g && g->op == OP_IF && sole_stmt(e, &g->body) >= 0 &&
			  g->body.v[sole_stmt(e, &g->body)].op == OP_BREAK;
		if (brk)
			for (int i = 0; i < g->els.n; i++)
				brk &= e->ii[inst_id(e, &g->els.v[i])].dead;
		indent(e, depth);
		if (brk) {
			int c = g->arg[0], d = e->v[c].def;
			buf_puts(&b, "while (");
			if (e->f->val[c].kind == VK_TEMP && d >= 0 && e->ii[d].root >= 0 &&
			    e->ii[d].in->op == OP_NOT) {
				put_expr(e, &b, e->ii[d].in->arg[0], 0);
			} else {
				buf_putc(&b, '!');
				put_expr(e, &b, c, P_UNARY);
			}
			put_text(e, &b, ") {");
			line_end(e, g);
		} else {
			fputs("for (;;) {", e->out);
			line_end(e, in);
		}
		if (emit_cover)
			cover_line(e, depth + 1, cover_new(e, in, 1), 0);
		emit_block(e, &in->body, depth + 1, brk ? f0 : -1);
		indent(e, depth);
		fputs("}\n", e->out);
		break;
	}
	case OP_BREAK:
	case OP_CONTINUE:
		indent(e, depth);
		fputs(in->op == OP_BREAK ? "break;" : "continue;", e->out);
		line_end(e, in);
		break;
	case OP_RET:
		if (e->f->nret > 1) {
			for (int k = 0; k < in->narg; k++) {
				indent(e, depth);
				buf_putc(&b, '*');
				buf_puts(&b, e->retname[k]);
				buf_puts(&b, " = ");
				put_expr(e, &b, in->arg[k], 0);
				put_text(e, &b, ";");
				b.n = 0;
				line_end(e, in);
			}
			if (last)
				break;
		} else if (in->narg) {
			buf_puts(&b, "return ");
			put_expr(e, &b, in->arg[0], 0);
			indent(e, depth);
			put_text(e, &b, ";");
			line_end(e, in);
			break;
		} else if (last) {
			break;
		}
		indent(e, depth);
		fputs("return;", e->out);
		line_end(e, in);
		break;
	case OP_TAPE_OPEN:
		indent(e, depth);
		buf_printf(&b, "ks_tape %s = ks_tape_open(", e->tapename);
		put_expr(e, &b, in->arg[0], P_COND);
		buf_printf(&b, "%s, %s);", val_view(e, in->arg[0]) ? ".data" : "",
			   e->threadname ? e->threadname : "tid");
		put_text(e, &b, "");
		line_end(e, in);
		break;
	case OP_PRINTF:
		indent(e, depth);
		put_printf(e, &b, in);
		put_text(e, &b, ";");
		line_end(e, in);
		break;
	case OP_STORE_COMP:
		/* a[i].c[k] = x, a[i].c[r][c] = x */
		indent(e, depth);
		put_elem(e, &b, in);
		for (int k = 1 + ty_ndim(vty(e, in->arg[0])); k < in->narg - 1; k++) {
			buf_puts(&b, k == 1 + ty_ndim(vty(e, in->arg[0])) ? ".c[" : "[");
			put_expr(e, &b, in->arg[k], 0);
			buf_putc(&b, ']');
		}
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[in->narg - 1], 0);
		put_text(e, &b, ";");
		line_end(e, in);
		break;
	case OP_STORE:
		indent(e, depth);
		put_elem(e, &b, in);
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[in->narg - 1], 0);
		put_text(e, &b, ";");
		line_end(e, in);
		break;
	default:
		if (in->op == OP_BUILTIN && in->callee == BI_TID && in->nres > 1)
			emit_tid(e, in, depth);
		else if (is_draw(in))
			emit_draw(e, in, depth);
		else if (multi_results(e, in, NULL))
			emit_effect(e, in, depth);
		else if (in->nres == 1 && e->v[in->res[0]].uses + (e->f->val[in->res[0]].kind != VK_TEMP))
			emit_assign(e, in, depth);
		else
			emit_effect(e, in, depth);
	}
	if (b.p)
		buf_free(&b);
}

/* Print block b's statements (skipping index skip) and the declarations
 * anchored in it. */
void emit_block(Emitter *e, const Block *b, int depth, int skip)
{
	int lastlive = -1;
	for (int i = 0; i < b->n; i++) {
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (!x->dead && x->root < 0)
			lastlive = i;
	}
	for (int i = 0; i < b->n; i++) {
		for (int k = 0; k < e->ndecl; k++) {
			const Decl *d = &e->decl[k];
			if (d->b != b || d->idx != i)
				continue;
			Type t = e->f->val[d->val].ty;
			indent(e, depth);
			/* a multi-result call assigns through pointers: no init */
			if (ty_is_tile(t)) {
				Buf tb = {0};
				tile_decl(e, &tb, d->val);
				fwrite(tb.p, 1, tb.n, e->out);
				buf_free(&tb);
			} else if (multi_results(e, &b->v[i], NULL) && first_occ(e, d->val) == &b->v[i])
				fprintf(e->out, "%s %s;", ctype(t), e->v[d->val].name);
			else if (is_handle(e, d->val))
				fprintf(e->out, "ks_trips %s = ks_tape_none();", e->v[d->val].name);
			else if (zero_of(e, t))
				fprintf(e->out, "%s %s = %s;", ctype(t), e->v[d->val].name, zero_of(e, t));
			else
				fprintf(e->out, "%s %s = ks_zero_%s();", ctype(t), e->v[d->val].name, ty_name(t));
			put_line_comment(e->out, d->line);
		}
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (x->dead || x->root >= 0 || i == skip)
			continue;
		emit_stmt(e, &b->v[i], depth, depth == 1 && b == &e->f->body && i == lastlive);
	}
}
