/*
 * verify_rederive.c: a shard's records made again by the tools, and
 * compared with their bytes (kverify shard, verify.h).
 *
 * In WORK/K/DEVICE, a batch per tool as make dataset's steps run them
 * (`--each`): kgen makes the record's kernel again (its source, and its
 * coverage counts), kparse its IR from the source, kfmt --hash its
 * ir_hash, kdiff and the emitter its forward and backward code from the
 * record's IR; each must equal the record's bytes.  Code that is not
 * what these tools make of the record's IR is foreign (VRec's foreign_f,
 * foreign_b): verify_run.c does not run it unless told to.  A field that
 * differs fails the record when the dataset was made by these tools,
 * else it is a difference, reported (vf_rec_code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "lib/ks.h"
#include "pack/verify.h"

/* Do DIR/A (the record's) and DIR/B (these tools') hold the same bytes?
 * If not, DETAIL says at which line they part. */
static int same_files(const char *dir, const char *a, const char *b, char *detail, size_t dn)
{
	char *pa = vf_pathf("%s/%s", dir, a), *pb = vf_pathf("%s/%s", dir, b);
	size_t na, nb;
	char *sa = vf_slurp(pa, &na), *sb = vf_slurp(pb, &nb);
	int same = sa && sb && na == nb && !memcmp(sa, sb, na);
	if (!same && sa && sb) {
		size_t i = 0, line = 1, bol = 0;
		while (i < na && i < nb && sa[i] == sb[i]) {
			if (sa[i] == '\n') {
				line++;
				bol = i + 1;
			}
			i++;
		}
		size_t ea = strcspn(sa + bol, "\n"), eb = strcspn(sb + bol, "\n");
		Buf x = {0}, y = {0};
		buf_first_line(&x, sa + bol, ea < 70 ? ea : 70);
		buf_first_line(&y, sb + bol, eb < 70 ? eb : 70);
		buf_putc(&x, 0);
		buf_putc(&y, 0);
		snprintf(detail, dn, "line %zu is '%s'; these tools write '%s'", line, i < na ? x.p : "(the end)",
			 i < nb ? y.p : "(the end)");
		buf_free(&x);
		buf_free(&y);
	} else if (!same) {
		snprintf(detail, dn, "%s is missing", sa ? b : a);
	}
	free(sa);
	free(sb);
	free(pa);
	free(pb);
	return same;
}

/* TOOL [FLAG] --each over (IN[i], OUT[i]) for the i with IN[i] set, in
 * DIR: WHY[i] NULL where OUT[i] was made, else the reason (malloc'd).  A
 * line the batch gave no status (it died) is made by a run of its own. */
static void each_tool(const char *dir, const char *dev, const char *tool, const char *flag, int n, char **in,
		      char **out, char **why)
{
	Buf l = {0};
	for (int i = 0; i < n; i++)
		if (in[i])
			buf_printf(&l, "%s %s\n", in[i], out[i]);
	for (int i = 0; i < n; i++)
		why[i] = NULL;
	if (!l.n)
		return;
	char *list = vf_pathf("%s/../%s.%s.list", dir, dev, tool), *status = vf_pathf("%s.status", list),
	     *err = vf_pathf("%s.err", list);
	out_write_whole(list, l.p, l.n);
	const char *argv[5] = {tool}, **a = argv + 1;
	if (flag)
		*a++ = flag;
	*a++ = "--each";
	*a++ = list;
	*a = NULL;
	vf_run(dir, argv, status, err);
	size_t sn;
	char *st = vf_slurp(status, &sn);
	for (int i = 0; i < n; i++) {
		if (!in[i])
			continue;
		char *s = vf_status_of(st, out[i]);
		if (!s) {
			const char *one[6] = {tool}, **b = one + 1;
			if (flag)
				*b++ = flag;
			*b++ = in[i];
			*b++ = "-o";
			*b++ = out[i];
			*b = NULL;
			s = vf_run(dir, one, NULL, err) ? vf_first_line_of(err) : xstrdup("");
		}
		if (*s)
			why[i] = s;
		else
			free(s);
	}
	free(st);
	free(list);
	free(status);
	free(err);
	buf_free(&l);
}

/* FILE's coverage rows (kgen --coverage: KIND NAME COUNT) added to C */
static void cov_add(Cov *c, const char *file)
{
	size_t n;
	char *s = vf_slurp(file, &n);
	for (char *l = s; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
		char kind[64], name[128];
		unsigned long long k;
		if (sscanf(l, "%63s %127s %llu", kind, name, &k) != 3)
			continue;
		char row[200];
		snprintf(row, sizeof row, "%s %s", kind, name);
		int i;
		for (i = 0; i < c->n && strcmp(c->row[i], row); i++)
			;
		if (i == c->n) {
			c->row = xrealloc(c->row, sizeof *c->row * (size_t)(c->n + 1));
			c->count = xrealloc(c->count, sizeof *c->count * (size_t)(c->n + 1));
			c->row[c->n] = xstrdup(row);
			c->count[c->n++] = 0;
		}
		c->count[i] += k;
	}
	free(s);
}

/* The records of one device of shard K, in DIR, made again. */
void vf_rederive(const char *dir, VRec **r, int n, int dev, const Env *env, Cov *cov)
{
	char **in = xmalloc(sizeof *in * (size_t)n), **out = xmalloc(sizeof *out * (size_t)n),
	     **in2 = xmalloc(sizeof *in2 * (size_t)n), **code = xmalloc(sizeof *code * (size_t)n),
	     **why = xmalloc(sizeof *why * (size_t)n);
	char detail[600], cats[300], seed[32];
	const char *c = dev ? "cu" : "c", *emitter = dev ? "kemit-cu" : "kemit-cpu";
	snprintf(cats, sizeof cats, "%s", env->cats);
#define EACH_REC for (int i = 0; i < n; i++)
#define F(fmt) vf_pathf(fmt, r[i]->name)

	/* the source: kgen's kernel INDEX, and its coverage counts */
	EACH_REC {
		char idx[32];
		snprintf(idx, sizeof idx, "%llu", r[i]->idx);
		snprintf(seed, sizeof seed, "%llu", r[i]->seed);
		char *g = F("%s.g.py"), *cv = F("%s.cov"), *py = F("%s.py"), *err = vf_pathf("%s/../kgen.err", dir);
		/* kgen --verify keeps a kernel's first draw that its krun check
		 * passes; the source must be one of the draws (the check below
		 * runs the record's own code) */
		char draw[16], later[sizeof detail]; /* detail: where draw 0 parts from the source */
		int failed = 0, same = 0;
		for (int d = 0; d <= GEN_MAX_REDRAW && !failed && !same; d++) {
			snprintf(draw, sizeof draw, "%d", d);
			/* clang-format off */
			const char *argv[] = {"kgen", "-c", cats, "-s", seed, "-n", "1", "--first", idx, "--draw", draw,
					      "-o", g, NULL};
			/* clang-format on */
			failed = vf_run(dir, argv, NULL, err) != 0;
			same = !failed && same_files(dir, py, g, d ? later : detail, sizeof detail);
		}
		if (failed) {
			char *w = vf_first_line_of(err);
			vf_rec_code(r[i], "source", "kgen: %s", w);
			free(w);
		} else if (!same) {
			vf_rec_code(r[i], "source", "not kgen's kernel %llu (draw 0 to %d): %s", r[i]->idx,
				    GEN_MAX_REDRAW, detail);
		} else {
			r[i]->src_ok = 1;
			/* clang-format off */
			const char *cv_argv[] = {"kgen", "-c", cats, "-s", seed, "-n", "1", "--first", idx, "--draw", draw,
						 "--coverage", "-o", cv, NULL};
			/* clang-format on */
			vf_run(dir, cv_argv, NULL, NULL); /* exit 1: rows of zero, as one kernel has */
			char *p = vf_pathf("%s/%s", dir, cv);
			cov_add(cov, p);
			free(p);
		}
		free(g);
		free(cv);
		free(py);
		free(err);
	}

	/* the IR: kparse's of the source */
	EACH_REC {
		in[i] = F("%s.py");
		out[i] = F("%s.v.kir");
	}
	each_tool(dir, vf_dev_name[dev], "kparse", NULL, n, in, out, why);
	EACH_REC {
		char *kir = F("%s.kir");
		if (why[i])
			vf_rec_code(r[i], "ir", "kparse: %s", why[i]);
		else if (!same_files(dir, kir, out[i], detail, sizeof detail))
			vf_rec_code(r[i], "ir", "not kparse's IR of the source: %s", detail);
		free(kir);
	}
	vf_free_why(why, n);

	/* meta.ir_hash: kfmt --hash's of the record's IR */
	EACH_REC {
		free(in[i]);
		free(out[i]);
		in[i] = F("%s.kir");
		out[i] = F("%s.v.hash");
	}
	each_tool(dir, vf_dev_name[dev], "kfmt", "--hash", n, in, out, why);
	EACH_REC {
		if (why[i]) {
			vf_rec_code(r[i], "ir-hash", "kfmt --hash: %s", why[i]);
			continue;
		}
		char *p = vf_pathf("%s/%s", dir, out[i]), h[64] = "none";
		size_t len, nl = strlen(r[i]->name);
		char *s = vf_slurp(p, &len);
		for (char *l = s; l && *l; l += strcspn(l, "\n"), l += *l == '\n')
			if (!strncmp(l, r[i]->name, nl) && l[nl] == ' ')
				sscanf(l + nl + 1, "%63s", h);
		if (strcmp(h, r[i]->hash))
			vf_rec_code(r[i], "ir-hash", "meta.ir_hash is %s; kfmt --hash gives %s", r[i]->hash, h);
		free(s);
		free(p);
	}
	vf_free_why(why, n);

	/* the backward IR: kdiff's of the record's IR */
	EACH_REC {
		free(out[i]);
		out[i] = F("%s.d.kir");
	}
	each_tool(dir, vf_dev_name[dev], "kdiff", NULL, n, in, out, why);
	EACH_REC {
		if (why[i])
			vf_rec_code(r[i], "backward", "kdiff: %s", why[i]);
		else
			r[i]->have_dkir = 1;
	}
	vf_free_why(why, n);

	/* forward and backward: the emitter's of the IR and of kdiff's */
	EACH_REC {
		in2[i] = r[i]->have_dkir ? F("%s.d.kir") : NULL;
		code[i] = vf_pathf("%s.v.b.%s", r[i]->name, c);
		free(out[i]);
		out[i] = vf_pathf("%s.v.f.%s", r[i]->name, c);
	}
	each_tool(dir, vf_dev_name[dev], emitter, NULL, n, in, out, why);
	EACH_REC {
		char *mine = vf_pathf("%s.f.%s", r[i]->name, c);
		r[i]->foreign_f = why[i] || !same_files(dir, mine, out[i], detail, sizeof detail);
		if (why[i])
			vf_rec_code(r[i], "forward", "%s: %s", emitter, why[i]);
		else if (r[i]->foreign_f)
			vf_rec_code(r[i], "forward", "not %s's code of the IR: %s", emitter, detail);
		free(mine);
	}
	vf_free_why(why, n);
	each_tool(dir, vf_dev_name[dev], emitter, NULL, n, in2, code, why);
	EACH_REC {
		char *mine = vf_pathf("%s.b.%s", r[i]->name, c);
		r[i]->foreign_b = why[i] || (in2[i] && !same_files(dir, mine, code[i], detail, sizeof detail));
		if (why[i])
			vf_rec_code(r[i], "backward", "%s: %s", emitter, why[i]);
		else if (r[i]->foreign_b)
			vf_rec_code(r[i], "backward", "not %s's code of kdiff's IR: %s", emitter, detail);
		free(mine);
	}
	vf_free_why(why, n);
	EACH_REC {
		free(in[i]);
		free(in2[i]);
		free(out[i]);
		free(code[i]);
	}
#undef EACH_REC
#undef F
	free(in);
	free(in2);
	free(out);
	free(code);
	free(why);
}
