/*
 * run_host.c: compiling emitted code for the host and loading it.
 *
 * C for the cpu device goes through libtcc in process when krun was built
 * with it (KS_HAVE_LIBTCC): no temporary files, no child process, a few
 * milliseconds a file.  Otherwise, or with --cc, the system C compiler
 * builds a shared object that dlopen loads.  The CUDA code for the sim
 * device is C++ compiled by the system C++ compiler with the shim header
 * runtime/ksynth_sim.h forced in (-include).  Every compiler runs with FMA
 * contraction off and no fast math, so that the cpu and sim devices
 * evaluate the same float32 operations in the same order.
 *
 * Temporary files live in one folder under $TMPDIR that is removed at
 * exit and on a fatal signal; a kernel that crashes or runs too long is
 * caught (run_guard) and ends krun with a message instead of a core.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef KS_HAVE_LIBTCC
#include <libtcc.h>
#endif

#include "run.h"

extern char **environ;

/* ---- temporary files ---------------------------------------------- */

#define MAXTMP 64
static char tmp_dir[4096];
static char *tmp_files[MAXTMP];
static volatile sig_atomic_t tmp_n;

static void tmp_clean(void)
{
	for (int i = 0; i < tmp_n; i++)
		unlink(tmp_files[i]);
	if (tmp_dir[0])
		rmdir(tmp_dir);
}

static void on_term(int sig)
{
	tmp_clean();
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *run_tmpdir(void)
{
	if (tmp_dir[0])
		return tmp_dir;
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = "/tmp";
	snprintf(tmp_dir, sizeof tmp_dir, "%s/krun.XXXXXX", t);
	if (!mkdtemp(tmp_dir)) {
		char bad[4096];
		memcpy(bad, tmp_dir, sizeof bad);
		tmp_dir[0] = 0;
		ks_fatal("%s:", bad);
	}
	atexit(tmp_clean);
	signal(SIGINT, on_term);
	signal(SIGTERM, on_term);
	signal(SIGHUP, on_term);
	return tmp_dir;
}

char *run_tmpfile(const char *name)
{
	const char *d = run_tmpdir();
	if (tmp_n == MAXTMP)
		ks_fatal("too many temporary files");
	size_t n = strlen(d) + strlen(name) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s", d, name);
	tmp_files[tmp_n] = p;
	tmp_n = tmp_n + 1;
	return p;
}

int run_cmd(char *const argv[], Buf *log)
{
	static int seq;
	char name[32];
	snprintf(name, sizeof name, "cmd%d.log", seq++);
	char *path = run_tmpfile(name);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		buf_printf(log, "%s: %s\n", argv[0], strerror(err));
		return -1;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	FILE *f = fopen(path, "rb");
	if (f) {
		char chunk[4096];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			buf_put(log, chunk, n);
		fclose(f);
	}
	if (WIFSIGNALED(st)) {
		buf_printf(log, "%s: killed by signal %d\n", argv[0], WTERMSIG(st));
		return -1;
	}
	return WEXITSTATUS(st);
}

/* ---- guarding a launch ---------------------------------------------- */

static const int guard_sig[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM};
static struct sigaction guard_old[KS_NELEM(guard_sig)];
static char guard_msg[2][600];

static void on_guard(int sig)
{
	const char *m = guard_msg[sig == SIGALRM];
	ssize_t r = write(2, m, strlen(m));
	(void)r;
	tmp_clean();
	_exit(1);
}

void run_guard(const char *what, unsigned timeout)
{
	snprintf(guard_msg[0], sizeof guard_msg[0], "%s: %s crashed (a fatal signal)\n",
		 ks_prog, what);
	snprintf(guard_msg[1], sizeof guard_msg[1], "%s: %s did not finish within %u s (--timeout)\n",
		 ks_prog, what, timeout);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_guard;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < KS_NELEM(guard_sig); i++)
		sigaction(guard_sig[i], &sa, &guard_old[i]);
	alarm(timeout);
}

void run_unguard(void)
{
	alarm(0);
	for (size_t i = 0; i < KS_NELEM(guard_sig); i++)
		sigaction(guard_sig[i], &guard_old[i], NULL);
}

/* ---- the runtime headers ------------------------------------------ */

static int has_header(const char *dir)
{
	char p[8300];
	snprintf(p, sizeof p, "%s/ksynth.h", dir);
	return access(p, R_OK) == 0;
}

const char *run_runtime_dir(void)
{
	static char dir[8192];
	const char *e = getenv("KSYNTH_RUNTIME");
	if (e && *e)
		return e;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *s = strrchr(exe, '/');
		if (s)
			*s = 0;
		snprintf(dir, sizeof dir, "%s/../include/ksynth", exe);
		if (has_header(dir))
			return dir;
		/* build/bin, build/san/bin, O=any/depth/bin inside the tree */
		char up[4096];
		snprintf(up, sizeof up, "%s", exe);
		for (int i = 0; i < 4; i++) {
			if (strlen(up) + 4 >= sizeof up)
				break;
			strcat(up, "/..");
			snprintf(dir, sizeof dir, "%s/runtime", up);
			if (has_header(dir))
				return dir;
		}
	}
#ifdef KS_RUNTIME_SRC
	if (has_header(KS_RUNTIME_SRC))
		return KS_RUNTIME_SRC;
#endif
	return NULL;
}

/* ---- compiling ------------------------------------------------------ */

struct Host {
	void *so;    /* dlopen handle */
#ifdef KS_HAVE_LIBTCC
	TCCState *tcc;
#endif
};

int host_have_libtcc(void)
{
#ifdef KS_HAVE_LIBTCC
	return 1;
#else
	return 0;
#endif
}

const char *host_c_compiler(int use_cc)
{
#ifdef KS_HAVE_LIBTCC
	if (!use_cc)
		return "libtcc";
#endif
	(void)use_cc;
	const char *e = getenv("KSYNTH_CC");
	return e && *e ? e : "cc";
}

static KS_NORETURN void compile_failed(const char *what, const char *lang,
				       const char *by, const Buf *log)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s: the %s code does not compile (%s):\n%s", ks_prog,
		what, lang, by, log->n ? log->p : "(no output)\n");
	if (log->n && log->p[log->n - 1] != '\n')
		fputc('\n', stderr);
	exit(1);
}

#ifdef KS_HAVE_LIBTCC
static void tcc_msg(void *opaque, const char *msg)
{
	buf_printf(opaque, "%s\n", msg);
}

static Host *tcc_build(const char *what, const Buf *code, const char *rtdir)
{
	Buf log = {0};
	Host *h = xmalloc(sizeof *h);
	h->so = NULL;
	h->tcc = tcc_new();
	if (!h->tcc)
		ks_fatal("libtcc: cannot start");
	tcc_set_error_func(h->tcc, &log, tcc_msg);
#ifdef KS_TCC_LIBDIR
	tcc_set_lib_path(h->tcc, KS_TCC_LIBDIR);
#endif
	tcc_add_include_path(h->tcc, rtdir);
	tcc_set_output_type(h->tcc, TCC_OUTPUT_MEMORY);
	/* The math builtins call libm; in a process that did not link it
	 * (or linked it --as-needed) tcc must load it itself. */
	tcc_add_library(h->tcc, "m");
	if (tcc_compile_string(h->tcc, code->n ? code->p : "") < 0 ||
	    tcc_relocate(h->tcc, TCC_RELOCATE_AUTO) < 0)
		compile_failed(what, "C", "libtcc", &log);
	buf_free(&log);
	return h;
}
#endif

Host *host_compile(const char *what, const Buf *code, int lang, int use_cc,
		   const char *rtdir)
{
#ifdef KS_HAVE_LIBTCC
	if (lang == LANG_C && !use_cc)
		return tcc_build(what, code, rtdir);
#endif
	(void)use_cc;
	static int seq;
	char name[32];
	snprintf(name, sizeof name, "k%d.%s", seq, lang == LANG_C ? "c" : "cu");
	char *src = run_tmpfile(name);
	snprintf(name, sizeof name, "k%d.so", seq++);
	char *so = run_tmpfile(name);
	FILE *f = fopen(src, "wb");
	if (!f || fwrite(code->p, 1, code->n, f) != code->n || fclose(f))
		ks_fatal("%s:", src);
	char inc[4200];
	snprintf(inc, sizeof inc, "-I%s", rtdir);
	const char *cxx = getenv("KSYNTH_CXX");
	char *argv_c[] = {(char *)host_c_compiler(1), "-std=c11", "-O2", "-ffp-contract=off",
			  "-fno-fast-math", "-shared", "-fPIC", inc, "-o", so, src,
			  "-lm", NULL};
	char *argv_cxx[] = {(char *)(cxx && *cxx ? cxx : "c++"), "-std=c++17", "-O1",
			    "-ffp-contract=off", "-fno-fast-math", "-shared", "-fPIC",
			    inc, "-include", "ksynth_sim.h", "-x", "c++", src, "-o",
			    so, "-lm", NULL};
	char **argv = lang == LANG_C ? argv_c : argv_cxx;
	Buf log = {0};
	if (run_cmd(argv, &log) != 0)
		compile_failed(what, lang == LANG_C ? "C" : "CUDA (as C++ for sim)",
			       argv[0], &log);
	buf_free(&log);
	Host *h = xmalloc(sizeof *h);
	memset(h, 0, sizeof *h);
	h->so = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!h->so)
		ks_fatal("%s: cannot load the compiled code: %s", what, dlerror());
	return h;
}

void *host_sym(Host *h, const char *name)
{
#ifdef KS_HAVE_LIBTCC
	if (h->tcc)
		return tcc_get_symbol(h->tcc, name);
#endif
	return dlsym(h->so, name);
}

void host_free(Host *h)
{
	if (!h)
		return;
#ifdef KS_HAVE_LIBTCC
	if (h->tcc)
		tcc_delete(h->tcc);
#endif
	if (h->so)
		dlclose(h->so);
	free(h);
}
