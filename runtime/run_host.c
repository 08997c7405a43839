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
 * Compiling executes nothing of the code: libtcc relocates it into memory
 * (running no constructor), and a shared object is only opened here; it
 * is loaded (host_load, where dlopen runs its constructors) in the
 * confined child that runs it (run_confine.c).
 *
 * Temporary files live in one folder under $TMPDIR that exists only
 * while they do and is removed at exit and on a fatal signal.  A compiler
 * runs in a process group of its own with that folder as its $TMPDIR, so
 * that stopping it stops its every process (cc1, as, collect2, ld) and
 * whatever temporaries they made go with the folder.
 */
#define _DEFAULT_SOURCE /* syscall */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef KS_HAVE_LIBTCC
#include <libtcc.h>
#endif

#include "run.h"

extern char **environ;

int run_verbose; /* --verbose: which compiler, and what it said */

/* ---- temporary files ---------------------------------------------- */

/* The folder exists only while a temporary file does: run_tmpfile makes
 * it, run_tmpdone removes a file and, with the last one, the folder.  A
 * compiled object is removed as soon as it is loaded, so a krun killed
 * with SIGKILL outside a compile leaves nothing behind.  Every other way
 * out (exit, a fatal error, SIGINT, SIGTERM, SIGHUP, a crash or timeout
 * caught by run_guard) removes the files and the folder; a child running
 * then (a compiler, a batch job) is stopped and waited for first, so that
 * it writes nothing into the folder after it is gone.  Only the process
 * that made the folder removes it: a forked batch job inherits the
 * handlers, not the folder. */
#define MAXTMP 64
static char tmp_dir[4096];
static char *volatile tmp_files[MAXTMP];
static volatile sig_atomic_t tmp_owner, child_pid, child_group, child_sig = SIGTERM;

/* Every entry of the folder goes (a compiler stopped mid-run leaves its
 * temporaries there), read with getdents64 into a static buffer, as a
 * signal handler may. */
static void tmp_empty_dir(void)
{
	static char ents[4096];
	static char path[sizeof tmp_dir + 256];
	int fd = open(tmp_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	size_t dn = strlen(tmp_dir);
	long n;
	while ((n = syscall(SYS_getdents64, fd, ents, sizeof ents)) > 0) {
		for (long at = 0; at < n;) {
			/* struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name */
			unsigned short reclen;
			memcpy(&reclen, ents + at + 16, sizeof reclen);
			const char *name = ents + at + 19;
			size_t nn = strlen(name);
			if (strcmp(name, ".") && strcmp(name, "..") && dn + nn + 2 <= sizeof path) {
				memcpy(path, tmp_dir, dn);
				path[dn] = '/';
				memcpy(path + dn + 1, name, nn + 1);
				unlink(path);
			}
			at += reclen;
		}
	}
	close(fd);
}

/* Every file still registered goes, those outside the folder (a record
 * being written beside its final name) too, and the folder if it is
 * there, with whatever else is in it.  A stopped compiler's last process
 * may still be creating a file as it dies: a few tries, a millisecond
 * apart. */
static void tmp_clean(void)
{
	if (getpid() != (pid_t)tmp_owner)
		return;
	for (int i = 0; i < MAXTMP; i++)
		if (tmp_files[i])
			unlink(tmp_files[i]);
	if (!tmp_dir[0])
		return;
	for (int try = 0; try < 20 && rmdir(tmp_dir) < 0 && errno == ENOTEMPTY; try++) {
		tmp_empty_dir();
		if (try)
			nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
}

/* A compiler's whole group gets the signal, and SIGKILL once its first
 * process is gone, so that none of its processes outlives it. */
static void stop_child(void)
{
	pid_t c = (pid_t)child_pid;
	if (c > 0 && getpid() == (pid_t)tmp_owner) {
		kill(child_group ? -c : c, (int)child_sig);
		while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
			;
		if (child_group)
			kill(-c, SIGKILL);
	}
}

/* The handlers installed before tmp_init's (the output file's, out.c),
 * which on_term passes the signal on to. */
static void (*term_old[3])(int);
static const int term_sig[3] = {SIGINT, SIGTERM, SIGHUP};

static void on_term(int sig)
{
	stop_child();
	tmp_clean();
	for (int i = 0; i < 3; i++)
		if (term_sig[i] == sig && term_old[i] != SIG_DFL && term_old[i] != SIG_IGN &&
		    term_old[i] != SIG_ERR)
			term_old[i](sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

void run_child(int pid) { run_child_kill(pid, SIGTERM); }

void run_child_kill(int pid, int sig)
{
	child_sig = sig;
	child_group = 0;
	child_pid = pid;
}

void run_cleanup(void)
{
	stop_child();
	tmp_clean();
}

static void tmp_init(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	tmp_owner = (sig_atomic_t)getpid();
	atexit(tmp_clean);
	for (int i = 0; i < 3; i++)
		term_old[i] = signal(term_sig[i], on_term);
}

const char *run_tmpdir(void)
{
	tmp_init();
	if (tmp_dir[0])
		return tmp_dir;
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = "/tmp";
	char d[sizeof tmp_dir];
	snprintf(d, sizeof d, "%s/krun.XXXXXX", t);
	if (!mkdtemp(d))
		ks_fatal("%s:", d);
	memcpy(tmp_dir, d, sizeof d);
	return tmp_dir;
}

char *run_tmppath(const char *path)
{
	tmp_init();
	int slot = 0;
	while (slot < MAXTMP && tmp_files[slot])
		slot++;
	if (slot == MAXTMP)
		ks_fatal("too many temporary files");
	char *p = xstrdup(path);
	tmp_files[slot] = p;
	return p;
}

char *run_tmpfile(const char *name)
{
	const char *d = run_tmpdir();
	size_t n = strlen(d) + strlen(name) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s", d, name);
	char *r = run_tmppath(p);
	free(p);
	return r;
}

/* Take path off the cleanup (removing the file unless keep), free it,
 * and remove the folder when its last file is gone. */
static void tmp_release(char *path, int keep)
{
	int left = 0;
	for (int i = 0; i < MAXTMP; i++) {
		if (tmp_files[i] == path)
			tmp_files[i] = NULL;
		else if (tmp_files[i])
			left = 1;
	}
	if (!keep)
		unlink(path);
	free(path);
	if (!left && tmp_dir[0] && getpid() == (pid_t)tmp_owner) {
		rmdir(tmp_dir);
		tmp_dir[0] = 0;
	}
}

void run_tmpkeep(char *path) { tmp_release(path, 1); }

void run_tmpdone(char *path) { tmp_release(path, 0); }

int run_cmd(char *const argv[], Buf *log) { return run_cmd_out(argv, NULL, log); }

int run_cmd_out(char *const argv[], const char *out, Buf *log)
{
	static int seq;
	char name[32];
	snprintf(name, sizeof name, "cmd%d.log", seq++);
	char *path = run_tmpfile(name);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (out) {
		posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		posix_spawn_file_actions_addopen(&fa, 2, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	} else {
		posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
	}
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	/* the environment, with $TMPDIR the folder */
	size_t ne = 0;
	while (environ[ne])
		ne++;
	char **env = xmalloc((ne + 2) * sizeof *env), *tmpdir = NULL;
	size_t k = 0;
	for (size_t i = 0; i < ne; i++)
		if (strncmp(environ[i], "TMPDIR=", 7))
			env[k++] = environ[i];
	size_t tn = strlen(tmp_dir) + 8;
	tmpdir = xmalloc(tn);
	snprintf(tmpdir, tn, "TMPDIR=%s", tmp_dir);
	env[k++] = tmpdir;
	env[k] = NULL;
	/* the group is recorded before the signal that would stop it can come */
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &old);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &fa, &at, argv, env);
	if (!err) {
		child_sig = SIGTERM;
		child_group = 1;
		child_pid = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	free(tmpdir);
	if (err) {
		buf_printf(log, "%s: %s\n", argv[0], strerror(err));
		run_tmpdone(path);
		return -1;
	}
	int st, r;
	while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	run_child(0);
	if (r < 0) {
		run_tmpdone(path);
		return -1;
	}
	FILE *f = fopen(path, "rb");
	if (f) {
		char chunk[4096];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			buf_put(log, chunk, n);
		fclose(f);
	}
	run_tmpdone(path);
	if (WIFSIGNALED(st)) {
		buf_printf(log, "%s: killed by signal %d\n", argv[0], WTERMSIG(st));
		return -1;
	}
	return WEXITSTATUS(st);
}

/* ---- the runtime headers ------------------------------------------ */

static int has_header(const char *dir)
{
	char p[8300];
	snprintf(p, sizeof p, "%s/ksynth.h", dir);
	return access(p, R_OK) == 0;
}

int run_exe_dir(char *dir, size_t cap)
{
	if (cap < 2)
		return 0;
	ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
	char *s = n > 0 ? (dir[n] = 0, strrchr(dir, '/')) : NULL;
	if (!s)
		return 0;
	*s = 0;
	return 1;
}

const char *run_runtime_dir(void)
{
	static char dir[8192];
	const char *e = getenv("KSYNTH_RUNTIME");
	if (e && *e)
		return e;
	char exe[4096];
	if (run_exe_dir(exe, sizeof exe)) {
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
	int fd;   /* the shared object, open (its file already removed); -1 */
	void *so; /* dlopen handle, once host_load loaded it */
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

const char *host_cxx_compiler(void)
{
	const char *e = getenv("KSYNTH_CXX");
	return e && *e ? e : "c++";
}

static KS_NORETURN void compile_failed(const Buf *msg)
{
	fflush(stdout);
	fwrite(msg->p, 1, msg->n, stderr);
	exit(1);
}

/* The first line of a compile error, as krun prints it. */
static void compile_msg(Buf *out, const char *what, int lang, const char *by, const Buf *log)
{
	buf_printf(out, "%s: %s: the %s code does not compile (%s):\n%s", ks_prog, what,
		   lang == LANG_C ? "C" : "CUDA (as C++ for sim)", by, log->n ? log->p : "(no output)\n");
	if (log->n && log->p[log->n - 1] != '\n')
		buf_putc(out, '\n');
}

#ifdef KS_HAVE_LIBTCC
static void tcc_msg(void *opaque, const char *msg) { buf_printf(opaque, "%s\n", msg); }

static Host *tcc_build(const Buf *code, const char *rtdir, Buf *log)
{
	Host *h = xmalloc(sizeof *h);
	h->fd = -1;
	h->so = NULL;
	h->tcc = tcc_new();
	if (!h->tcc)
		ks_fatal("libtcc: cannot start");
	tcc_set_error_func(h->tcc, log, tcc_msg);
#ifdef KS_TCC_LIBDIR
	tcc_set_lib_path(h->tcc, KS_TCC_LIBDIR);
#endif
	tcc_add_include_path(h->tcc, rtdir);
	tcc_set_output_type(h->tcc, TCC_OUTPUT_MEMORY);
	/* The math builtins call libm; in a process that did not link it
	 * (or linked it --as-needed) tcc must load it itself. */
	tcc_add_library(h->tcc, "m");
	if (tcc_compile_string(h->tcc, code->n ? code->p : "") < 0 || tcc_relocate(h->tcc, TCC_RELOCATE_AUTO) < 0) {
		tcc_delete(h->tcc);
		free(h);
		return NULL;
	}
	return h;
}
#endif

/* ---- sim's precompiled headers -------------------------------------- */

/* Parsing ksynth.h as C++ is three quarters of a sim compile.  The build
 * precompiles it with GCC (mk/runtime.mk: $(O)/pch/ksynth_sim_all.h, the
 * shim and ksynth.h in one, and its .gch, with SIM_FLAGS below); krun
 * forces that header in instead of the shim alone when the default c++
 * compiles, the runtime folder is the one the build read, and none of its
 * headers changed since (ks*.h: the shim, ksynth.h and the ks_*.h it
 * includes, what the build's .gch depends on).  A .gch the compiler cannot
 * use (another GCC) it ignores for the text beside it: the same code
 * either way. */
#define PCH_NAME "ksynth_sim_all.h"

static int newer(const struct stat *a, const char *dir, const char *name)
{
	char p[8400];
	struct stat s;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &s) == 0 &&
	       (s.st_mtim.tv_sec > a->st_mtim.tv_sec ||
		(s.st_mtim.tv_sec == a->st_mtim.tv_sec && s.st_mtim.tv_nsec > a->st_mtim.tv_nsec));
}

/* Is a runtime header of dir, a ks*.h, newer than a?  (Yes when the
 * folder cannot be read: a .gch krun cannot vouch for is not used.) */
static int headers_newer(const struct stat *a, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 1;
	struct dirent *e;
	int stale = 0;
	while (!stale && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n >= 4 && !strncmp(e->d_name, "ks", 2) && !strcmp(e->d_name + n - 2, ".h"))
			stale = newer(a, dir, e->d_name);
	}
	closedir(d);
	return stale;
}

static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The folder of the precompiled header to use, or NULL and why not. */
static const char *sim_pch(const char *rtdir, const char **why)
{
	static char dir[4200];
	const char *cxx = getenv("KSYNTH_CXX");
	if (cxx && *cxx)
		return *why = "$KSYNTH_CXX is set", NULL;
#ifdef KS_RUNTIME_SRC
	if (!same_dir(rtdir, KS_RUNTIME_SRC))
		return *why = "the runtime headers are not the build's", NULL;
#else
	(void)same_dir;
	return *why = "krun was built without its runtime folder", NULL;
#endif
	char exe[4096];
	if (!run_exe_dir(exe, sizeof exe))
		return *why = "krun cannot find its own folder", NULL;
	snprintf(dir, sizeof dir, "%s/../pch", exe);
	char gch[4300];
	struct stat st;
	snprintf(gch, sizeof gch, "%s/" PCH_NAME ".gch", dir);
	if (stat(gch, &st) != 0)
		return *why = "the build made none (c++ is not GCC)", NULL;
	if (headers_newer(&st, rtdir))
		return *why = "the runtime headers changed since the build (make)", NULL;
	return dir;
}

/* -O0: the kernels run on 16 elements once, so the compile is the whole
 * cost, and -O0 compiles in a fraction of -O2's time.  With FMA
 * contraction off and no fast math, every optimization level evaluates the
 * same IEEE float operations, so the records do not depend on it. */
Host *host_try_compile(const char *what, const Buf *code, int lang, int use_cc, const char *rtdir, Buf *err)
{
	Buf log = {0};
#ifdef KS_HAVE_LIBTCC
	if (lang == LANG_C && !use_cc) {
		Host *h = tcc_build(code, rtdir, &log);
		if (!h)
			compile_msg(err, what, lang, "libtcc", &log);
		buf_free(&log);
		return h;
	}
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
	char inc[4200], pinc[4300];
	snprintf(inc, sizeof inc, "-I%s", rtdir);
	/* clang-format off */
	char *argv_c[] = {(char *)host_c_compiler(1), "-std=c11", "-O0", "-fno-builtin", "-ffp-contract=off",
			  "-fno-fast-math", "-shared", "-fPIC", inc, "-o", so, src,
			  "-lm", NULL};
	/* clang-format on */
	/* mk/runtime.mk's SIM_FLAGS are these from -std to -fPIC: keep them equal */
	/* clang-format off */
	char *argv_cxx[24] = {(char *)host_cxx_compiler(), "-std=c++17", "-O0", "-fno-builtin",
			      "-ffp-contract=off", "-fno-fast-math", "-shared", "-fPIC"};
	/* clang-format on */
	int n = 8;
	if (lang == LANG_CXX) {
		const char *why = NULL, *pch = sim_pch(rtdir, &why);
		if (pch) {
			snprintf(pinc, sizeof pinc, "-I%s", pch);
			argv_cxx[n++] = pinc;
			argv_cxx[n++] = "-Winvalid-pch";
		}
		/* clang-format off */
		char *rest[] = {inc, "-include", pch ? PCH_NAME : "ksynth_sim.h", "-x", "c++", src,
				"-o", so, "-lm", NULL};
		/* clang-format on */
		memcpy(&argv_cxx[n], rest, sizeof rest);
		if (run_verbose)
			fprintf(stderr, "%s: %s, %s%s%s\n", ks_prog, argv_cxx[0],
				pch ? "precompiled headers " : "no precompiled headers: ", pch ? pch : why,
				pch ? "/" PCH_NAME ".gch" : "");
	}
	char **argv = lang == LANG_C ? argv_c : argv_cxx;
	Host *h = NULL;
	if (run_cmd(argv, &log) != 0) {
		compile_msg(err, what, lang, argv[0], &log);
	} else {
		if (run_verbose && log.n)
			fwrite(log.p, 1, log.n, stderr);
		h = xmalloc(sizeof *h);
		memset(h, 0, sizeof *h);
		h->fd = open(so, O_RDONLY);
		if (h->fd < 0)
			ks_fatal("%s:", so);
	}
	buf_free(&log);
	run_tmpdone(src);
	run_tmpdone(so);
	return h;
}

Host *host_compile(const char *what, const Buf *code, int lang, int use_cc, const char *rtdir)
{
	Buf err = {0};
	Host *h = host_try_compile(what, code, lang, use_cc, rtdir, &err);
	if (!h)
		compile_failed(&err);
	buf_free(&err);
	return h;
}

void host_load(Host *h)
{
	if (!h || h->fd < 0 || h->so)
		return;
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", h->fd);
	h->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h->so)
		ks_fatal("cannot load the compiled code: %s", dlerror());
}

void *host_sym(Host *h, const char *name)
{
#ifdef KS_HAVE_LIBTCC
	if (h->tcc)
		return tcc_get_symbol(h->tcc, name);
#endif
	if (!h->so)
		ks_fatal("internal error: %s looked up in code not loaded", name);
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
	if (h->fd >= 0)
		close(h->fd);
	free(h);
}
