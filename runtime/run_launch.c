/*
 * run_launch.c: launchers, the glue between krun and a kernel of any
 * signature.
 *
 * krun holds a kernel's arguments as an array of pointers (RunArgs.slot:
 * slot[i] points at parameter i's value, or at an array's buffer pointer)
 * and the arrays' extents (RunArgs.shape).  A launcher, appended to the
 * emitted code and compiled with it, unpacks them and calls the entry with
 * the entry's dimensions (run_entry_dims: the launch's, and for a kernel
 * on tiles its block's threads) and the types of the emitted ABI: a 1-D array
 * as a pointer, an array of more dimensions as a view, built here from its
 * buffer and its extents and passed by value:
 *
 *     void ks_launch_blur_cpu_forward(const int *dim, void **a, const int (*shape)[4])
 *     {
 *         ks_array_float img = {*(float **)a[1], {shape[1][0], shape[1][1], ...}};
 *         blur_cpu_forward(dim[0], dim[1], *(float *)a[0], img);
 *     }
 *
 * The entry is a parameter so that a backward pass (its adjoint parameters
 * follow the forward ones) needs a signature, not new code.
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "run.h"

int run_flat_count(const Func *f)
{
	int n = 0;
	for (int i = 0; i < f->nparam; i++)
		n += ty_nleaves(f->val[f->param[i]].ty);
	return n;
}

static void flat_add(Func *g, const char *name, Type t)
{
	if (ty_is_struct(t)) {
		for (int k = 0; k < ty_nfield(t); k++) {
			size_t n = strlen(name) + strlen(ty_field(t, k)->name) + 2;
			char *s = xmalloc(n);
			snprintf(s, n, "%s.%s", name, ty_field(t, k)->name);
			flat_add(g, s, ty_field(t, k)->ty);
			free(s);
		}
		return;
	}
	Value *v = &g->val[g->nval];
	memset(v, 0, sizeof *v);
	v->name = xstrdup(name);
	v->ty = t;
	v->kind = VK_PARAM;
	v->view = 2; /* a struct's array is a view */
	g->param[g->nparam++] = g->nval++;
}

const Func *run_flat(const Func *f)
{
	int has = 0;
	for (int i = 0; i < f->nparam; i++)
		has |= ty_is_struct(f->val[f->param[i]].ty);
	if (!has)
		return f;
	int n = run_flat_count(f);
	Func *g = xmalloc(sizeof *g);
	*g = *f;
	g->val = xmalloc((size_t)(f->nval + n) * sizeof *g->val);
	memcpy(g->val, f->val, (size_t)f->nval * sizeof *g->val);
	g->param = xmalloc((size_t)n * sizeof *g->param);
	g->nparam = 0;
	g->capval = g->nval + n;
	for (int i = 0; i < f->nparam; i++) {
		int id = f->param[i];
		if (ty_is_struct(f->val[id].ty)) {
			flat_add(g, f->val[id].name, f->val[id].ty);
		} else {
			g->param[g->nparam++] = id;
		}
	}
	return g;
}

void run_flat_free(const Func *flat, const Func *f)
{
	if (flat == f)
		return;
	Func *g = (Func *)flat;
	for (int i = f->nval; i < g->nval; i++)
		free((char *)g->val[i].name);
	free(g->val);
	free(g->param);
	free(g);
}

/* Is parameter i of f passed as a view (with views, every array is)? */
static int is_view(const Module *m, const Func *f, int i, int views)
{
	return ty_is_array(f->val[f->param[i]].ty) && (views || ir_param_view(m, f, i));
}

/* A struct of type t from the leaves from *li on: "{*(float *)a[2],
 * {*(float **)a[3], {shape[3][0], ...}}}" */
static void struct_init(Buf *b, Type t, int *li)
{
	if (!ty_nfield(t)) {
		buf_puts(b, "{0}");
		return;
	}
	buf_putc(b, '{');
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		int i = *li;
		if (k)
			buf_puts(b, ", ");
		if (ty_is_struct(ft)) {
			struct_init(b, ft, li);
			continue;
		}
		if (ty_is_array(ft))
			buf_printf(b,
				   "{*(%s **)a[%d], {shape[%d][0], shape[%d][1], shape[%d][2], "
				   "shape[%d][3]}}",
				   emit_ctype(ft), i, i, i, i, i);
		else
			buf_printf(b, "*(%s *)a[%d]", emit_ctype(ft), i);
		(*li)++;
	}
	buf_putc(b, '}');
}

/* "ks_array_float view1 = {*(float **)a[1], {shape[1][0], ...}};" for
 * every array passed as a view, "Params s0 = {...};" for every struct;
 * "(void)shape;" when no array is */
static void views_of(Buf *b, const Module *m, const Func *f, int views, const char *ind)
{
	int n = 0, li = 0;
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_struct(t)) {
			buf_printf(b, "%s%s s%d = ", ind, ty_name(t), i);
			struct_init(b, t, &li);
			buf_puts(b, ";\n");
			n += run_struct_holds_array(t);
			continue;
		}
		if (!is_view(m, f, i, views)) {
			li++;
			continue;
		}
		buf_printf(b,
			   "%sks_array_%s view%d = {*(%s **)a[%d], {shape[%d][0], shape[%d][1], "
			   "shape[%d][2], shape[%d][3]}};\n",
			   ind, ty_name(ty_elem(t)), i, emit_ctype(t), li, li, li, li, li);
		li++;
		n++;
	}
	if (!n)
		buf_printf(b, "%s(void)shape;\n", ind);
}

/* entry(dim[0], ..., *(T0 *)a[0], view1, s2, ...); as many dimensions as
 * the launch has, and one more for a kernel on tiles (its block's threads
 * past the indices it reads, run_entry_dims) */
static void call(Buf *b, const Module *m, const Func *f, const char *entry, int views, const char *ind)
{
	int rank = ir_kernel_rank(f) + ir_func_tiled(f), li = 0;
	buf_printf(b, "%s%s(", ind, entry);
	for (int k = 0; k < rank; k++)
		buf_printf(b, "%sdim[%d]", k ? ", " : "", k);
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_struct(t)) {
			buf_printf(b, ",\n%s    s%d", ind, i);
			li += ty_nleaves(t);
			continue;
		}
		if (is_view(m, f, i, views)) {
			buf_printf(b, ",\n%s    view%d", ind, i);
			li++;
			continue;
		}
		const char *ct = emit_param_ctype(m, f, i);
		size_t n = strlen(ct);
		/* "float *" -> "(float **)"; "float" -> "(float *)" */
		buf_printf(b, ",\n%s    *(%s%s*)a[%d]", ind, ct, n && ct[n - 1] == '*' ? "" : " ", li++);
	}
	buf_puts(b, ");\n");
}

void run_launcher_c(Buf *b, const Module *m, const Func *f, const char *entry, int views)
{
	buf_printf(b, "\n/* krun: calls %s with its arguments from an array of pointers */\n", entry);
	buf_printf(b, "void ks_launch_%s(const int *dim, void **a, const int (*shape)[4]);\n", entry);
	buf_printf(b, "void ks_launch_%s(const int *dim, void **a, const int (*shape)[4])\n{\n", entry);
	views_of(b, m, f, views, "\t");
	call(b, m, f, entry, views, "\t");
	buf_puts(b, "}\n");
}

void run_launcher_sim(Buf *b, const Module *m, const Func *f, const char *entry, int coop)
{
	buf_printf(b,
		   "\n/* krun: runs the grid of %s on the host, %s,\n"
		   " * through the shim's ks_sim_grid and ks_sim_run */\n",
		   entry,
		   coop ? "each block's threads as cooperating fibers" : "one (block, thread) after the other");
	buf_printf(b,
		   "extern \"C\" void ks_launch_%s(const int *dim, void **a, const int (*shape)[4], "
		   "int blocks, int threads)\n{\n",
		   entry);
	views_of(b, m, f, 0, "\t");
	buf_printf(b,
		   "\tks_sim_grid((unsigned)blocks, (unsigned)threads);\n"
		   "\tks_sim_run((unsigned)blocks, (unsigned)threads, %d, [&] {\n",
		   coop);
	call(b, m, f, entry, 0, "\t\t");
	buf_puts(b, "\t});\n}\n");
}
