/*
 * run_cuda.c: the cuda device — NVRTC compiles the emitted CUDA to a cubin
 * for the device's architecture, the driver API loads and launches it.
 *
 * Neither is linked: ksynth builds with no CUDA toolkit, so both libraries
 * are opened with dlopen and the few types, constants and entry points we
 * use are declared here (their values are the CUDA ABI, stable across
 * releases).  NVRTC is looked for in $CUDA_HOME/lib64, /usr/local/cuda/lib64
 * and then the loader's default path; the driver is libcuda.so.1.  When
 * either, or a device, is missing krun exits 77 with the reason, the
 * conventional "skipped" status.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* ---- the declarations we need (cuda.h, nvrtc.h) --------------------- */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
enum {
	CUDA_SUCCESS = 0,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

/* X(return type, name, symbol, parameters) */
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

#define DECL(r, n, s, a) r(*n) a;
typedef struct CuApi {
	CU_FUNCS(DECL)
} CuApi;
typedef struct NvApi {
	NVRTC_FUNCS(DECL)
} NvApi;
static CuApi cu;
static NvApi nv;
#undef DECL

/* Resolve every entry of a table; the first missing symbol's name, or
 * NULL when all are there. */
#define LOOKUP(r, n, s, a)                                     \
	if (!(p = dlsym(lib, s)))                             \
		return s;                                     \
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
#undef LOOKUP

static KS_NORETURN void skip(const char *fmt, const char *a, const char *b)
{
	fflush(stdout);
	fprintf(stderr, "%s: --device cuda: ", ks_prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(RUN_SKIP);
}

/* ---- NVRTC ------------------------------------------------------------ */

static void *nvrtc_open(void)
{
	static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
	const char *dirs[3] = {getenv("CUDA_HOME"), "/usr/local/cuda", NULL};
	char path[4200];
	void *lib = NULL;
	for (int d = 0; d < 3 && !lib; d++)
		for (size_t i = 0; i < KS_NELEM(names) && !lib; i++) {
			if (d < 2 && (!dirs[d] || !*dirs[d]))
				continue;
			if (d < 2)
				snprintf(path, sizeof path, "%s/lib64/%s", dirs[d], names[i]);
			else
				snprintf(path, sizeof path, "%s", names[i]);
			lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		}
	return lib;
}

void cuda_compile(const char *what, const Buf *code, const char *arch,
		  const char *rtdir, Buf *cubin)
{
	static void *lib;
	if (!lib && !(lib = nvrtc_open()))
		skip("NVRTC (libnvrtc.so) not found in $CUDA_HOME/lib64, /usr/local/cuda/lib64 or the library path%s%s",
		     "", "");
	const char *miss = nv_lookup(lib);
	if (miss)
		skip("NVRTC lacks %s%s", miss, "");
	char archopt[64], incopt[4200];
	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
	snprintf(incopt, sizeof incopt, "--include-path=%s", rtdir);
	const char *opts[] = {archopt, "--fmad=false", "--std=c++17", incopt};
	nvrtcProgram prog;
	nvrtcResult r = nv.nvrtcCreateProgram(&prog, code->n ? code->p : "", what, 0,
					      NULL, NULL);
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
		fprintf(stderr, "%s: %s: the CUDA code does not compile (NVRTC, %s): %s\n%s\n",
			ks_prog, what, arch, nv.nvrtcGetErrorString(r), log);
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

#define CHECK(call, what)                                                       \
	do {                                                                    \
		CUresult r_ = (call);                                           \
		if (r_ != CUDA_SUCCESS)                                         \
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

/* An array of two or more dimensions is passed as a view, the device's
 * ks_array_<elem> (runtime/ksynth.h): its data and its extents. */
typedef struct CuView {
	CUdeviceptr data;
	int shape[KS_MAX_NDIM];
} CuView;
_Static_assert(sizeof(CuView) == 24, "CuView must match ks_array_<elem> on the device");

void cuda_launch(Cuda *c, const char *entry, RunArgs *a, int blocks, int threads)
{
	CUfunction fn;
	CUresult r = cu.cuModuleGetFunction(&fn, c->mod, entry);
	if (r)
		ks_fatal("%s: not in the compiled module: %s", entry, cu_err(r));
	int n = a->n, np = 0;
	CUdeviceptr *d = xmalloc(sizeof *d * (size_t)(n + 1));
	CuView *view = xmalloc(sizeof *view * (size_t)(n + 1));
	void **params = xmalloc(sizeof *params * (size_t)(n + KS_MAX_NDIM + 1));
	/* the launch's dimensions, then the parameters */
	for (int k = 0; k < a->rank; k++)
		params[np++] = &a->dim[k];
	for (int i = 0; i < n; i++) {
		Type t = a->f->val[a->f->param[i]].ty;
		d[i] = 0;
		if (!a->buf[i]) {
			params[np++] = a->slot[i];
			continue;
		}
		CHECK(cu.cuMemAlloc(&d[i], a->bytes[i] ? a->bytes[i] : 4), "cuMemAlloc");
		CHECK(cu.cuMemcpyHtoD(d[i], a->buf[i], a->bytes[i]), "cuMemcpyHtoD");
		if (ty_ndim(t) > 1) {
			view[i].data = d[i];
			memcpy(view[i].shape, a->shape[i], sizeof view[i].shape);
			params[np++] = &view[i];
		} else {
			params[np++] = &d[i];
		}
	}
	CHECK(cu.cuLaunchKernel(fn, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1, 0,
				NULL, params, NULL),
	      entry);
	CHECK(cu.cuCtxSynchronize(), entry);
	for (int i = 0; i < n; i++)
		if (a->buf[i]) {
			CHECK(cu.cuMemcpyDtoH(a->buf[i], d[i], a->bytes[i]), "cuMemcpyDtoH");
			cu.cuMemFree(d[i]);
		}
	free(d);
	free(view);
	free(params);
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
