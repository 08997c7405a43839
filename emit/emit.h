/*
 * emit.h: IR to C (kemit-cpu) and to CUDA C++ (kemit-cu).  The two targets
 * share one emitter; they differ only in the qualifiers of functions and in
 * the kernel entry (a loop over the threads on the CPU, a grid-stride loop
 * in a __global__ function in CUDA).  doc/emit.md describes the output.
 */
#ifndef KS_EMIT_H
#define KS_EMIT_H

#include <stdio.h>

#include "ir/ir.h"

/* EMIT_CPU_CHECKED (kemit-cpu --checked; krun's own cpu build) is C for
 * the CPU in which every array, a 1-D one too, is a view (ks_array_<elem>)
 * and every access goes through ksynth.h's ks_index<R>, which reports an
 * index out of bounds at the access's source position (KS_CHECKED). */
enum { EMIT_CPU, EMIT_CUDA, EMIT_CPU_CHECKED };

/* Write the whole module: a header comment, #include "ksynth.h", every
 * func and kernel (callees first) and one entry per kernel.  The output is
 * a function of the module alone (deterministic). */
void emit_module(FILE *out, const Module *m, int target);

/* The C type of a value of type t: "float", "ks_vec3d"; of an array, its
 * element's.  The string is static. */
const char *emit_ctype(Type t);

/* The C type of parameter i of f as the emitted code declares it:
 * "float", "ks_vec3d", "float *" (a 1-D array), "ks_array_float" (an
 * array passed as a view: of more dimensions, or whose shape f reads;
 * ir_param_view).  The string is static. */
const char *emit_param_ctype(const Module *m, const Func *f, int i);

/* The name of a kernel's entry, appended to *out: KERNEL_cpu_forward,
 * KERNEL_cuda_forward, KERNEL_cpu_backward or KERNEL_cuda_backward, for
 * target and backward, KERNEL spelled as C allows (doc/emit.md, Names).
 * The names emit_module gives its entries, and the ABI krun calls. */
void emit_entry_name(Buf *out, const Module *m, const char *kernel, int target, int backward);

/* Coverage (krun --coverage, kemit-cpu --coverage): with it on, the code
 * emitted next reports each way of each if (way 0 the then branch, 1 the
 * else; an elif chain is written as nested ifs), each run of the body of
 * each loop (way 0) and, in the entries, the start of each thread (site
 * -1, way 0) through KS_COVER(site, way), which it defines to call
 * ks_cover_hit when krun has set it.  Sites are numbered from 0 in the
 * order the code holds them; emit_coverage(1) restarts the numbering and
 * emit_cover_sites lists them (func: the IR function's name, valid while
 * the module is).  The cpu and sim devices only: the pointer lives on the
 * host. */
typedef struct EmitSite {
	const char *func;
	int line, col, loop;
} EmitSite;
void emit_coverage(int on);
const EmitSite *emit_cover_sites(int *n);

/* The threads of a block that the CUDA is written for where a kernel's
 * tiles hold an element of each thread (wp.tile(x)), as Warp builds a
 * module's code for its launch's block_dim: 64 unless set (krun
 * --block-dim, kemit-cu --block-dim=B).  The C is for blocks of one
 * thread, as Warp runs tiles on the CPU. */
void emit_block_dim(int threads);

/* The shared main() of kemit-cpu and kemit-cu. */
int emit_main(int argc, char **argv, const char *prog, int target);

#endif
