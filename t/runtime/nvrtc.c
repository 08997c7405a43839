/*
 * nvrtc.c: compiles CUDA files with NVRTC, loaded at run time (dlopen), as
 * krun does: --gpu-architecture=compute_90 --fmad=false -I runtime.  Exits
 * 77 when libnvrtc cannot be loaded, 1 when a file fails to compile or
 * NVRTC prints anything (a warning), 0 otherwise.
 *
 *     nvrtc LIBNVRTC.so FILE.cu...
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct _nvrtcProgram *nvrtcProgram;
typedef int (*create_fn)(nvrtcProgram *, const char *, const char *, int, const char *const *,
			 const char *const *);
typedef int (*compile_fn)(nvrtcProgram, int, const char *const *);
typedef int (*logsize_fn)(nvrtcProgram, size_t *);
typedef int (*log_fn)(nvrtcProgram, char *);
typedef int (*destroy_fn)(nvrtcProgram *);

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(s);
		return NULL;
	}
	s[n] = 0;
	fclose(f);
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: nvrtc LIBNVRTC.so FILE.cu...\n", stderr);
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "nvrtc: cannot load %s\n", argv[1]);
		return 77;
	}
	create_fn create = (create_fn)dlsym(h, "nvrtcCreateProgram");
	compile_fn compile = (compile_fn)dlsym(h, "nvrtcCompileProgram");
	logsize_fn logsize = (logsize_fn)dlsym(h, "nvrtcGetProgramLogSize");
	log_fn getlog = (log_fn)dlsym(h, "nvrtcGetProgramLog");
	destroy_fn destroy = (destroy_fn)dlsym(h, "nvrtcDestroyProgram");
	if (!create || !compile || !logsize || !getlog || !destroy) {
		fprintf(stderr, "nvrtc: %s lacks the NVRTC API\n", argv[1]);
		return 77;
	}
	const char *opts[] = {"--gpu-architecture=compute_90", "--fmad=false", "-I", "runtime"};
	int status = 0;
	for (int i = 2; i < argc; i++) {
		char *src = slurp(argv[i]);
		if (!src) {
			fprintf(stderr, "nvrtc: cannot read %s\n", argv[i]);
			return 1;
		}
		nvrtcProgram p;
		if (create(&p, src, argv[i], 0, NULL, NULL)) {
			fprintf(stderr, "nvrtc: %s: cannot create program\n", argv[i]);
			return 1;
		}
		int rc = compile(p, 4, opts);
		size_t n = 0;
		logsize(p, &n);
		if (n > 1) {
			char *log = malloc(n);
			getlog(p, log);
			fprintf(stderr, "%s:\n%s", argv[i], log);
			free(log);
		}
		if (rc || n > 1)
			status = 1;
		destroy(&p);
		free(src);
	}
	return status;
}
