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
 *                 it; temporary files
 *   run_confine.c the confined child that executes it; guarding a launch
 *                 against crashes, timeouts and forbidden system calls
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

/* --shape NAME=AxB...: the extents of every array parameter NAME */
typedef struct RunShape {
	const char *name;
	int rank, ext[KS_MAX_NDIM];
} RunShape;

/* --law NAME=spd: every array parameter NAME drawn, then made symmetric
 * positive definite (doc/runtime.md) */
typedef struct RunSpd {
	const char *name;
} RunSpd;

/* What a kernel's inputs depend on besides the kernel: the launch (rank
 * and dimensions; a kernel on tiles: the grid of its blocks), the seed
 * and the --set, --shape and --law options. */
typedef struct RunLaw {
	int rank, dim[KS_MAX_NDIM];
	int tiled;   /* a kernel on tiles: arrays of RUN_TILE_SCALE x the grid */
	int untiled; /* a kernel on tiles launched over threads (krun --untiled) */
	uint64_t seed;
	RunSet *set;
	int nset;
	RunShape *shape;
	int nshape;
	RunSpd *spd;
	int nspd;
} RunLaw;

/* The smallest launch dimension: the range of the law's ints. */
int run_law_n(const RunLaw *law);
/* A kernel on tiles reads a tile of its arrays per block: an array's
 * default extent is this many times the grid's. */
#define RUN_TILE_SCALE 16
/* The extents of array type t under the law: the launch's for the axes
 * it has, its last for the others (for a kernel on tiles, RUN_TILE_SCALE
 * times the grid's), unless a --shape names the array. */
void run_law_shape(const RunLaw *law, const char *name, Type t, int ext[KS_MAX_NDIM]);

/* One kernel's arguments.  slot[i] points at parameter i's value: the
 * scalar or composite itself, or for an array the pointer to its buffer,
 * so that a launcher reads parameter i as *(T *)slot[i] and an array's
 * extents as shape[i].  A value is held as the emitted code holds it
 * (a float16 as its 16 bits, a bool as a byte), except with dbl set, for
 * the double-precision build: there every float component of any width
 * is a double. */
typedef union RunVal {
	double d[36]; /* the largest value: spatial_matrixd */
	int64_t i[36];
} RunVal;
typedef struct RunArgs {
	const Func *f;
	int n, dbl;
	int rank, dim[KS_MAX_NDIM]; /* the launch; a kernel on tiles: its grid */
	int tiled;                  /* on tiles: the indices its wp.tid() gives; else 0 */
	int untiled;                /* on tiles, launched over threads (dim): a block is
	                             * block threads in a row; tiled is 0 */
	int block;                  /* on tiles: the threads of a block (block_dim) */
	void **slot;
	void **buf;                /* arrays: host buffers; else NULL */
	size_t *bytes;             /* arrays: buffer size in bytes */
	size_t *count;             /* arrays: elements */
	int (*shape)[KS_MAX_NDIM]; /* arrays: extents, 0 past the rank */
	RunVal *val;               /* scalars and composites */
} RunArgs;

/* a's extents as the launchers take them */
static inline const int (*run_shapes(const RunArgs *a))[KS_MAX_NDIM] { return (const int(*)[KS_MAX_NDIM])a->shape; }

/* Room for f's arguments, zeroed, every slot pointing at its val (the
 * caller points an array's at its buf). */
void run_args_alloc(RunArgs *a, const Func *f);
/* Fill a's inputs from the law: seed, kernel name, parameter index. */
void run_args_init(RunArgs *a, const Func *f, RunLaw *law);
void run_args_copy(RunArgs *dst, const RunArgs *src);
/* dst: src with every float component as a double (dst->dbl set). */
void run_args_double(RunArgs *dst, const RunArgs *src);
void run_args_free(RunArgs *a);
/* The bytes of one value of type t (not an array) as the code holds it:
 * in the double build (dbl) a float component takes 8. */
size_t run_size(Type t, int dbl);
/* The byte offset of field k of struct t as C lays it out (dbl: in the
 * double build, every float a double). */
size_t run_field_offset(Type t, int k, int dbl);
/* The float components of one element of type e (a struct's are those
 * of its float fields, nested ones included, in order; its ints, bools
 * and arrays have none), and component c of an array of e at p (in the
 * double build's layout with dbl): its address, *sc its scalar type,
 * *field the struct field it is in (NULL for no struct). */
int run_ncomp(Type e);
void *run_comp(Type e, int dbl, void *p, size_t c, Type *sc, const char **field);
/* Does struct t hold an array (in a nested struct too)? */
int run_struct_holds_array(Type t);
/* Component k of a value of scalar type s at p (held as above), as a
 * double; and the other way. */
double run_get(Type s, int dbl, const void *p, size_t k);
void run_put(Type s, int dbl, void *p, size_t k, double v);
/* The number of threads of a's launch (on tiles: the grid's blocks
 * times the block's threads). */
long run_threads(const RunArgs *a);
/* The dimensions a's kernel entry takes (doc/emit.md) into dim: the
 * launch's; on tiles, with block threads to a block (1 on the cpu), the
 * first `tiled` of the full launch [grid..., block], then the product of
 * the rest; launched over threads (untiled), the launch's and 1.  Returns
 * how many. */
int run_entry_dims(const RunArgs *a, int block, int dim[KS_MAX_NDIM + 1]);
/* The stream that parameter index of kernel draws from (doc/runtime.md). */
uint64_t run_stream(uint64_t seed, const char *kernel, int index);
/* The stream of the seed (adjoint on entry) of array parameter index:
 * the key "SEED/KERNEL/INDEX/adj" (doc/runtime.md). */
uint64_t run_stream_adj(uint64_t seed, const char *kernel, int index);
uint64_t run_next(uint64_t *state);
/* A float of the input law: uniform on the multiples of 2^-23 in [-1, 1). */
float run_draw_float(uint64_t *state);
/* count values of type t at p (held as the code holds them), drawn from
 * *state by the law with n its int range; an int scalar is n (capped). */
void run_draw(Type t, void *p, size_t count, uint64_t *state, int n, int scalar);

/* ---- --sentinel (run_fill.c) ------------------------------------- */

/* The value every component of an output left unwritten shows. */
#define RUN_SENTINEL (-1536.0)
/* Fill each array of a that f stores to and never reads (every float,
 * and every int of 16 bits or more, component) with RUN_SENTINEL, in
 * place of the law's values; none for a kernel with a struct parameter.
 * Returns how many arrays it filled. */
int run_sentinel_fill(const Func *f, RunArgs *a);

/* ---- the backward pass (run_grad.c) ---------------------------------- */

/* One kernel's backward run.  The backward kernel b takes the forward
 * parameters, then one adjoint array per float-valued forward parameter
 * (a float of any width, a composite of floats or an array of those), of
 * type ir_adjoint_type, in order: for an array the seed on entry and J^T
 * seed on exit, for a scalar a 1-element array, zeroed, that receives
 * the gradient summed over the threads. */
typedef struct RunGrad {
	const Func *f, *b;
	int nadj;
	int *fwd;        /* adjoint k belongs to forward parameter fwd[k] */
	RunArgs args;    /* b's arguments */
	void **seed;     /* adjoint k's seed (arrays; NULL for scalars) */
	int tape;        /* b's tape parameter (its last), or -1 */
	long long need;  /* the words per thread the backward asked for */
	long long words; /* the words per thread it got */
} RunGrad;

/* Is parameter i of f the array operand of an atomic_min or atomic_max
 * (in f or in a function it calls)?  Such arrays reach the backward in
 * their final state, every other array in its initial state. */
int run_minmax_target(const Module *m, const Func *f, int i);
/* Set up g's arguments from the forward run's inputs (in) and outputs
 * (out); exits with a message when b's signature is not f's backward. */
void run_grad_init(RunGrad *g, const Module *m, const Func *f, const Func *b, const RunArgs *in, const RunArgs *out,
		   uint64_t seed);
/* The tape (doc/autodiff.md): set b's tape argument for a measuring run
 * (run_tape_measure), then, from the words per thread that run asked for,
 * bounded by max_words per thread and max_total words in all, for the
 * real run (run_tape_alloc). */
void run_tape_measure(RunGrad *g);
void run_tape_alloc(RunGrad *g, long long max_words, long long max_total);
void run_grad_free(RunGrad *g);

/* A launcher of the cpu device (and of the double-precision build): the
 * launch's dimensions, the arguments (RunArgs.slot) and the arrays'
 * extents (RunArgs.shape). */
typedef void (*RunCpuLaunch)(const int *dim, void **args, const int (*shape)[KS_MAX_NDIM]);
/* sim's: the same, then the grid (blocks of threads) it runs in order */
typedef void (*RunSimLaunch)(const int *dim, void **args, const int (*shape)[KS_MAX_NDIM], int blocks, int threads);

/* --gradcheck: central differences of L(x) = sum over float arrays of
 * seed . final(x), the forward run in double precision, against the
 * backward's gradients.  rtol and atol are the caller's (run_tolerance):
 * atol is scaled by max(1, max |fd|). */
typedef struct RunCheck {
	double h, rtol, atol;
	double worst_abs, worst_rel, worst_ratio; /* ratio: err / tolerance */
	char where[256];
	int ncomp, skipped, ok;
} RunCheck;
/* Does kernel f compute in float16 (a value of it, or of a function it
 * calls, has float16 components)?  Its backward then runs in half
 * precision and is checked against the float16 tolerance. */
int run_uses_half(const Module *m, const Func *f);
/* The tolerance for f: float32's, or float16's (doc/runtime.md). */
void run_tolerance(RunCheck *c, const Module *m, const Func *f);
void run_gradcheck(RunCheck *c, const RunGrad *g, const RunArgs *in, RunCpuLaunch forward);

/* The launch's dimensions as a record gives them: 16, or [16, 8]. */
void run_json_dim(Buf *b, const RunArgs *a);
/* The JSON record of a run: inputs from in, outputs from out, and with g
 * the seeds and gradients; extra (or NULL) is text put before the closing
 * brace (", \"gradcheck\": {...}").  Returns the number of non-finite
 * output and gradient values (printed as null). */
size_t run_json(Buf *b, const RunArgs *in, const RunArgs *out, const RunGrad *g, const char *extra,
		const char *device, uint64_t seed);

/* Launchers: the entry called is entry (e.g. saxpy_cpu_forward, as
 * emit_entry_name gives it), the launcher's name ks_launch_ENTRY, of type
 * RunCpuLaunch (C) or RunSimLaunch (extern "C", C++), running every
 * (block, thread) of the grid in order.  With views set, every array is
 * passed as a view, a 1-D one too (the checked ABI, emit.h). */
/* A kernel with struct parameters as krun sees it: each struct's fields
 * (nested ones too) are parameters of their own, named p.dt, p.inner.v,
 * in order (the launcher builds the structs from them); f itself when it
 * has no struct parameter.  run_flat_free frees what run_flat made. */
const Func *run_flat(const Func *f);
void run_flat_free(const Func *flat, const Func *f);
/* The number of f's parameters as krun sees them. */
int run_flat_count(const Func *f);

void run_launcher_c(Buf *b, const Module *m, const Func *f, const char *entry, int views);
/* coop: the code has shared memory or barriers (run_sim_prepare), and
 * each block's threads run as cooperating fibers (ksynth_sim_block.h). */
void run_launcher_sim(Buf *b, const Module *m, const Func *f, const char *entry, int coop);

/* ---- sim's cooperating blocks (run_sim.c) -------------------------- */

/* Make the CUDA code from offset from on ready for sim: each shared
 * array's declaration becomes a checked one.  Does the code declare
 * shared memory or call __syncthreads()? */
int run_sim_prepare(Buf *code, size_t from);

/* ---- host compilation (run_host.c) -------------------------------- */

enum { LANG_C, LANG_CXX };
typedef struct Host Host;
/* Compile code (C or the CUDA code as C++ with the sim shim) for the host;
 * nothing of it runs until host_load loads it; use_cc forces the system compiler for C even when libtcc is
 * there.  A compile error prints the compiler's output and exits 1. */
Host *host_compile(const char *what, const Buf *code, int lang, int use_cc, const char *rtdir);
/* The same, but a compile error returns NULL and appends to *err what
 * host_compile would print ("krun: WHAT: the C code does not compile
 * (cc):", then the compiler's output). */
Host *host_try_compile(const char *what, const Buf *code, int lang, int use_cc, const char *rtdir, Buf *err);
/* Load compiled code (dlopen, which runs a shared object's constructors):
 * only in a confined child (run_confine).  NULL, or code libtcc compiled
 * (in memory already, nothing run), is left as it is. */
void host_load(Host *h);
void *host_sym(Host *h, const char *name);
void host_free(Host *h);
/* "libtcc" or the system C compiler's name ($KSYNTH_CC, cc); the C++
 * compiler's for sim ($KSYNTH_CXX, c++) */
const char *host_c_compiler(int use_cc);
const char *host_cxx_compiler(void);
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
/* The child process running now (0: none): stopped (SIGTERM; with
 * run_child_kill, sig) and waited for before the temporary folder is
 * removed on a fatal signal.  run_cleanup does both now. */
void run_child(int pid);
void run_child_kill(int pid, int sig);
void run_cleanup(void);
/* Run argv, output (stdout and stderr) into *log; returns the exit
 * status, or -1 if it could not start or died from a signal. */
int run_cmd(char *const argv[], Buf *log);
/* The same with its stdout to the file OUT and only its stderr to *log. */
int run_cmd_out(char *const argv[], const char *out, Buf *log);

/* ---- executing code: confined, guarded (run_confine.c) --------------- */

/* The most a confined child's output files may grow: its records. */
#define RUN_FILE_MB 4096
/* A confined child's bounds: CPU seconds (0: none), the wall-clock
 * seconds its own alarm gives it and after which (and 2 s more) the parent
 * kills it (0: none; the parent's deadline, when one is armed, still
 * holds), and the address space it may add to what it has at the fork. */
typedef struct RunLimits {
	unsigned cpu_s, wall_s;
	size_t mem_mb;
} RunLimits;
/* Fork the child that will be confined, SIGCHLD blocked in the parent
 * until run_confined_wait; 0 in the child, its pid in the parent. */
int run_confined_fork(void);
/* In the child: bounds, stdin from /dev/null, and the seccomp filter that
 * still allows opening files for reading, so that code can be loaded;
 * what a trapped call is charged to is code until run_guard names a
 * kernel.  Then host_load, then run_seal: no file opened any more. */
void run_confine(const char *code, const RunLimits *lim);
void run_seal(void);
/* In the parent: wait for the child; its exit status, or -1 when it made
 * a forbidden system call, ran out of time or file size, or was killed,
 * the one-line reason appended to *err (NULL: printed on stderr). */
int run_confined_wait(int pid, const RunLimits *lim, Buf *err);
/* fn(arg) in a confined child (code: what it is charged to while it
 * loads); its exit status, 1 when it failed as run_confined_wait says. */
int run_confined(const char *code, int (*fn)(void *), void *arg, const RunLimits *lim);

/* The deadline: SIGALRM after timeout seconds (0: none; run_deadline(0)
 * disarms it), whenever it comes, ends krun with status 1, the child
 * process stopped and the temporary files removed, and the message
 * "krun: WHAT did not finish within N s (--timeout)", WHAT being the
 * phase run_phase named last (printf-style). */
void run_deadline(unsigned timeout);
void run_phase(const char *fmt, ...) KS_PRINTF(1, 2);
/* While guarded, a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) ends krun with
 * status 1 and the message "krun: WHAT crashed (a fatal signal)"; WHAT is
 * also the phase. */
void run_guard(const char *what);
void run_unguard(void);

/* The folder that holds ksynth.h: $KSYNTH_RUNTIME, then beside the
 * executable (../include/ksynth, or runtime/ in an ancestor folder), then
 * the source tree it was built from.  NULL if none. */
const char *run_runtime_dir(void);
/* the folder of the running executable into DIR (CAP bytes); 0 when
 * /proc/self/exe cannot be read */
int run_exe_dir(char *dir, size_t cap);

/* ---- CUDA (run_cuda.c) -------------------------------------------- */

/* Exit status when CUDA (driver, device or NVRTC) is unavailable. */
#define RUN_SKIP 77

typedef struct Cuda Cuda;
/* Load the driver, pick device 0 and make its primary context current.
 * Unavailable: prints "krun: REASON" and exits 77. */
Cuda *cuda_open(void);
/* "sm_90" for device 0 */
const char *cuda_arch(Cuda *c);
/* The NVRTC that cuda_compile uses, found and loaded on the first call
 * (the search order is in run_cuda.c): "NVRTC 13.0: PATH (driver: CUDA
 * 13.0)", or "(driver: none)" where no driver can be loaded.  NULL when
 * there is none, with the reason in *why. */
const char *cuda_nvrtc(const char **why);
/* krun --verbose: cuda_compile says on stderr which NVRTC it uses. */
extern int run_verbose;
/* Compile .cu text to a cubin with NVRTC for arch ("sm_90").  NVRTC
 * missing: exit 77.  A compile error prints the log and exits 1; a
 * non-empty log (warnings) is printed to stderr. */
void cuda_compile(const char *what, const Buf *code, const char *arch, const char *rtdir, Buf *cubin);
/* Load a cubin; then launch NAME with the arguments (copied to and from
 * the device around the launch).  With reps > 0 (krun --bench), the
 * kernel is then launched reps more times back to back on the device's
 * arrays, between two CUDA events; returns the milliseconds per launch
 * (0 without reps).  The arguments copied back are the first launch's. */
void cuda_load(Cuda *c, const Buf *cubin);
/* kf is the kernel launched, a its arguments as krun sees them (run_flat:
 * a struct parameter is made on the host from its fields'). */
double cuda_launch(Cuda *c, const char *entry, const Func *kf, RunArgs *a, int blocks, int threads, int reps);
void cuda_close(Cuda *c);

#endif
