/*
 * run.h: the runtime stub's library (krun is its main()).
 *
 * Running a kernel has four steps, one file each:
 *   run_args.c    the arguments: seeded inputs (the law is in
 *                 doc/runtime.md), and the JSON record of a run
 *   run_launch.c  launchers: small C or C++ entries appended to the emitted
 *                 code that call one kernel with its arguments given as an
 *                 array of pointers, whatever its signature
 *   run_host.c    compiling code for the host (libtcc, cc, c++) and loading
 *                 it; temporary files; guarding a launch against crashes
 *                 and timeouts
 *   run_cuda.c    NVRTC and the CUDA driver, both loaded with dlopen
 * A kernel's signature always comes from the IR (Func), never from parsing
 * the emitted code.
 */
#ifndef KS_RUN_H
#define KS_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "../ir/ir.h"

enum { DEV_CPU, DEV_SIM, DEV_CUDA };
extern const char *const run_device_name[3];

/* --set NAME=VALUE */
typedef struct RunSet {
	const char *name, *val;
	int used;
} RunSet;

/* One kernel's arguments.  slot[i] points at parameter i's value: the
 * scalar, vector or matrix itself, or for an array the pointer to its
 * buffer, so that a launcher reads parameter i as *(T *)slot[i]. */
typedef union RunVal {
	int i;
	float f[16];
} RunVal;
typedef struct RunArgs {
	const Func *f;
	int n, dim;
	void **slot;
	void **buf;     /* arrays: host buffers (dim elements); else NULL */
	size_t *bytes;  /* arrays: buffer size in bytes */
	RunVal *val;    /* scalars, vectors, matrices */
} RunArgs;

/* Fill a's inputs from the law: seed, kernel name, parameter index. */
void run_args_init(RunArgs *a, const Func *f, int dim, uint64_t seed,
		   RunSet *set, int nset);
void run_args_copy(RunArgs *dst, const RunArgs *src);
void run_args_free(RunArgs *a);
/* The stream that parameter index of kernel draws from (doc/runtime.md). */
uint64_t run_stream(uint64_t seed, const char *kernel, int index);
/* The stream of the seed (adjoint on entry) of array parameter index:
 * the key "SEED/KERNEL/INDEX/adj" (doc/runtime.md). */
uint64_t run_stream_adj(uint64_t seed, const char *kernel, int index);
uint64_t run_next(uint64_t *state);
/* A float of the input law: uniform on the multiples of 2^-23 in [-1, 1). */
float run_draw_float(uint64_t *state);

/* ---- the backward pass (run_grad.c) ---------------------------------- */

/* One kernel's backward run.  The backward kernel b takes the forward
 * parameters, then one adjoint array per float-valued forward parameter
 * (float, vecN, matNN or an array of those), in order: for an array the
 * seed on entry and J^T seed on exit, for a scalar a 1-element array,
 * zeroed, that receives the gradient summed over the threads. */
typedef struct RunGrad {
	const Func *f, *b;
	int nadj;
	int *fwd;       /* adjoint k belongs to forward parameter fwd[k] */
	RunArgs args;   /* b's arguments */
	void **seed;    /* adjoint k's seed (arrays; NULL for scalars) */
	int tape;       /* b's tape parameter (its last), or -1 */
	long long need; /* the words per thread the backward asked for */
	long long words;/* the words per thread it got */
} RunGrad;

/* Is parameter i of f the array operand of an atomic_min or atomic_max
 * (in f or in a function it calls)?  Such arrays reach the backward in
 * their final state, every other array in its initial state. */
int run_minmax_target(const Module *m, const Func *f, int i);
/* Set up g's arguments from the forward run's inputs (in) and outputs
 * (out); exits with a message when b's signature is not f's backward. */
void run_grad_init(RunGrad *g, const Module *m, const Func *f, const Func *b,
		   const RunArgs *in, const RunArgs *out, uint64_t seed);
/* The tape (doc/autodiff.md): set b's tape argument for a measuring run
 * (run_tape_measure), then, from the words per thread that run asked for,
 * bounded by max_words per thread and max_total words in all, for the
 * real run (run_tape_alloc). */
void run_tape_measure(RunGrad *g);
void run_tape_alloc(RunGrad *g, long long max_words, long long max_total);
void run_grad_free(RunGrad *g);

/* --gradcheck: central differences of L(x) = sum over float arrays of
 * seed . final(x), the forward run in double precision, against the
 * backward's gradients. */
typedef struct RunCheck {
	double h, rtol, atol;   /* atol is scaled by max(1, max |fd|) */
	double worst_abs, worst_rel, worst_ratio; /* ratio: err / tolerance */
	char where[256];
	int ncomp, skipped, ok;
} RunCheck;
typedef void (*RunDblLaunch)(int dim, void **args);
void run_gradcheck(RunCheck *c, const RunGrad *g, const RunArgs *in,
		   RunDblLaunch forward);

/* The JSON record of a run: inputs from in, outputs from out, and with g
 * the seeds and gradients; extra (or NULL) is text put before the closing
 * brace (", \"gradcheck\": {...}").  Returns the number of non-finite
 * output and gradient values (printed as null). */
size_t run_json(Buf *b, const RunArgs *in, const RunArgs *out, const RunGrad *g,
		const char *extra, const char *device, uint64_t seed);

/* The C type a parameter has in emitted code: "float", "ks_vec3",
 * "ks_mat33 *", ... */
const char *run_ctype(Type t);
/* Launchers: the entry called is entry (e.g. saxpy_cpu_forward), the
 * launcher's name ks_launch_NAME (NAME: the kernel's, or KERNEL_backward).
 * CPU: void (int dim, void **args).  Sim: extern "C" void (int dim, void
 * **args, int blocks, int threads), running every (block, thread) of the
 * grid in order. */
void run_launcher_c(Buf *b, const Func *f, const char *entry, const char *name);
void run_launcher_sim(Buf *b, const Func *f, const char *entry, const char *name);
typedef void (*RunCpuLaunch)(int dim, void **args);
typedef void (*RunSimLaunch)(int dim, void **args, int blocks, int threads);

/* ---- host compilation (run_host.c) -------------------------------- */

enum { LANG_C, LANG_CXX };
typedef struct Host Host;
/* Compile code (C or the CUDA code as C++ with the sim shim) for the host
 * and load it; use_cc forces the system compiler for C even when libtcc is
 * there.  A compile error prints the compiler's output and exits 1. */
Host *host_compile(const char *what, const Buf *code, int lang, int use_cc,
		   const char *rtdir);
/* The same, but a compile error returns NULL and appends to *err what
 * host_compile would print ("krun: WHAT: the C code does not compile
 * (cc):", then the compiler's output). */
Host *host_try_compile(const char *what, const Buf *code, int lang, int use_cc,
		       const char *rtdir, Buf *err);
void *host_sym(Host *h, const char *name);
void host_free(Host *h);
/* "libtcc" or the system compiler's name */
const char *host_c_compiler(int use_cc);
/* Was krun built with libtcc? */
int host_have_libtcc(void);

/* A private temporary folder under $TMPDIR, removed at exit (or on a
 * fatal signal); run_tmpfile adds a file name in it to the cleanup (a
 * malloc'ed path), run_tmpdone removes the file, frees the path, and
 * removes the folder with its last file. */
const char *run_tmpdir(void);
char *run_tmpfile(const char *name);
void run_tmpdone(char *path);
/* Any path (a file being written beside its final name) added to the
 * cleanup; run_tmpkeep takes it off again (the file stays) and frees it. */
char *run_tmppath(const char *path);
void run_tmpkeep(char *path);
/* The child process running now (0: none): stopped and waited for before
 * the temporary folder is removed on a fatal signal. */
void run_child(int pid);
/* Run argv, output (stdout and stderr) into *log; returns the exit
 * status, or -1 if it could not start or died from a signal. */
int run_cmd(char *const argv[], Buf *log);

/* While guarded, a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or running
 * past timeout seconds (0: no limit) ends krun with status 1 and a
 * message naming what: "KERNEL crashed (signal N)". */
void run_guard(const char *what, unsigned timeout);
void run_unguard(void);

/* The folder that holds ksynth.h: $KSYNTH_RUNTIME, then beside the
 * executable (../include/ksynth, or runtime/ in an ancestor folder), then
 * the source tree it was built from.  NULL if none. */
const char *run_runtime_dir(void);

/* ---- CUDA (run_cuda.c) -------------------------------------------- */

/* Exit status when CUDA (driver, device or NVRTC) is unavailable. */
#define RUN_SKIP 77

typedef struct Cuda Cuda;
/* Load the driver, pick device 0 and make its primary context current.
 * Unavailable: prints "krun: REASON" and exits 77. */
Cuda *cuda_open(void);
/* "sm_90" for device 0 */
const char *cuda_arch(Cuda *c);
/* Compile .cu text to a cubin with NVRTC for arch ("sm_90").  NVRTC
 * missing: exit 77.  A compile error prints the log and exits 1; a
 * non-empty log (warnings) is printed to stderr. */
void cuda_compile(const char *what, const Buf *code, const char *arch,
		  const char *rtdir, Buf *cubin);
/* Load a cubin; then launch NAME with the arguments (copied to and from
 * the device around the launch). */
void cuda_load(Cuda *c, const Buf *cubin);
void cuda_launch(Cuda *c, const char *entry, RunArgs *a, int blocks,
		 int threads);
void cuda_close(Cuda *c);

#endif
