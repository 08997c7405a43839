/*
 * run_cuda.c: the cuda device — NVRTC compiles the emitted CUDA to a cubin
 * for the device's architecture, the driver API loads and launches it.
 *
 * Neither is linked: ksynth builds with no CUDA toolkit, so both libraries
 * are opened with dlopen and the few types, constants and entry points we
 * use are declared here (their values are the CUDA ABI, stable across
 * releases).  Where NVRTC is looked for, and which one is taken, is
 * explained at cuda_nvrtc below; the driver is libcuda.so.1.  When either,
 * or a device, is missing krun exits 77 with the reason, the conventional
 * "skipped" status.
 */
#include <dlfcn.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"

/* ---- the declarations we need (cuda.h, nvrtc.h) --------------------- */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
enum {
	CUDA_SUCCESS = 0,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

/* X(return type, name, symbol, parameters) */
/* clang-format off */
#define CU_FUNCS(X)                                                                  \
	X(CUresult, cuInit, "cuInit", (unsigned))                                    \
	X(CUresult, cuDeviceGetCount, "cuDeviceGetCount", (int *))                   \
	X(CUresult, cuDeviceGet, "cuDeviceGet", (CUdevice *, int))                   \
	X(CUresult, cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, CUdevice)) \
	X(CUresult, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *, CUdevice)) \
	X(CUresult, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice)) \
	X(CUresult, cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext))                 \
	X(CUresult, cuCtxSynchronize, "cuCtxSynchronize", (void))                    \
	X(CUresult, cuModuleLoadData, "cuModuleLoadData", (CUmodule *, const void *)) \
	X(CUresult, cuModuleUnload, "cuModuleUnload", (CUmodule))                    \
	X(CUresult, cuModuleGetFunction, "cuModuleGetFunction", (CUfunction *, CUmodule, const char *)) \
	X(CUresult, cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))            \
	X(CUresult, cuMemFree, "cuMemFree_v2", (CUdeviceptr))                        \
	X(CUresult, cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr, const void *, size_t)) \
	X(CUresult, cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *, CUdeviceptr, size_t))  \
	X(CUresult, cuLaunchKernel, "cuLaunchKernel",                                \
	  (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,  \
	   unsigned, CUstream, void **, void **))                                    \
	X(CUresult, cuGetErrorString, "cuGetErrorString", (CUresult, const char **))

/* Timing (krun --bench), looked up when first asked for, so that a driver
 * without them still runs kernels.  cuEventElapsedTime is the _v2 symbol
 * since CUDA 12.8 (cuda.h maps the name to it); older drivers have the
 * plain one only: cu_timing tries both. */
#define CU_TIMING_FUNCS(X)                                                           \
	X(CUresult, cuEventCreate, "cuEventCreate", (CUevent *, unsigned))           \
	X(CUresult, cuEventRecord, "cuEventRecord", (CUevent, CUstream))             \
	X(CUresult, cuEventSynchronize, "cuEventSynchronize", (CUevent))             \
	X(CUresult, cuEventDestroy, "cuEventDestroy_v2", (CUevent))

#define NVRTC_FUNCS(X)                                                               \
	X(nvrtcResult, nvrtcVersion, "nvrtcVersion", (int *, int *))                 \
	X(const char *, nvrtcGetErrorString, "nvrtcGetErrorString", (nvrtcResult))   \
	X(nvrtcResult, nvrtcCreateProgram, "nvrtcCreateProgram",                     \
	  (nvrtcProgram *, const char *, const char *, int, const char *const *,    \
	   const char *const *))                                                     \
	X(nvrtcResult, nvrtcCompileProgram, "nvrtcCompileProgram",                   \
	  (nvrtcProgram, int, const char *const *))                                  \
	X(nvrtcResult, nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", (nvrtcProgram, size_t *)) \
	X(nvrtcResult, nvrtcGetProgramLog, "nvrtcGetProgramLog", (nvrtcProgram, char *)) \
	X(nvrtcResult, nvrtcGetCUBINSize, "nvrtcGetCUBINSize", (nvrtcProgram, size_t *)) \
	X(nvrtcResult, nvrtcGetCUBIN, "nvrtcGetCUBIN", (nvrtcProgram, char *))       \
	X(nvrtcResult, nvrtcDestroyProgram, "nvrtcDestroyProgram", (nvrtcProgram *))
/* clang-format on */

#define DECL(r, n, s, a) r(*n) a;
typedef struct CuApi {
	CU_FUNCS(DECL)
} CuApi;
typedef struct NvApi {
	NVRTC_FUNCS(DECL)
} NvApi;
typedef struct CuTiming {
	CU_TIMING_FUNCS(DECL)
	CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
} CuTiming;
static CuApi cu;
static NvApi nv;
static CuTiming cut;
#undef DECL

/* Resolve every entry of a table; the first missing symbol's name, or
 * NULL when all are there. */
#define LOOKUP(r, n, s, a)        \
	if (!(p = dlsym(lib, s))) \
		return s;         \
	memcpy(&tab->n, &p, sizeof p);
static const char *cu_lookup(void *lib)
{
	CuApi *tab = &cu;
	void *p;
	CU_FUNCS(LOOKUP)
	return NULL;
}
static const char *nv_lookup(void *lib)
{
	NvApi *tab = &nv;
	void *p;
	NVRTC_FUNCS(LOOKUP)
	return NULL;
}
static const char *cut_lookup(void *lib)
{
	CuTiming *tab = &cut;
	void *p;
	CU_TIMING_FUNCS(LOOKUP)
	if (!(p = dlsym(lib, "cuEventElapsedTime_v2")) && !(p = dlsym(lib, "cuEventElapsedTime")))
		return "cuEventElapsedTime";
	memcpy(&tab->cuEventElapsedTime, &p, sizeof p);
	return NULL;
}
#undef LOOKUP

static KS_NORETURN void skip(const char *fmt, const char *a, const char *b)
{
	fflush(stdout);
	fprintf(stderr, "%s: --device cuda: ", ks_prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(RUN_SKIP);
}

/* ---- finding NVRTC ------------------------------------------------------

   NVRTC is looked for, in this order:
     1. in the CUDA toolkit: $CUDA_HOME/lib64, else /usr/local/cuda/lib64;
     2. in the build folder, where `make deps` installs PyPI's NVRTC (the
        nvidia-cuda-nvrtc wheel) when there is no toolkit: nvrtc/nvidia/
        <any>/lib beside the folder of krun's executable (build/bin/../
        nvrtc), then in the build folder krun was built in (KS_NVRTC_DIR);
     3. on the loader's path, by name.
   In a folder, libnvrtc.so.N newest N first, then libnvrtc.so.  The first
   whose major version the driver supports is taken (cuDriverGetVersion:
   the cubin of an NVRTC newer than the driver does not load); with no
   driver, as on a build machine with --compile-only, the first.

   NVRTC opens its builtins library, libnvrtc-builtins.so.MAJOR.MINOR, by
   name, which the loader finds only on its path.  Loaded first from
   NVRTC's own folder, it is found under that name already loaded, so the
   build folder's NVRTC needs no LD_LIBRARY_PATH. */

/* The majors tried by name on the loader's path, which cannot be listed. */
enum { NVRTC_OLDEST = 11, NVRTC_NEWEST = 15, NVRTC_MAXCAND = 64 };

typedef struct NvCand {
	char *path;
	int major; /* from the name: N for libnvrtc.so.N, -1 for libnvrtc.so */
} NvCand;

typedef struct NvList {
	NvCand c[NVRTC_MAXCAND];
	int n;
} NvList;

static struct {
	void *lib;
	char desc[4400]; /* "NVRTC 13.0: PATH (driver: CUDA 13.0)" */
	char why[8192];  /* no NVRTC: the reason */
} nvrtc;

/* N for a file named libnvrtc.so.N, -1 for libnvrtc.so, -2 for any other
 * name (libnvrtc.so.13.0.88 has a libnvrtc.so.13 beside it). */
static int nvrtc_name_major(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (strncmp(b, "libnvrtc.so", 11))
		return -2;
	b += 11;
	if (!*b)
		return -1;
	if (*b != '.' || !b[1])
		return -2;
	int m = 0;
	for (b++; *b; b++) {
		if (*b < '0' || *b > '9' || m > 9999)
			return -2;
		m = m * 10 + (*b - '0');
	}
	return m;
}

static int nvrtc_newer_first(const void *a, const void *b)
{
	const NvCand *x = a, *y = b;
	return (x->major < y->major) - (x->major > y->major);
}

static void nvrtc_add(NvList *l, const char *path, int major)
{
	if (l->n < NVRTC_MAXCAND)
		l->c[l->n++] = (NvCand){xstrdup(path), major};
}

/* Is the file at PATH one of the list's before index END? */
static int nvrtc_seen(const NvList *l, int end, const char *path)
{
	struct stat a, b;
	if (stat(path, &a))
		return 1;
	for (int k = 0; k < end; k++)
		if (!stat(l->c[k].path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return 1;
	return 0;
}

/* The libraries that PATTERN (a glob) names, newest first, each file once
 * (libnvrtc.so is mostly a link to libnvrtc.so.N). */
static void nvrtc_glob(NvList *l, const char *pattern)
{
	glob_t g;
	int first = l->n;
	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			int m = nvrtc_name_major(g.gl_pathv[i]);
			if (m >= -1)
				nvrtc_add(l, g.gl_pathv[i], m);
		}
	globfree(&g);
	qsort(l->c + first, (size_t)(l->n - first), sizeof *l->c, nvrtc_newer_first);
	int n = first;
	for (int i = first; i < l->n; i++) {
		if (nvrtc_seen(l, n, l->c[i].path))
			free(l->c[i].path);
		else
			l->c[n++] = l->c[i];
	}
	l->n = n;
}

static void nvrtc_candidates(NvList *l)
{
	char p[4400], exe[4096];
	const char *home = getenv("CUDA_HOME");
	snprintf(p, sizeof p, "%s/lib64/libnvrtc.so*", home && *home ? home : "/usr/local/cuda");
	nvrtc_glob(l, p);
	if (run_exe_dir(exe, sizeof exe)) {
		snprintf(p, sizeof p, "%s/../nvrtc/nvidia/*/lib/libnvrtc.so*", exe);
		nvrtc_glob(l, p);
	}
#ifdef KS_NVRTC_DIR
	snprintf(p, sizeof p, "%s/nvidia/*/lib/libnvrtc.so*", KS_NVRTC_DIR);
	nvrtc_glob(l, p);
#endif
	for (int m = NVRTC_NEWEST; m >= NVRTC_OLDEST; m--) {
		snprintf(p, sizeof p, "libnvrtc.so.%d", m);
		nvrtc_add(l, p, m);
	}
	nvrtc_add(l, "libnvrtc.so", -1);
}

/* The driver's CUDA version (13000 for 13.0); 0 when there is no driver. */
static int driver_version(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	void *p = lib ? dlsym(lib, "cuDriverGetVersion") : NULL;
	CUresult (*get)(int *);
	int v = 0;
	if (p) {
		memcpy(&get, &p, sizeof p);
		if (get(&v) != CUDA_SUCCESS || v < 1000)
			v = 0;
	}
	return v; /* the driver stays open: cuda_open opens it again */
}

const char *cuda_nvrtc(const char **why)
{
	static int done;
	if (done)
		goto out;
	done = 1;
	int drv = driver_version(), dmaj = drv / 1000;
	char dname[64] = "none";
	if (drv)
		snprintf(dname, sizeof dname, "CUDA %d.%d", dmaj, drv % 1000 / 10);
	NvList l = {.n = 0};
	nvrtc_candidates(&l);
	Buf newer = {0}; /* the ones newer than the driver */
	for (int i = 0; i < l.n && !nvrtc.lib; i++) {
		const NvCand *c = &l.c[i];
		int maj = c->major, min = 0;
		/* a file found in a folder: its name tells its major version */
		if (drv && maj > dmaj && strchr(c->path, '/')) {
			buf_printf(&newer, "%s%s (NVRTC %d)", newer.n ? ", " : "", c->path, maj);
			continue;
		}
		/* One passed over stays loaded: NVRTC allocates as it loads,
		 * and unloading it would leak that. */
		void *lib = dlopen(c->path, RTLD_NOW | RTLD_LOCAL);
		void *p = lib ? dlsym(lib, "nvrtcVersion") : NULL;
		nvrtcResult (*version)(int *, int *);
		if (!p)
			continue;
		memcpy(&version, &p, sizeof p);
		if (version(&maj, &min))
			continue;
		if (drv && maj > dmaj) {
			buf_printf(&newer, "%s%s (NVRTC %d.%d)", newer.n ? ", " : "", c->path, maj, min);
			continue;
		}
		const char *slash = strrchr(c->path, '/');
		if (slash) {
			char b[4400];
			snprintf(b, sizeof b, "%.*s/libnvrtc-builtins.so.%d.%d", (int)(slash - c->path), c->path,
				 maj, min);
			dlopen(b, RTLD_NOW | RTLD_LOCAL); /* none: NVRTC says so when it compiles */
		}
		nvrtc.lib = lib;
		snprintf(nvrtc.desc, sizeof nvrtc.desc, "NVRTC %d.%d: %s (driver: %s)", maj, min, c->path, dname);
	}
	if (!nvrtc.lib && newer.n)
		snprintf(nvrtc.why, sizeof nvrtc.why, "no NVRTC that the driver (%s) supports: newer are %s", dname,
			 newer.p);
	else if (!nvrtc.lib) {
		const char *home = getenv("CUDA_HOME");
		snprintf(nvrtc.why, sizeof nvrtc.why,
			 "NVRTC (libnvrtc.so) not found in %s/lib64, %s or the library path",
			 home && *home ? home : "/usr/local/cuda",
#ifdef KS_NVRTC_DIR
			 KS_NVRTC_DIR
#else
			 "the build folder's nvrtc/"
#endif
		);
	}
	buf_free(&newer);
	for (int i = 0; i < l.n; i++)
		free(l.c[i].path);
out:
	if (!nvrtc.lib && why)
		*why = nvrtc.why;
	return nvrtc.lib ? nvrtc.desc : NULL;
}

/* ---- NVRTC ------------------------------------------------------------ */

void cuda_compile(const char *what, const Buf *code, const char *arch, const char *rtdir, Buf *cubin)
{
	const char *why = NULL;
	const char *desc = cuda_nvrtc(&why);
	if (!desc)
		skip("%s%s", why, "");
	if (run_verbose)
		fprintf(stderr, "%s: %s\n", ks_prog, desc);
	void *lib = nvrtc.lib;
	const char *miss = nv_lookup(lib);
	if (miss)
		skip("NVRTC lacks %s%s", miss, "");
	char archopt[64], incopt[4200];
	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
	snprintf(incopt, sizeof incopt, "--include-path=%s", rtdir);
	const char *opts[] = {archopt, "--fmad=false", "--std=c++17", incopt};
	nvrtcProgram prog;
	nvrtcResult r = nv.nvrtcCreateProgram(&prog, code->n ? code->p : "", what, 0, NULL, NULL);
	if (r)
		ks_fatal("%s: NVRTC: %s", what, nv.nvrtcGetErrorString(r));
	r = nv.nvrtcCompileProgram(prog, (int)KS_NELEM(opts), opts);
	size_t n = 0;
	nv.nvrtcGetProgramLogSize(prog, &n);
	char *log = xmalloc(n + 1);
	log[0] = 0;
	if (n)
		nv.nvrtcGetProgramLog(prog, log);
	log[n] = 0;
	size_t len = strlen(log);
	while (len && (log[len - 1] == '\n' || log[len - 1] == ' '))
		log[--len] = 0;
	if (r) {
		fflush(stdout);
		fprintf(stderr, "%s: %s: the CUDA code does not compile (NVRTC, %s): %s\n%s\n", ks_prog, what, arch,
			nv.nvrtcGetErrorString(r), log);
		exit(1);
	}
	if (len)
		fprintf(stderr, "%s: %s: NVRTC (%s) says:\n%s\n", ks_prog, what, arch, log);
	free(log);
	n = 0;
	if ((r = nv.nvrtcGetCUBINSize(prog, &n)) || !n)
		ks_fatal("%s: NVRTC gives no cubin for %s: %s", what, arch,
			 r ? nv.nvrtcGetErrorString(r) : "empty");
	cubin->n = 0;
	char *p = xmalloc(n);
	nv.nvrtcGetCUBIN(prog, p);
	buf_put(cubin, p, n);
	free(p);
	nv.nvrtcDestroyProgram(&prog);
}

/* ---- the driver --------------------------------------------------------- */

struct Cuda {
	void *lib;
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	char arch[16];
};

static const char *cu_err(CUresult r)
{
	const char *s = NULL;
	if (cu.cuGetErrorString)
		cu.cuGetErrorString(r, &s);
	return s ? s : "unknown error";
}

#define CHECK(call, what)                                                         \
	do {                                                                      \
		CUresult r_ = (call);                                             \
		if (r_ != CUDA_SUCCESS)                                           \
			ks_fatal("%s: %s (CUDA error %d)", what, cu_err(r_), r_); \
	} while (0)

Cuda *cuda_open(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		skip("no CUDA driver (libcuda.so.1 cannot be loaded: %s)%s", dlerror(), "");
	const char *miss = cu_lookup(lib);
	if (miss)
		skip("the CUDA driver lacks %s%s", miss, "");
	CUresult r = cu.cuInit(0);
	if (r)
		skip("cuInit failed: %s%s", cu_err(r), "");
	int count = 0;
	if (cu.cuDeviceGetCount(&count) || count < 1)
		skip("no CUDA device%s%s", "", "");
	Cuda *c = xmalloc(sizeof *c);
	memset(c, 0, sizeof *c);
	c->lib = lib;
	CHECK(cu.cuDeviceGet(&c->dev, 0), "cuDeviceGet");
	int major = 0, minor = 0;
	CHECK(cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->dev),
	      "cuDeviceGetAttribute");
	CHECK(cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->dev),
	      "cuDeviceGetAttribute");
	snprintf(c->arch, sizeof c->arch, "sm_%d%d", major, minor);
	CHECK(cu.cuDevicePrimaryCtxRetain(&c->ctx, c->dev), "cuDevicePrimaryCtxRetain");
	CHECK(cu.cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent");
	return c;
}

const char *cuda_arch(Cuda *c) { return c->arch; }

void cuda_load(Cuda *c, const Buf *cubin)
{
	if (c->mod)
		cu.cuModuleUnload(c->mod);
	CHECK(cu.cuModuleLoadData(&c->mod, cubin->p), "cuModuleLoadData");
}

/* A kernel's printf goes to the process's standard output when the
 * context synchronizes, and krun's standard output is its JSON: from
 * before a launch until after its synchronize, descriptor 1 is the log
 * (stderr).  log_begin returns what log_end puts back. */
static int log_begin(void)
{
	fflush(stdout);
	int saved = dup(1);
	if (saved >= 0 && dup2(2, 1) < 0) {
		close(saved);
		return -1;
	}
	return saved;
}

static void log_end(int saved)
{
	fflush(stdout);
	if (saved < 0)
		return;
	dup2(saved, 1);
	close(saved);
}

/* reps launches of fn back to back between two events: the milliseconds
 * per launch */
static double time_launches(Cuda *c, CUfunction fn, const char *entry, void **params, int blocks, int threads,
			    int reps)
{
	static const char *miss;
	static int looked;
	if (!looked) {
		looked = 1;
		miss = cut_lookup(c->lib);
	}
	if (miss)
		ks_fatal("--bench on cuda: the CUDA driver lacks %s", miss);
	CUevent ev[2];
	CHECK(cut.cuEventCreate(&ev[0], 0), "cuEventCreate");
	CHECK(cut.cuEventCreate(&ev[1], 0), "cuEventCreate");
	CHECK(cut.cuEventRecord(ev[0], NULL), "cuEventRecord");
	int log = log_begin();
	for (int k = 0; k < reps; k++)
		CHECK(cu.cuLaunchKernel(fn, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1, 0, NULL, params, NULL),
		      entry);
	CHECK(cut.cuEventRecord(ev[1], NULL), "cuEventRecord");
	CHECK(cut.cuEventSynchronize(ev[1]), entry);
	log_end(log);
	float t = 0;
	CHECK(cut.cuEventElapsedTime(&t, ev[0], ev[1]), "cuEventElapsedTime");
	cut.cuEventDestroy(ev[0]);
	cut.cuEventDestroy(ev[1]);
	return t / reps;
}

/* An array of two or more dimensions is passed as a view, the device's
 * ks_array_<elem> (runtime/ks_array.h): its data and its extents. */
typedef struct CuView {
	CUdeviceptr data;
	int shape[KS_MAX_NDIM];
} CuView;
_Static_assert(sizeof(CuView) == 24, "CuView must match ks_array_<elem> on the device");

/* A struct of type t as the device lays it out, into dst, from the
 * leaves of a from *li on: its values as they are, its arrays as views of
 * their device copies d. */
static void pack_struct(char *dst, Type t, const RunArgs *a, const CUdeviceptr *d, int *li)
{
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		char *p = dst + run_field_offset(t, k, 0);
		if (ty_is_struct(ft)) {
			pack_struct(p, ft, a, d, li);
			continue;
		}
		int i = (*li)++;
		if (ty_is_array(ft)) {
			CuView v = {d[i], {0}};
			memcpy(v.shape, a->shape[i], sizeof v.shape);
			memcpy(p, &v, sizeof v);
		} else {
			memcpy(p, &a->val[i], run_size(ft, 0));
		}
	}
}

double cuda_launch(Cuda *c, const char *entry, const Func *kf, RunArgs *a, int blocks, int threads, int reps)
{
	CUfunction fn;
	CUresult r = cu.cuModuleGetFunction(&fn, c->mod, entry);
	if (r)
		ks_fatal("%s: not in the compiled module: %s", entry, cu_err(r));
	int n = a->n, np = 0;
	CUdeviceptr *d = xmalloc(sizeof *d * (size_t)(n + 1));
	CuView *view = xmalloc(sizeof *view * (size_t)(n + 1));
	char **st = xmalloc(sizeof *st * (size_t)(kf->nparam + 1));
	void **params = xmalloc(sizeof *params * (size_t)(kf->nparam + KS_MAX_NDIM + 2));
	for (int i = 0; i < n; i++) {
		d[i] = 0;
		if (!a->buf[i])
			continue;
		CHECK(cu.cuMemAlloc(&d[i], a->bytes[i] ? a->bytes[i] : 4), "cuMemAlloc");
		CHECK(cu.cuMemcpyHtoD(d[i], a->buf[i], a->bytes[i]), "cuMemcpyHtoD");
		view[i].data = d[i];
		memcpy(view[i].shape, a->shape[i], sizeof view[i].shape);
	}
	/* the launch's dimensions, then the parameters of kf: a struct's
	 * from its leaves (a's parameters, krun's view of kf) */
	int dim[KS_MAX_NDIM + 1], ndim = run_entry_dims(a, a->block, dim);
	for (int k = 0; k < ndim; k++)
		params[np++] = &dim[k];
	for (int p = 0, i = 0; p < kf->nparam; p++) {
		Type t = kf->val[kf->param[p]].ty;
		st[p] = NULL;
		if (ty_is_struct(t)) {
			st[p] = xmalloc(run_size(t, 0));
			memset(st[p], 0, run_size(t, 0));
			pack_struct(st[p], t, a, d, &i);
			params[np++] = st[p];
		} else if (!a->buf[i]) {
			params[np++] = a->slot[i++];
		} else if (ir_param_view(NULL, a->f, i)) {
			params[np++] = &view[i++];
		} else {
			params[np++] = &d[i++];
		}
	}
	int log = log_begin();
	CHECK(cu.cuLaunchKernel(fn, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1, 0, NULL, params, NULL), entry);
	CHECK(cu.cuCtxSynchronize(), entry);
	log_end(log);
	for (int i = 0; i < n; i++)
		if (a->buf[i])
			CHECK(cu.cuMemcpyDtoH(a->buf[i], d[i], a->bytes[i]), "cuMemcpyDtoH");
	double ms = reps > 0 ? time_launches(c, fn, entry, params, blocks, threads, reps) : 0;
	for (int i = 0; i < n; i++)
		if (a->buf[i])
			cu.cuMemFree(d[i]);
	for (int p = 0; p < kf->nparam; p++)
		free(st[p]);
	free(st);
	free(d);
	free(view);
	free(params);
	return ms;
}

void cuda_close(Cuda *c)
{
	if (!c)
		return;
	if (c->mod)
		cu.cuModuleUnload(c->mod);
	cu.cuDevicePrimaryCtxRelease(c->dev);
	free(c);
}
