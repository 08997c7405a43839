/*
 * run_launch.c: launchers, the glue between krun and a kernel of any
 * signature.
 *
 * krun holds a kernel's arguments as an array of pointers (RunArgs.slot:
 * slot[i] points at parameter i's value, or at an array's buffer pointer).
 * A launcher, appended to the emitted code and compiled with it, unpacks
 * them and calls the entry with the types of the emitted ABI:
 *
 *     void ks_launch_saxpy_cpu_forward(int dim, void **a)
 *     {
 *         saxpy_cpu_forward(dim, *(float *)a[0], *(float **)a[1]);
 *     }
 *
 * The entry is a parameter so that a backward pass (its adjoint parameters
 * follow the forward ones) needs a signature, not new code.
 */
#include <string.h>

#include "emit/emit.h"
#include "run.h"

/* entry(dim, *(T0 *)a[0], *(T1 *)a[1], ...); */
static void call(Buf *b, const Func *f, const char *entry, const char *ind)
{
	buf_printf(b, "%s%s(dim", ind, entry);
	for (int i = 0; i < f->nparam; i++) {
		const char *ct = emit_param_ctype(f->val[f->param[i]].ty);
		size_t n = strlen(ct);
		/* "float *" -> "(float **)"; "float" -> "(float *)" */
		buf_printf(b, ",\n%s    *(%s%s*)a[%d]", ind, ct,
			   n && ct[n - 1] == '*' ? "" : " ", i);
	}
	buf_puts(b, ");\n");
}

void run_launcher_c(Buf *b, const Func *f, const char *entry)
{
	buf_printf(b, "\n/* krun: calls %s with its arguments from an array of pointers */\n",
		   entry);
	buf_printf(b, "void ks_launch_%s(int dim, void **a);\n", entry);
	buf_printf(b, "void ks_launch_%s(int dim, void **a)\n{\n", entry);
	call(b, f, entry, "\t");
	buf_puts(b, "}\n");
}

void run_launcher_sim(Buf *b, const Func *f, const char *entry)
{
	buf_printf(b, "\n/* krun: runs the grid of %s on the host, one (block, thread) after\n"
		      " * the other, through the shim's ks_sim_grid and ks_sim_thread */\n",
		   entry);
	buf_printf(b, "extern \"C\" void ks_launch_%s(int dim, void **a, int blocks, int threads)\n{\n",
		   entry);
	buf_puts(b, "\tks_sim_grid((unsigned)blocks, (unsigned)threads);\n"
		    "\tfor (int bi = 0; bi < blocks; bi++) {\n"
		    "\t\tfor (int ti = 0; ti < threads; ti++) {\n"
		    "\t\t\tks_sim_thread((unsigned)bi, (unsigned)ti);\n");
	call(b, f, entry, "\t\t\t");
	buf_puts(b, "\t\t}\n\t}\n}\n");
}
