/*
 * run_launch.c: launchers, the glue between krun and a kernel of any
 * signature.
 *
 * krun holds a kernel's arguments as an array of pointers (RunArgs.slot:
 * slot[i] points at parameter i's value, or at an array's buffer pointer)
 * and the arrays' extents (RunArgs.shape).  A launcher, appended to the
 * emitted code and compiled with it, unpacks them and calls the entry with
 * the launch's dimensions and the types of the emitted ABI: a 1-D array
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
#include <string.h>

#include "emit/emit.h"
#include "run.h"

/* Is parameter i of f passed as a view (with views, every array is)? */
static int is_view(const Module *m, const Func *f, int i, int views)
{
	return ty_is_array(f->val[f->param[i]].ty) && (views || ir_param_view(m, f, i));
}

/* "ks_array_float view1 = {*(float **)a[1], {shape[1][0], ...}};" for
 * every array passed as a view; "(void)shape;" when there is none */
static void views_of(Buf *b, const Module *m, const Func *f, int views, const char *ind)
{
	int n = 0;
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (!is_view(m, f, i, views))
			continue;
		buf_printf(b, "%sks_array_%s view%d = {*(%s **)a[%d], {shape[%d][0], shape[%d][1], "
			      "shape[%d][2], shape[%d][3]}};\n",
			   ind, ty_name(ty_elem(t)), i, emit_ctype(t), i, i, i, i, i);
		n++;
	}
	if (!n)
		buf_printf(b, "%s(void)shape;\n", ind);
}

/* entry(dim[0], ..., *(T0 *)a[0], view1, ...); */
static void call(Buf *b, const Module *m, const Func *f, const char *entry, int views,
		 const char *ind)
{
	int rank = ir_kernel_rank(f);
	buf_printf(b, "%s%s(", ind, entry);
	for (int k = 0; k < rank; k++)
		buf_printf(b, "%sdim[%d]", k ? ", " : "", k);
	for (int i = 0; i < f->nparam; i++) {
		if (is_view(m, f, i, views)) {
			buf_printf(b, ",\n%s    view%d", ind, i);
			continue;
		}
		const char *ct = emit_param_ctype(m, f, i);
		size_t n = strlen(ct);
		/* "float *" -> "(float **)"; "float" -> "(float *)" */
		buf_printf(b, ",\n%s    *(%s%s*)a[%d]", ind, ct, n && ct[n - 1] == '*' ? "" : " ", i);
	}
	buf_puts(b, ");\n");
}

void run_launcher_c(Buf *b, const Module *m, const Func *f, const char *entry, int views)
{
	buf_printf(b, "\n/* krun: calls %s with its arguments from an array of pointers */\n",
		   entry);
	buf_printf(b, "void ks_launch_%s(const int *dim, void **a, const int (*shape)[4]);\n", entry);
	buf_printf(b, "void ks_launch_%s(const int *dim, void **a, const int (*shape)[4])\n{\n", entry);
	views_of(b, m, f, views, "\t");
	call(b, m, f, entry, views, "\t");
	buf_puts(b, "}\n");
}

void run_launcher_sim(Buf *b, const Module *m, const Func *f, const char *entry)
{
	buf_printf(b, "\n/* krun: runs the grid of %s on the host, one (block, thread) after\n"
		      " * the other, through the shim's ks_sim_grid and ks_sim_thread */\n",
		   entry);
	buf_printf(b, "extern \"C\" void ks_launch_%s(const int *dim, void **a, const int (*shape)[4], "
		      "int blocks, int threads)\n{\n",
		   entry);
	views_of(b, m, f, 0, "\t");
	buf_puts(b, "\tks_sim_grid((unsigned)blocks, (unsigned)threads);\n"
		    "\tfor (int bi = 0; bi < blocks; bi++) {\n"
		    "\t\tfor (int ti = 0; ti < threads; ti++) {\n"
		    "\t\t\tks_sim_thread((unsigned)bi, (unsigned)ti);\n");
	call(b, m, f, entry, 0, "\t\t\t");
	buf_puts(b, "\t\t}\n\t}\n}\n");
}
