/*
 * fake_nvrtc.c: a stand-in for libnvrtc.so that reports the version it is
 * built with (-DMAJOR=12 -DMINOR=4) and "compiles" anything to a 4-byte
 * cubin, for t/t4011-nvrtc.t to see which NVRTC krun picks without
 * installing several CUDA toolkits.
 */
#include <string.h>

typedef struct Prog *nvrtcProgram;

int nvrtcVersion(int *major, int *minor);
const char *nvrtcGetErrorString(int r);
int nvrtcCreateProgram(nvrtcProgram *p, const char *src, const char *name, int n,
		       const char *const *headers, const char *const *names);
int nvrtcCompileProgram(nvrtcProgram p, int n, const char *const *opts);
int nvrtcGetProgramLogSize(nvrtcProgram p, size_t *n);
int nvrtcGetProgramLog(nvrtcProgram p, char *log);
int nvrtcGetCUBINSize(nvrtcProgram p, size_t *n);
int nvrtcGetCUBIN(nvrtcProgram p, char *cubin);
int nvrtcDestroyProgram(nvrtcProgram *p);

int nvrtcVersion(int *major, int *minor)
{
	*major = MAJOR;
	*minor = MINOR;
	return 0;
}

const char *nvrtcGetErrorString(int r) { return r ? "fake error" : "NVRTC_SUCCESS"; }

int nvrtcCreateProgram(nvrtcProgram *p, const char *src, const char *name, int n,
		       const char *const *headers, const char *const *names)
{
	(void)src, (void)name, (void)n, (void)headers, (void)names;
	*p = NULL;
	return 0;
}

int nvrtcCompileProgram(nvrtcProgram p, int n, const char *const *opts)
{
	(void)p, (void)n, (void)opts;
	return 0;
}

int nvrtcGetProgramLogSize(nvrtcProgram p, size_t *n)
{
	(void)p;
	*n = 1;
	return 0;
}

int nvrtcGetProgramLog(nvrtcProgram p, char *log)
{
	(void)p;
	log[0] = 0;
	return 0;
}

int nvrtcGetCUBINSize(nvrtcProgram p, size_t *n)
{
	(void)p;
	*n = 4;
	return 0;
}

int nvrtcGetCUBIN(nvrtcProgram p, char *cubin)
{
	(void)p;
	memcpy(cubin, "fake", 4);
	return 0;
}

int nvrtcDestroyProgram(nvrtcProgram *p)
{
	*p = NULL;
	return 0;
}
