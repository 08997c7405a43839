/*
 * run_confine.c: where executed code runs — a confined child process.
 *
 * Kernel code that krun compiles for the host (cpu's C, sim's C++) may
 * not be these tools' own: a dataset's record, a model's completion, a
 * file a user got from somewhere.  It never runs in krun's own process.
 * A child is forked after the compile and confined before the code is
 * loaded (dlopen runs a shared object's constructors; libtcc's in-memory
 * relocation runs nothing):
 *
 *   rlimits   CPU time (--timeout, then SIGKILL a second later), address
 *             space (what the child has at the fork plus --memory MiB),
 *             file size (RUN_FILE_MB: the records it prints), no core
 *             file; stdin is /dev/null
 *   seccomp   a filter allowing what a kernel and krun's harness need:
 *             memory (mmap, mprotect, brk), reading, writing to stdout
 *             and stderr only, signals but SIGSYS's, clocks and sleeping
 *             (the deadline bounds it), exit.  While
 *             the code is loaded, files may also be opened for reading
 *             (the shared object, the libraries it needs); run_seal then
 *             stacks a second filter that forbids that too.  Anything
 *             else (open for writing, exec, fork and clone, sockets,
 *             ptrace, kill...) is trapped before it happens.
 *
 * A trapped system call ends the child at once, its number left in a page
 * the parent shares, and the parent reports "krun: K: the kernel's code
 * made a forbidden system call (NAME)", K the kernel running (or the code
 * being loaded); a child past its CPU time, its file size or its wall
 * deadline is killed and said so.  Each is a one-line error and exit
 * status 1, never a crash of krun.  The same shared page carries the
 * phase (run_phase, run_guard: which kernel is running), so that a
 * deadline that fires in the parent names what the child was doing.
 *
 * --device cuda runs no code of the record on the host (the CUDA driver
 * loads the cubin onto the GPU) and is not confined: the driver needs
 * what a confined child may not do.  doc/dataset.md has the threat model.
 */
#define _GNU_SOURCE /* on_exit, SIGSYS's siginfo fields */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/* ---- the page the parent and its confined child share ----------------- */

/* Made before the first fork, on first use.  phase: the deadline's two
 * messages, the current one made so by one store (the handler that reads
 * it never sees half a message); who: what a trapped system call is
 * charged to; sysno: the trapped call's number plus one (0: none). */
typedef struct Shared {
	char phase[2][700];
	volatile sig_atomic_t cur;
	char who[600];
	volatile sig_atomic_t loading;
	volatile sig_atomic_t sysno;
} Shared;
static Shared *shared;

static Shared *sh(void)
{
	if (!shared) {
		void *p = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			ks_fatal("mmap:");
		shared = p;
	}
	return shared;
}

/* ---- the deadline and guarding a launch ------------------------------ */

/* --timeout bounds a whole run: one alarm, armed once, whose handler says
 * what was going on (the phase) and ends krun as a crash does; a confined
 * child running then is killed first. */
static unsigned deadline_s;
static const int guard_sig[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction guard_old[KS_NELEM(guard_sig)];
static char guard_msg[600];

static void on_guard(int sig)
{
	const char *m = sig == SIGALRM ? shared->phase[shared->cur] : guard_msg;
	ssize_t r = write(2, m, strlen(m));
	(void)r;
	run_cleanup();
	_exit(1);
}

void run_deadline(unsigned timeout)
{
	sh();
	deadline_s = timeout;
	if (!timeout) {
		alarm(0);
		return;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_guard;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(timeout);
}

void run_phase(const char *fmt, ...)
{
	char what[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	Shared *s = sh();
	int next = !s->cur;
	snprintf(s->phase[next], sizeof s->phase[next], "%s: %s did not finish within %u s (--timeout)\n", ks_prog,
		 what, deadline_s);
	s->cur = next;
}

void run_guard(const char *what)
{
	run_phase("%s", what);
	snprintf(shared->who, sizeof shared->who, "%s", what);
	shared->loading = 0;
	snprintf(guard_msg, sizeof guard_msg, "%s: %s crashed (a fatal signal)\n", ks_prog, what);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_guard;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < KS_NELEM(guard_sig); i++)
		sigaction(guard_sig[i], &sa, &guard_old[i]);
}

void run_unguard(void)
{
	for (size_t i = 0; i < KS_NELEM(guard_sig); i++)
		sigaction(guard_sig[i], &guard_old[i], NULL);
}

/* ---- the child's side ------------------------------------------------- */

/* A trapped call: its number to the shared page, and out at once. */
static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	shared->sysno = si->si_syscall + 1;
	_exit(1);
}

/* The child never runs krun's exit handlers (a sanitizer's leak check
 * would fork); its output is flushed and it leaves. */
static void child_exit(int status, void *arg)
{
	(void)arg;
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

static void limit(int res, rlim_t soft, rlim_t hard, const char *name)
{
	struct rlimit r = {soft, hard};
	if (setrlimit(res, &r))
		ks_fatal("setrlimit(%s):", name);
}

/* The pages the process has now (/proc/self/statm's first field). */
static size_t vm_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	if (!f || fscanf(f, "%lu", &pages) != 1)
		ks_fatal("/proc/self/statm: cannot read the process's size (is /proc mounted?)");
	fclose(f);
	return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void allow(scmp_filter_ctx c, int nr)
{
	if (seccomp_rule_add(c, SCMP_ACT_ALLOW, nr, 0))
		ks_fatal("seccomp: cannot allow system call %d", nr);
}

/* The filters as BPF programs (sock_filter arrays): made by libseccomp
 * once, in krun, before the first fork (making them takes longer than a
 * short kernel runs); a child only loads them. */
static struct sock_fprog prog[2]; /* [load] */

/* The filter: the calls a kernel and the harness around it make; with
 * load, opening files for reading too. */
static void make_filter(int load)
{
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_TRAP);
	if (!c || seccomp_attr_set(c, SCMP_FLTATR_CTL_NNP, 0))
		ks_fatal("seccomp: cannot make a filter");
	/* clang-format off */
	static const int plain[] = {
		SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(readv), SCMP_SYS(lseek),
		SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(close),
		SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect),
		SCMP_SYS(madvise), SCMP_SYS(brk),
		SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
		SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getrandom),
		SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday),
		SCMP_SYS(time), SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(sched_yield), SCMP_SYS(getrlimit), SCMP_SYS(prlimit64),
		SCMP_SYS(exit), SCMP_SYS(exit_group),
	};
	/* clang-format on */
	for (size_t i = 0; i < KS_NELEM(plain); i++)
		allow(c, plain[i]);
	int bad = 0;
	/* output to stdout and stderr only */
	for (int fd = 1; fd <= 2; fd++) {
		bad |= seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, fd));
		bad |= seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(writev), 1, SCMP_A0(SCMP_CMP_EQ, fd));
	}
	/* stdio asks whether stdout is a terminal */
	bad |= seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, TCGETS));
	/* any handler but SIGSYS's, which stays the one that reports */
	bad |= seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1, SCMP_A0(SCMP_CMP_NE, SIGSYS));
	if (load) {
		/* reading: no write access, no creating, no truncating */
		scmp_datum_t w = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | O_TMPFILE;
		bad |= seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
					SCMP_A2(SCMP_CMP_MASKED_EQ, w, O_RDONLY));
		/* run_seal's filter; one more can only forbid more */
		bad |= seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
					SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP));
	}
	if (bad)
		ks_fatal("seccomp: cannot add a rule");
	/* the program, through a pipe (libseccomp exports to a descriptor) */
	int fd[2];
	if (pipe(fd))
		ks_fatal("pipe:");
	if (seccomp_export_bpf(c, fd[1]))
		ks_fatal("seccomp: cannot make the filter's program");
	close(fd[1]);
	Buf bpf = {0};
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd[0], chunk, sizeof chunk)) > 0)
		buf_put(&bpf, chunk, (size_t)n);
	close(fd[0]);
	if (n < 0 || !bpf.n || bpf.n % sizeof(struct sock_filter))
		ks_fatal("seccomp: a malformed filter program");
	prog[load].len = (unsigned short)(bpf.n / sizeof(struct sock_filter));
	prog[load].filter = (struct sock_filter *)bpf.p;
	seccomp_release(c);
}

static void filter(int load)
{
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog[load], 0, 0))
		ks_fatal("seccomp: cannot load the filter:");
}

void run_confine(const char *code, const RunLimits *lim)
{
	Shared *s = sh();
	s->sysno = 0;
	snprintf(s->who, sizeof s->who, "%s", code);
	s->loading = 1;
	int in = open("/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0)
		ks_fatal("/dev/null:");
	close(in);
	limit(RLIMIT_CORE, 0, 0, "RLIMIT_CORE");
	if (lim->cpu_s)
		limit(RLIMIT_CPU, lim->cpu_s, lim->cpu_s + 1, "RLIMIT_CPU");
	rlim_t fsz = (rlim_t)RUN_FILE_MB << 20;
	limit(RLIMIT_FSIZE, fsz, fsz, "RLIMIT_FSIZE");
	rlim_t as = (rlim_t)vm_bytes() + ((rlim_t)lim->mem_mb << 20);
	limit(RLIMIT_AS, as, as, "RLIMIT_AS");
	if (lim->wall_s)
		run_deadline(lim->wall_s);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSYS, &sa, NULL);
	on_exit(child_exit, NULL);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		ks_fatal("prctl(PR_SET_NO_NEW_PRIVS):");
	filter(1);
}

void run_seal(void) { filter(0); }

/* ---- the parent's side ------------------------------------------------ */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void say(Buf *err, const char *fmt, ...) KS_PRINTF(2, 3);
static void say(Buf *err, const char *fmt, ...)
{
	char b[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	if (err)
		buf_puts(err, b);
	else
		fputs(b, stderr);
}

/* The phase text without its "did not finish" tail: what was running. */
static void phase_what(char *out, size_t n)
{
	const char *p = shared->phase[shared->cur], *pre = strchr(p, ' ');
	const char *tail = strstr(p, " did not finish");
	if (!pre || !tail || tail < pre)
		snprintf(out, n, "the code");
	else
		snprintf(out, n, "%.*s", (int)(tail - pre - 1), pre + 1);
}

/* The signal mask before run_confined_fork blocked SIGCHLD. */
static sigset_t old_mask;

int run_confined_wait(int pid, const RunLimits *lim, Buf *err)
{
	/* SIGCHLD blocked since before the fork (run_confined_fork) */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	double end = lim->wall_s ? now_s() + lim->wall_s + 2 : 0;
	int st = 0, r, late = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	for (;;) {
		while ((r = wait4(pid, &st, WNOHANG, &ru)) < 0 && errno == EINTR)
			;
		if (r != 0)
			break;
		struct timespec ts = {1, 0}, *tp = NULL;
		if (end) {
			double left = end - now_s();
			if (left <= 0) {
				kill(pid, SIGKILL);
				while ((r = wait4(pid, &st, 0, &ru)) < 0 && errno == EINTR)
					;
				late = 1;
				break;
			}
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tp = &ts;
		}
		if (sigtimedwait(&chld, NULL, tp) < 0 && errno != EAGAIN && errno != EINTR)
			ks_fatal("sigtimedwait:");
	}
	run_child(0);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (r < 0)
		ks_fatal("waitpid:");
	char what[600];
	phase_what(what, sizeof what);
	if (shared->sysno) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, shared->sysno - 1);
		if (shared->loading)
			say(err, "%s: %s: the code made a forbidden system call (%s) as it was loaded\n", ks_prog,
			    shared->who, name ? name : "unknown");
		else
			say(err, "%s: %s: the kernel's code made a forbidden system call (%s)\n", ks_prog,
			    shared->who, name ? name : "unknown");
		free(name);
		return -1;
	}
	if (late) {
		say(err, "%s", shared->phase[shared->cur]);
		return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	int sig = WTERMSIG(st);
	if (sig == SIGSYS) /* trapped with SIGSYS blocked, as posix_spawn and system() block it */
		say(err, "%s: %s: %s made a forbidden system call%s (unnamed: it had blocked signals)\n", ks_prog,
		    shared->who, shared->loading ? "the code" : "the kernel's code",
		    shared->loading ? " as it was loaded" : "");
	else if (sig == SIGXCPU ||
		 (sig == SIGKILL && lim->cpu_s && ru.ru_utime.tv_sec + ru.ru_stime.tv_sec >= (time_t)lim->cpu_s))
		say(err, "%s: %s used more than its %u s of CPU time (--timeout)\n", ks_prog, what, lim->cpu_s);
	else if (sig == SIGXFSZ)
		say(err, "%s: %s wrote more than %d MiB\n", ks_prog, what, RUN_FILE_MB);
	else
		say(err, "%s: %s: killed by signal %d\n", ks_prog, what, sig);
	return -1;
}

/* SIGINT, SIGTERM and SIGHUP wait until the child is krun's to stop
 * (run_child_kill), so that none can leave it running; SIGCHLD stays
 * blocked for run_confined_wait. */
int run_confined_fork(void)
{
	sh();
	if (!prog[0].filter) {
		make_filter(0);
		make_filter(1);
	}
	fflush(stdout);
	fflush(stderr);
	sigset_t hold, term;
	sigemptyset(&term);
	sigaddset(&term, SIGINT);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGHUP);
	hold = term;
	sigaddset(&hold, SIGCHLD);
	sigprocmask(SIG_BLOCK, &hold, &old_mask);
	pid_t parent = getpid();
	int pid = fork();
	if (pid < 0)
		ks_fatal("fork:");
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		/* krun gone, however it went: so is the child */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		return 0;
	}
	run_child_kill(pid, SIGKILL);
	sigprocmask(SIG_UNBLOCK, &term, NULL);
	return pid;
}

int run_confined(const char *code, int (*fn)(void *), void *arg, const RunLimits *lim)
{
	int pid = run_confined_fork();
	if (pid == 0) {
		run_confine(code, lim);
		exit(fn(arg));
	}
	int st = run_confined_wait(pid, lim, NULL);
	return st < 0 ? 1 : st;
}
