/*
 * kverify: re-checks a dataset that `make dataset` made, on the machine
 * at hand (doc/dataset.md, "make verify").
 *
 *   kverify [-j N] [--shard S] [--work DIR] [--bin DIR] [--json FILE] [--run-foreign] DATASET
 *   kverify index --work DIR [--shard S] [--bin DIR] [--run-foreign] DATASET
 *   kverify shard --work DIR [--bin DIR] K
 *   kverify report --work DIR [--json FILE] DATASET
 *
 * The first form does the three steps below in one process, N shards at
 * a time, in a work folder of its own (or DIR, kept); `make verify` runs
 * them as a Make graph over shards, as `make dataset` builds.
 *
 *   index   reads the dataset's files once, checks that each record is
 *           well formed and that the files agree, and writes the work
 *           folder: WORK/index.txt, WORK/env and a folder per shard of S
 *           kernels (pack/verify_read.c)
 *   shard   makes shard K's records again with the tools and compares
 *           (pack/verify_rederive.c), then compiles, runs and
 *           gradient-checks their own code with krun, confined
 *           (pack/verify_run.c): WORK/K.ver (pack/verify_shard.c)
 *   report  reads index.txt and every K.ver, prints the failures and the
 *           summary with the quality figures, writes verify.json and
 *           exits 0 only when every record and every file passed
 *           (pack/verify_report.c)
 *
 * The steps are kverify's own files, behind pack/verify.h, linked into it
 * alone (mk/tools.mk), so that changing one remakes no other tool and no
 * dataset; this file holds the options and the order of the steps.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/ks.h"
#include "pack/verify.h"

static const char usage_text[] =
	"usage: kverify [-j N] [--shard S] [--work DIR] [--bin DIR] [--json FILE] [--run-foreign] DATASET\n"
	"       kverify index --work DIR [--shard S] [--bin DIR] [--run-foreign] DATASET\n"
	"       kverify shard --work DIR [--bin DIR] K\n"
	"       kverify report --work DIR [--json FILE] DATASET\n";

static KS_NORETURN void usage(int status)
{
	fputs(usage_text, status ? stderr : stdout);
	exit(status);
}

/* kverify shard K */
static int do_shard(const char *karg)
{
	if (!vf_opt.work || !karg)
		usage(2);
	char *e;
	long k = strtol(karg, &e, 10);
	if (*e || k < 0)
		usage(2);
	return verify_shard(k);
}

/* ---- kverify DATASET: the three steps here -------------------------------- */

static char *own_work; /* a work folder made here, removed at exit */

/* PATH, and all that it holds */
static void rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				char *p = vf_pathf("%s/%s", path, de->d_name);
				rm_rf(p);
				free(p);
			}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static pid_t main_pid;

static void remove_own_work(void)
{
	if (own_work && getpid() == main_pid)
		rm_rf(own_work);
}

/* kverify DATASET: index, the shards not up to date, report */
static int do_all(void)
{
	if (!vf_opt.data)
		usage(2);
	main_pid = getpid();
	if (!vf_opt.work) {
		const char *t = getenv("TMPDIR");
		own_work = vf_pathf("%s/kverify.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(own_work))
			ks_fatal("%s:", own_work);
		vf_opt.work = own_work;
		atexit(remove_own_work);
	}
	verify_index();
	if (verify_shards(own_work != NULL))
		ks_fatal("a shard could not be verified (its message is above)");
	return verify_report();
}

int main(int argc, char **argv)
{
	ks_prog = "kverify";
	int first = 1;
	const char *cmd = NULL, *arg = NULL;
	if (argc > 1 && (!strcmp(argv[1], "index") || !strcmp(argv[1], "shard") || !strcmp(argv[1], "report"))) {
		cmd = argv[1];
		first = 2;
	}
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		char *e;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--work") && has)
			vf_opt.work = argv[++i];
		else if (!strcmp(a, "--bin") && has)
			vf_opt.bin = argv[++i];
		else if (!strcmp(a, "--json") && has)
			vf_opt.json = argv[++i];
		else if (!strcmp(a, "--shard") && has) {
			vf_opt.shard = strtol(argv[++i], &e, 10);
			if (*e || vf_opt.shard < 1)
				usage(2);
		} else if (!strcmp(a, "--run-foreign")) {
			vf_opt.run_foreign = 1;
		} else if (!strncmp(a, "-j", 2) && (a[2] || has)) {
			vf_opt.jobs = strtol(a[2] ? a + 2 : argv[++i], &e, 10);
			if (*e || vf_opt.jobs < 1 || vf_opt.jobs > 1024)
				usage(2);
		} else if (a[0] == '-' && a[1])
			usage(2);
		else if (!arg)
			arg = a;
		else
			usage(2);
	}
	/* the tools run in the work folder's subfolders: its path, absolute */
	static char cwd[4096];
	if (vf_opt.work && vf_opt.work[0] != '/') {
		if (!getcwd(cwd, sizeof cwd - strlen(vf_opt.work) - 2))
			ks_fatal("getcwd:");
		strcat(strcat(cwd, "/"), vf_opt.work);
		vf_opt.work = cwd;
	}
	if (!vf_opt.jobs) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		vf_opt.jobs = c > 0 ? c : 1;
	}
	if (!cmd) {
		vf_opt.data = arg;
		return do_all();
	}
	if (!strcmp(cmd, "shard"))
		return do_shard(arg);
	vf_opt.data = arg;
	if (!vf_opt.work || !vf_opt.data)
		usage(2);
	return !strcmp(cmd, "index") ? verify_index() : verify_report();
}
