/*
 * idiom_reduce.c: reductions and histograms: many threads into few
 * elements, by atomics.
 *
 * Matrix-vector products (a thread per row: a GEMV, a dense layer, a
 * linear system's residual, a Jacobi sweep), row sums over a 2-D launch,
 * histograms (counted or weighted, 1-D or joint) and the pass that
 * drains their bins, a point set's extent along a direction (atomic_min,
 * atomic_max), and sums: energies, momenta, masked counts, of the whole
 * set or per group.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/idiom.h"

/* An activation of a layer's sum Z (an atom or a parenthesized term):
 * a rectifier, a leaky one, one clipped at a ceiling (ReLU6's kind),
 * tanh, a sigmoid, a softplus, a SiLU (GELU's sigmoid approximation when
 * its slope is 1.702), an ELU, or one of the smooth responses */
static const char *activation(Kit *k, const char *z)
{
	/* clang-format off */
	switch (rnd(k->g, 9)) {
	case 0: return F(k, "wp.max(%s, 0.0)", z);
	case 1: return F(k, "wp.max(%s, %s * %s)", z, kit_num(k, 0.01, 0.2), z);
	case 2: return F(k, "wp.tanh(%s)", z);
	case 3: return F(k, "1.0 / (1.0 + wp.exp(-%s))", z);
	case 4: return F(k, "wp.log(1.0 + wp.exp(%s))", z);
	case 5: return F(k, "wp.clamp(%s, 0.0, %s)", z, kit_num(k, 1.0, 6.0));
	case 6: return chance(k->g, 50) ? F(k, "%s / (1.0 + wp.exp(-%s))", z, z)
					: F(k, "%s / (1.0 + wp.exp(-%s * %s))", z, kit_num_not(k, 0.5, 2.0, "1.0"), z);
	case 7: return F(k, "wp.where(%s > 0.0, %s, %s * (wp.exp(%s) - 1.0))", z, z, kit_num(k, 0.1, 1.5), z);
	default: return kit_shape(k, z);
	}
	/* clang-format on */
}

/* The other side of a histogram: a thread per bin takes its count and
 * clears it for the next pass (wp.atomic_exch at the thread's own
 * element: ir/order.c finds nothing order-dependent), and writes the
 * bin's density, scaled, normalized, saturating or as a log, maybe as a
 * moving average over the passes; the counts may be summed, and half the
 * time the count of the first pass that filled the bin is kept, set only
 * where it is still 0 (wp.atomic_cas). */
static void drain_bins(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *h = kit_arr(k, ONE(g, "hist", "bins", "counts", "bin_count"), "int", 1);
	const char *d = kit_arr(k, ONE(g, "density", "pdf", "freq", "bin_weight"), "float", 1);
	kit_tid_line(k, 1, t, 0);
	B(k, "c = wp.atomic_exch(%s, %s, 0)", h, t);
	const char *v;
	switch (rnd(g, 4)) {
	case 0:
		v = F(k, "float(c) * %s", kit_coef(k, ONE(g, "inv_total", "norm", "scale"), 0.01, 0.075));
		break;
	case 1:
		/* by the samples' count, a parameter or the total the
		 * binning pass counted */
		if (chance(g, 70))
			v = F(k, "float(c) / %s", kit_fparam(k, ONE(g, "total", "n_samples", "bin_width")));
		else
			v = F(k, "float(c) / float(wp.max(%s[0], 1))",
			      kit_arr(k, ONE(g, "n_counted", "num_samples", "sample_count"), "int", 1));
		break;
	case 2:
		v = F(k, "float(c) / (float(c) + %s)", kit_num_not(k, 0.5, 8.0, "1.0"));
		break;
	default:
		v = F(k, "wp.log(1.0 + float(c)) * %s",
		      kit_coef(k, ONE(g, "gain", "scale", "log_scale"), 0.1, 0.85));
		break;
	}
	if (chance(g, 25)) {
		/* bins of their own widths */
		const char *wd = kit_arr(k, ONE(g, "inv_width", "bin_scale", "inv_bin_width"), "float", 1);
		v = F(k, "%s * %s[%s]", v, wd, t);
	}
	if (chance(g, 40)) {
		const char *a = kit_coef(k, ONE(g, "alpha", "blend", "smoothing"), 0.05, 0.5);
		B(k, "%s[%s] = %s[%s] + %s * (%s - %s[%s])", d, t, d, t, a, v, d, t);
	} else {
		B(k, "%s[%s] = %s", d, t, v);
	}
	if (chance(g, 30)) {
		/* the count's standard error, a Poisson count's square
		 * root, or its relative error */
		const char *e = kit_arr(k, ONE(g, "sigma", "count_err", "stddev"), "float", 1);
		const char *es = chance(g, 50) ? "" : F(k, "%s * ", kit_num_not(k, 0.05, 1.0, "1.0"));
		if (chance(g, 30))
			B(k, "%s[%s] = 1.0 / wp.sqrt(float(c) + 1.0)", e, t);
		else
			B(k, "%s[%s] = %swp.sqrt(float(c))", e, t, es);
	}
	if (chance(g, 25)) {
		/* the distribution's mean, from the bins' centres */
		const char *lo = kit_num(k, -1.0, -0.5);
		B(k, "xc = %s + (float(%s) + 0.5) * %s", lo, t, kit_num(k, 0.01, 0.1));
		B(k, "wp.atomic_add(%s, 0, float(c) * xc)",
		  kit_arr(k, ONE(g, "moment", "mean_acc", "first_moment"), "float", 1));
	}
	if (chance(g, 40))
		B(k, "wp.atomic_add(%s, 0, c)",
		  kit_arr(k, ONE(g, "total_count", "n_total", "count_sum"), "int", 1));
	/* the fullest bin's count, to scale a plot; the bins in use */
	if (chance(g, 30))
		B(k, "wp.atomic_max(%s, 0, c)", kit_arr(k, ONE(g, "peak", "max_count", "mode_count"), "int", 1));
	if (chance(g, 25))
		B(k, "wp.atomic_add(%s, 0, wp.min(c, 1))",
		  kit_arr(k, ONE(g, "nonempty", "used_bins", "occupied"), "int", 1));
	if (chance(g, 50))
		B(k, "wp.atomic_cas(%s, %s, 0, c)",
		  kit_arr(k, ONE(g, "first_count", "first_fill", "initial"), "int", 1), t);
	kit_end(k, ONE(g, "drain_bins", "normalize_bins", "take_counts"));
}

/* the extent of D (a local's name), padded by R when R is not "", into
 * the arrays LO (atomic_min) and HI (atomic_max) at AT; either may be
 * absent (0) */
static void extent(Kit *k, const char *lo, const char *hi, const char *at, const char *d, const char *r)
{
	if (lo && r[0])
		B(k, "wp.atomic_min(%s, %s, %s - %s)", lo, at, d, r);
	else if (lo)
		B(k, "wp.atomic_min(%s, %s, %s)", lo, at, d);
	if (hi && r[0])
		B(k, "wp.atomic_max(%s, %s, %s + %s)", hi, at, d, r);
	else if (hi)
		B(k, "wp.atomic_max(%s, %s, %s)", hi, at, d);
}

/* row sums of a response, a thread per matrix entry (a 1-D array
 * indexed by j would need as many elements as the launch's second
 * dimension) */
static void row_sums(Kit *k, const char *a)
{
	G *g = k->g;
	const char *y = kit_arr(k, ONE(g, "row_sum", "out", "result"), "float", 1);
	kit_tid_line(k, 2, "i", "j");
	/* what an entry adds: a response, its square, its
	 * magnitude, its exponential (a softmax's denominator),
	 * its product with another matrix's entry, maybe scaled;
	 * the entry maybe taken about its row's mean (a
	 * variance) */
	const char *term;
	int what = rnd(g, 9);
	/* the entry itself, about its row's mean, its
	 * difference from a target matrix's (an error), or
	 * scaled to the row's own scale (a normalization) */
	static const int ew[] = {40, 25, 20, 15};
	int src = wpick(g, ew, 4);
	const char *e = "e";
	if (src == 1)
		B(k, "e = %s[i, j] - %s[i]", a, kit_arr(k, ONE(g, "row_mean", "mean", "center"), "float", 1));
	else if (src == 2)
		B(k, "e = %s[i, j] - %s[i, j]", a, kit_arr(k, ONE(g, "target", "ref", "A_ref"), "float", 2));
	else if (src == 3)
		B(k, "e = %s[i, j] * %s[i]", a,
		  kit_arr(k, ONE(g, "inv_scale", "row_norm", "inv_sigma"), "float", 1));
	else if (what != 0)
		B(k, "e = %s[i, j]", a);
	else
		e = F(k, "%s[i, j]", a);
	/* maybe winsorized: clipped to a tuned range, so that
	 * outliers weigh no more than it */
	double clip = 0;
	if (what != 0 && chance(g, 20)) {
		const char *cl = kit_num(k, 0.3, 0.9);
		clip = atof(cl);
		B(k, "e = wp.clamp(e, -%s, %s)", cl, cl);
	}
	if (what == 0) {
		term = kit_response(k, e);
	} else if (what == 4) {
		/* a softmax's denominator, maybe at a temperature,
		 * maybe the stable one's second pass (the row's
		 * maximum taken first) */
		const char *s = kit_num_not(k, 0.5, 3.0, "1.0");
		int st = rnd(g, 3);
		if (st == 2)
			term = F(k, "wp.exp(e - %s[i])",
				 kit_arr(k, ONE(g, "row_max", "max_logit", "shift"), "float", 1));
		else
			term = st == 1 && chance(g, 50) ? "wp.exp(e)" : F(k, "wp.exp(%s * e)", s);
	} else if (what == 5) {
		const char *b2 = kit_arr(k, ONE(g, "B", "other", "rhs"), "float", 2);
		term = F(k, "e * %s[i, j]", b2);
	} else if (what == 6) {
		/* a p-norm's power sum */
		term = F(k, "wp.pow(wp.abs(e), %s)", kit_num(k, 1.5, 3.0));
	} else if (what == 8) {
		/* a logistic loss of the entry as a logit against a
		 * target (binary cross-entropy with logits) */
		const char *tg = F(k, "%s[i, j]", kit_arr(k, ONE(g, "labels", "y_true", "targets"), "float", 2));
		if (chance(g, 40)) {
			/* the labels smoothed towards one half */
			double eps = atof(kit_num(k, 0.02, 0.2));
			B(k, "t = %s * %s + %s", kit_dec(k, 1.0 - eps), tg, kit_dec(k, 0.5 * eps));
			tg = "t";
		}
		/* as written, or in the form that cannot overflow */
		if (chance(g, 50))
			B(k, "loss = wp.log(1.0 + wp.exp(-e)) + (1.0 - %s) * e", tg);
		else
			B(k, "loss = wp.max(e, 0.0) - e * %s + wp.log(1.0 + wp.exp(-wp.abs(e)))", tg);
		term = "loss";
	} else if (what == 7) {
		/* a Huber loss: quadratic near zero, linear past delta */
		const char *dl = kit_num(k, 0.2, 0.8);
		B(k, "ae = wp.abs(e)");
		term = F(k, "wp.where(ae < %s, 0.5 * e * e, %s * (ae - %s))", dl, dl, kit_dec(k, 0.5 * atof(dl)));
	} else {
		term = what == 1 ? "e * e" : what == 2 ? "wp.abs(e)" : kit_prod(k, "e", kit_response(k, "e"));
	}
	if (chance(g, 25))
		term = kit_prod(k, F(k, "%s[i, j]", kit_arr(k, ONE(g, "w", "mask", "entry_weight"), "float", 2)),
				term);
	/* scaled by one gain or a gain per row */
	int sc = rnd(g, 10);
	if (sc < 2)
		term = kit_prod(
			k, F(k, "%s[i]", kit_arr(k, ONE(g, "row_scale", "row_weight", "inv_norm"), "float", 1)),
			term);
	else if (sc < 8 && (what != 0 || chance(g, 30)))
		term = kit_prod(k, kit_coef(k, ONE(g, "scale", "weight", "gain"), 0.2, 0.95), term);
	/* a row mean rather than a sum */
	if (chance(g, 20))
		term = F(k, "%s / float(%s.shape[1])", term, a);
	/* 3: entries above a threshold (or away from zero)
	 * counted; 4: the total too; 5: the entries' squares, a
	 * second moment; 6: the row's largest entry */
	int second = rnd(g, 7);
	if (second == 4) {
		B(k, "s = %s", term);
		term = "s";
	}
	/* off the diagonal only: a Gershgorin disc's radius
	 * when the term is the magnitude */
	int offd = chance(g, 15);
	if (offd) {
		COV(g, stmt_if);
		B(k, "if i != j:");
		k->ind++;
	}
	if (chance(g, 50)) {
		B(k, "wp.atomic_add(%s, i, %s)", y, term);
	} else {
		COV(g, stmt_array_atomic_add);
		B(k, "%s[i] += %s", y, term);
	}
	if (offd)
		k->ind--;
	if (second == 3) {
		const char *cnt = kit_arr(k, ONE(g, "nnz", "above", "row_count"), "int", 1);
		COV(g, stmt_if);
		/* inside the clipped range, if any, so that it goes
		 * both ways */
		double tr = clip ? 0.6 * clip : 0.5;
		if (chance(g, 35))
			B(k, "if wp.abs(%s) > %s:", e, kit_num(k, 0.05, tr));
		else
			B(k, "if %s > %s:", e, kit_num_not(k, -tr, tr, "0.0"));
		k->ind++;
		B(k, "wp.atomic_add(%s, i, 1)", cnt);
		k->ind--;
	} else if (second == 4) {
		B(k, "wp.atomic_add(%s, 0, s)", kit_arr(k, ONE(g, "total", "sum_all", "grand_total"), "float", 1));
	} else if (second == 5) {
		B(k, "wp.atomic_add(%s, i, %s * %s)",
		  kit_arr(k, ONE(g, "sum_sq", "second_moment", "sq_sum"), "float", 1), e, e);
	} else if (second == 6) {
		B(k, "wp.atomic_max(%s, i, %s)", kit_arr(k, ONE(g, "row_peak", "peak", "max_entry"), "float", 1),
		  e);
	}
	kit_end(k, ONE(g, "row_sums", "row_energy", "reduce_rows"));
}

/* y = A x, a thread per row: a plain product, a GEMV that scales and
 * accumulates, or a dense layer; the matrix dense, sparse in ELL form
 * (a column index per entry), lower triangular, or applied transposed */
static void mat_vec(Kit *k, const char *a)
{
	G *g = k->g;
	static const int sw[] = {55, 20, 12, 13};
	int store = wpick(g, sw, 4);
	const char *cols = store == 1 ? kit_arr(k, ONE(g, "cols", "col_idx", "indices"), "int", 2) : 0;
	const char *xv = kit_arr(k, ONE(g, "x", "vec", "inputs"), "float", 1);
	/* 0 the product, 1 a GEMV, 2-3 a dense layer, 4 the residual
	 * b - A x of a linear system, 5 a weighted Jacobi sweep for it
	 * (the matrix square, its inverse diagonal given) */
	int form = rnd(g, 4);
	if (form < 2 && chance(g, 45))
		form = 4 + rnd(g, 2);
	/* an operator's matrix may also be banded (a half-width of
	 * one to four: tridiagonal and up) or upper triangular */
	if ((form < 2 || form > 3) && store == 0 && chance(g, 35))
		store = 4 + rnd(g, 2);
	const char *y = form == 4   ? kit_arr(k, ONE(g, "residual", "res", "r_out"), "float", 1)
			: form == 5 ? kit_arr(k, ONE(g, "x_new", "x_next", "out"), "float", 1)
				    : kit_arr(k, ONE(g, "y", "out", "result"), "float", 1);
	const char *rhs = form >= 4 ? kit_arr(k, ONE(g, "b", "rhs", "f"), "float", 1) : 0;
	const char *bias = form == 2 || form == 3 ? kit_arr(k, ONE(g, "bias", "b", "offset"), "float", 1) : 0;
	int init_bias = bias && chance(g, 40);
	kit_tid_line(k, 1, "i", 0);
	if (init_bias)
		B(k, "acc = %s[i]", bias);
	else
		B(k, "acc = float(0.0)");
	COV(g, stmt_for_dynamic);
	const char *aij = F(k, "%s[i, j]", a), *xj = F(k, "%s[j]", xv);
	/* the inputs maybe through a mask (dropout, a selection) */
	const char *mask =
		form < 4 && chance(g, 20) ? kit_arr(k, ONE(g, "mask", "keep", "dropout"), "float", 1) : 0;
	/* or standardized by the inputs' means and inverse deviations */
	const char *mu = 0, *istd = 0;
	if (form < 4 && chance(g, 20)) {
		mu = kit_arr(k, ONE(g, "x_mean", "mu", "shift"), "float", 1);
		istd = kit_arr(k, ONE(g, "inv_std", "x_scale", "inv_sigma"), "float", 1);
	}
	if (store == 0 || store == 1) {
		B(k, "for j in range(%s.shape[1]):", a);
		if (store == 1)
			xj = F(k, "%s[col]", xv);
	} else if (store == 2) {
		B(k, "for j in range(i + 1):");
	} else if (store == 4) {
		const char *bw = ONE(g, "1", "2", "3", "4");
		B(k, "for j in range(wp.max(i - %s, 0), wp.min(i + %d, %s.shape[1])):", bw, atoi(bw) + 1, a);
	} else if (store == 5) {
		B(k, "for j in range(i, %s.shape[1]):", a);
	} else {
		B(k, "for j in range(%s.shape[0]):", a);
		aij = F(k, "%s[j, i]", a);
	}
	const char *jx = store == 1 ? "col" : "j";
	if (mu)
		xj = F(k, "((%s - %s[%s]) * %s[%s])", xj, mu, jx, istd, jx);
	if (mask)
		xj = F(k, "(%s * %s[%s])", xj, mask, jx);
	k->ind++;
	if (store == 1)
		B(k, "col = %s[i, j]", cols);
	if (form < 4 && chance(g, 25))
		B(k, "acc += %s", kit_prod(k, aij, kit_response(k, xj)));
	else
		B(k, "acc += %s * %s", aij, xj);
	k->ind--;
	if (form == 4) {
		/* of A x = b, or of a damped (Tikhonov) or shifted
		 * system (A + lam I) x = b; maybe with its squared norm,
		 * weighted per row, or its largest entry, a solver's
		 * stopping tests; maybe preconditioned by the inverse
		 * diagonal, with the dot product r.z of conjugate
		 * gradients */
		if (chance(g, 70)) {
			const char *lam = chance(g, 75) ? kit_num(k, 0.005, 0.5)
							: kit_fparam(k, ONE(g, "lam", "damping", "shift"));
			B(k, "r = %s[i] - acc - %s * %s[i]", rhs, lam, xv);
		} else {
			B(k, "r = %s[i] - acc", rhs);
		}
		B(k, "%s[i] = r", y);
		int nrm = rnd(g, 4);
		const char *nn = ONE(g, "r_norm", "res_norm", "norm");
		if (nrm == 1)
			B(k, "wp.atomic_add(%s, 0, r * r)", kit_arr(k, nn, "float", 1));
		else if (nrm == 2) {
			const char *rn = kit_arr(k, nn, "float", 1);
			B(k, "wp.atomic_add(%s, 0, %s[i] * r * r)", rn,
			  kit_arr(k, ONE(g, "row_weight", "wr", "sigma_inv"), "float", 1));
		} else if (nrm == 3)
			B(k, "wp.atomic_max(%s, 0, wp.abs(r))", kit_arr(k, nn, "float", 1));
		if (chance(g, 40)) {
			B(k, "z = r * %s[i]", kit_arr(k, ONE(g, "inv_diag", "diag_inv", "precond"), "float", 1));
			B(k, "%s[i] = z", kit_arr(k, ONE(g, "z_vec", "z_out", "precond_res"), "float", 1));
			B(k, "wp.atomic_add(%s, 0, r * z)", kit_arr(k, ONE(g, "rz", "rho", "r_dot_z"), "float", 1));
		}
	} else if (form == 5) {
		/* Jacobi's step scaled by the inverse diagonal, or
		 * Richardson's by the relaxation alone; maybe with the
		 * step's squared size or largest entry, the sweep's
		 * convergence test */
		const char *om =
			chance(g, 70) ? kit_num(k, 0.5, 0.95) : kit_fparam(k, ONE(g, "omega", "relax", "w"));
		const char *dx = chance(g, 65)
					 ? F(k, "(%s[i] - acc) * %s[i]", rhs,
					     kit_arr(k, ONE(g, "inv_diag", "diag_inv", "precond"), "float", 1))
					 : F(k, "(%s[i] - acc)", rhs);
		int conv = rnd(g, 3);
		if (conv == 0) {
			B(k, "%s[i] = %s[i] + %s", y, xv, kit_prod(k, om, dx));
		} else {
			B(k, "dx = %s", kit_prod(k, om, dx));
			B(k, "%s[i] = %s[i] + dx", y, xv);
			const char *cn = kit_arr(k, ONE(g, "delta", "change", "step_norm"), "float", 1);
			if (conv == 1)
				B(k, "wp.atomic_add(%s, 0, dx * dx)", cn);
			else
				B(k, "wp.atomic_max(%s, 0, wp.abs(dx))", cn);
		}
	} else if (form == 0) {
		/* A x itself, D A x (a diagonal scaling of the rows),
		 * or a response of it */
		int sc = rnd(g, 20);
		if (sc == 0)
			B(k, "%s[i] = acc", y);
		else if (sc < 3)
			B(k, "%s[i] = %s[i] * acc", y, kit_arr(k, ONE(g, "row_scale", "d", "diag"), "float", 1));
		else
			B(k, "%s[i] = %s", y, kit_response(k, "acc"));
	} else if (form == 1) {
		/* y = alpha A x + beta y in place, y += alpha A x (a
		 * Krylov update), or alpha A x + beta c into a new y */
		const char *alpha = kit_coef(k, "alpha", 0.6, 1.35);
		int upd = rnd(g, 4);
		if (upd == 2) {
			B(k, "%s[i] += %s", y, kit_prod(k, alpha, "acc"));
		} else {
			const char *beta = kit_coef(k, "beta", 0.1, 0.85);
			const char *c = upd == 3 ? kit_arr(k, ONE(g, "c", "y_in", "prev"), "float", 1) : y;
			B(k, "%s[i] = %s + %s * %s[i]", y, kit_prod(k, alpha, "acc"), beta, c);
		}
	} else {
		const char *z = "acc";
		if (!init_bias) {
			B(k, "z = acc + %s[i]", bias);
			z = "z";
		}
		/* the pre-activation maybe kept for the backward pass */
		if (chance(g, 30))
			B(k, "%s[i] = %s", kit_arr(k, ONE(g, "pre_act", "z_out", "logits"), "float", 1), z);
		/* maybe a residual layer, its input added back (the
		 * matrix is square), its output scaled, through a
		 * per-output affine (a normalization's gain and shift)
		 * or a dropout mask */
		const char *act = activation(k, z);
		if (chance(g, 20)) {
			/* an activity penalty: L1 for sparsity, or L2 */
			B(k, "h = %s", act);
			act = "h";
			const char *pn = kit_arr(k, ONE(g, "penalty", "act_reg", "sparsity"), "float", 1);
			if (chance(g, 50))
				B(k, "wp.atomic_add(%s, 0, %s * wp.abs(h))", pn, kit_num(k, 0.001, 0.05));
			else
				B(k, "wp.atomic_add(%s, 0, %s * h * h)", pn, kit_num(k, 0.001, 0.05));
		}
		int res = rnd(g, 6);
		if (res == 0) {
			B(k, "%s[i] = %s[i] + %s", y, xv, act);
		} else if (res == 1) {
			const char *sc = kit_coef(k, ONE(g, "out_scale", "gain", "layer_scale"), 0.6, 1.35);
			B(k, "%s[i] = %s", y, kit_prod(k, sc, act));
		} else if (res == 2) {
			const char *ga = kit_arr(k, ONE(g, "gamma", "gain", "scale"), "float", 1);
			const char *be = kit_arr(k, ONE(g, "beta", "out_shift", "norm_bias"), "float", 1);
			if (strcmp(act, "h"))
				B(k, "h = %s", act);
			B(k, "%s[i] = %s[i] * h + %s[i]", y, ga, be);
		} else if (res == 3) {
			/* inverted dropout: the kept outputs scaled by one
			 * over the keep probability */
			const char *dm = kit_arr(k, ONE(g, "drop_mask", "out_mask", "keep_out"), "float", 1);
			if (chance(g, 60))
				B(k, "%s[i] = %s * %s[i] / %s", y, act, dm, kit_num(k, 0.5, 0.95));
			else
				B(k, "%s[i] = %s", y, kit_prod(k, F(k, "%s[i]", dm), act));
		} else {
			B(k, "%s[i] = %s", y, act);
		}
	}
	kit_end(k, form == 2 || form == 3 ? ONE(g, "dense_layer", "linear_forward", "layer")
		   : form == 4            ? ONE(g, "residual", "compute_residual", "linear_residual")
		   : form == 5            ? ONE(g, "jacobi_sweep", "jacobi_step", "relax")
					  : ONE(g, "matvec", "gemv", "apply_operator"));
}

/* a joint histogram of two coordinates, a 2-D array of bins, maybe
 * weighted */
static void histogram_2d(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *pt = chance(g, 50) ? "wp.vec2" : "wp.vec3";
	const char *p = kit_arr(k, ONE(g, "points", "x", "samples", "uv"), pt, 1);
	int weighted = chance(g, 40);
	const char *w = weighted ? kit_arr(k, ONE(g, "weights", "w", "mass"), "float", 1) : 0;
	const char *h = kit_arr(k, ONE(g, "hist2d", "joint", "counts"), weighted ? "float" : "int", 2);
	/* one bin count for both axes, or each axis's from the
	 * array's shape (a grid that need not be square) */
	int from_shape = chance(g, 35);
	const char *nb = from_shape ? 0 : kit_scalar(k, ONE(g, "num_bins", "nbins", "res"), "int");
	/* of a planar point, or of two coordinates of a 3-D one (the
	 * third maybe averaged per cell: a height map) */
	static const int pairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};
	const int *ax = pairs[pt[6] == '3' ? rnd(g, 3) : 0];
	const char *hs = pt[6] == '3' && chance(g, 30)
				 ? kit_arr(k, ONE(g, "height_sum", "cell_sum", "z_sum"), "float", 2)
				 : 0;
	kit_tid_line(k, 1, t, 0);
	if (chance(g, 15)) {
		static const char *const fl[3] = {"flags", "sample_flags", "valid_bits"};
		kit_active_check(k, t, 1, fl);
	}
	B(k, "q = %s[%s]", p, t);
	static const char *const bn[] = {"bx", "by"};
	for (int a = 0; a < 2; a++) {
		const char *n = nb;
		if (from_shape) {
			n = a ? "ny" : "nx";
			B(k, "%s = %s.shape[%d]", n, h, a);
		}
		if (chance(g, 35)) {
			B(k, "%s = int((q[%d] + 1.0) * 0.5 * float(%s))", bn[a], ax[a], n);
		} else {
			const char *lo = kit_num(k, -0.9, -0.3), *hi = kit_num(k, 0.3, 0.9);
			B(k, "%s = int(wp.clamp((q[%d] + %s) / %s, 0.0, 1.0) * float(%s))", bn[a], ax[a], lo + 1,
			  kit_dec(k, atof(hi) - atof(lo)), n);
		}
		B(k, "%s = wp.clamp(%s, 0, %s - 1)", bn[a], bn[a], n);
	}
	if (weighted && chance(g, 40)) {
		const char *qa = F(k, "q[%d]", ax[rnd(g, 2)]);
		B(k, "wp.atomic_add(%s, bx, by, %s)", h, kit_prod(k, F(k, "%s[%s]", w, t), kit_response(k, qa)));
	} else if (weighted) {
		B(k, "wp.atomic_add(%s, bx, by, %s[%s])", h, w, t);
	} else {
		B(k, "wp.atomic_add(%s, bx, by, 1)", h);
	}
	if (hs)
		B(k, "wp.atomic_add(%s, bx, by, q[%d])", hs, ax[2]);
	kit_end(k, ONE(g, "histogram2d", "joint_histogram", "bin_pairs"));
}

/* a histogram of values in [-1, 1), maybe weighted: of an array, of a
 * coordinate of points (heights), or of a subset through an index list */
static void histogram(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	/* 0-2 an array, 3 a coordinate, 4 a subset, 5 the speeds
	 * of velocities (a Maxwell distribution's histogram) */
	int src = rnd(g, 6);
	const char *xs = kit_arr(k,
				 src == 3   ? ONE(g, "points", "positions", "x")
				 : src == 5 ? ONE(g, "v", "vel", "velocities")
					    : ONE(g, "values", "samples", "x", "data"),
				 src == 3 || src == 5 ? "wp.vec3" : "float", 1);
	const char *ids = src == 4 ? kit_arr(k, ONE(g, "indices", "selection", "ids"), "int", 1) : 0;
	int weighted = chance(g, 50);
	const char *w = weighted ? kit_arr(k, ONE(g, "weights", "w", "mass"), "float", 1) : 0;
	const char *h = kit_arr(k, ONE(g, "hist", "bins", "counts"), weighted ? "float" : "int", 1);
	/* the bin count a parameter, or the bins' array's length */
	int from_shape = chance(g, 35);
	const char *nb = from_shape ? "nb" : kit_scalar(k, ONE(g, "num_bins", "nbins", "bin_count"), "int");
	kit_tid_line(k, 1, t, 0);
	if (chance(g, 15)) {
		static const char *const fl[3] = {"flags", "sample_flags", "valid_bits"};
		kit_active_check(k, t, 1, fl);
	}
	if (from_shape)
		B(k, "nb = %s.shape[0]", h);
	const char *val;
	if (src == 5) {
		/* speeds up to a top speed: the faster ones in the
		 * last bin, or left out */
		B(k, "u = wp.length(%s[%s]) / %s", xs, t, kit_num(k, 0.8, 1.25));
		if (chance(g, 40)) {
			COV(g, stmt_if);
			COV(g, stmt_return_kernel);
			B(k, "if u >= 1.0:");
			k->ind++;
			B(k, "return");
			k->ind--;
			B(k, "b = int(u * float(%s))", nb);
		} else {
			B(k, "b = int(wp.min(u, 1.0) * float(%s))", nb);
		}
		val = "u";
	} else if (src == 3) {
		val = F(k, "%s[%s][%d]", xs, t, rnd(g, 3));
	} else if (src == 4) {
		B(k, "s = %s[%s]", ids, t);
		val = F(k, "%s[s]", xs);
	} else {
		val = F(k, "%s[%s]", xs, t);
	}
	/* a plain map, a range of its own, a response, or bins of
	 * the magnitude on a log scale */
	static const int mw[] = {3, 45, 32, 20};
	int map = src == 5 ? -1 : wpick(g, mw, 4);
	if (map == 3) {
		double c = atof(kit_num(k, 2.0, 9.5));
		B(k, "b = int(wp.log(1.0 + %s * wp.abs(%s)) * %s * float(%s))", kit_dec(k, c), val,
		  kit_dec(k, floor(1.0e5 / log(1.0 + c)) / 1.0e5), nb);
	} else if (map == 0) {
		B(k, "b = int((%s + 1.0) * 0.5 * float(%s))", val, nb);
	} else if (map == 1) {
		/* bins over a range inside the values': those outside
		 * go to the end bins, or are dropped */
		const char *lo = kit_num(k, -0.9, -0.3), *hi = kit_num(k, 0.3, 0.9);
		B(k, "u = (%s + %s) / %s", val, lo + 1, kit_dec(k, atof(hi) - atof(lo)));
		if (chance(g, 40)) {
			COV(g, stmt_if);
			COV(g, expr_or);
			COV(g, stmt_return_kernel);
			B(k, "if u < 0.0 or u >= 1.0:");
			k->ind++;
			B(k, "return");
			k->ind--;
			B(k, "b = int(u * float(%s))", nb);
		} else {
			B(k, "b = int(wp.clamp(u, 0.0, 1.0) * float(%s))", nb);
		}
	} else if (map == 2) {
		/* bins of a response in [0, 1] */
		const char *a = kit_num_not(k, 0.6, 1.35, "1.0");
		B(k, "b = int((0.5 + 0.5 * wp.tanh(%s * %s)) * float(%s))", a, val, nb);
	}
	B(k, "b = wp.clamp(b, 0, %s - 1)", nb);
	const char *wt = w ? F(k, "%s[%s]", w, src == 4 ? "s" : t) : 0;
	if (weighted && chance(g, 40))
		B(k, "wp.atomic_add(%s, b, %s)", h, kit_prod(k, wt, kit_response(k, val)));
	else if (weighted)
		B(k, "wp.atomic_add(%s, b, %s)", h, wt);
	else
		B(k, "wp.atomic_add(%s, b, 1)", h);
	if (chance(g, 25)) {
		/* the values' sum per bin, for each bin's mean, maybe
		 * with their squares' for its variance */
		const char *bs = kit_arr(k, ONE(g, "bin_sum", "sums", "value_sum"), "float", 1);
		B(k, "wp.atomic_add(%s, b, %s)", bs, val);
		if (chance(g, 40))
			B(k, "wp.atomic_add(%s, b, %s * %s)",
			  kit_arr(k, ONE(g, "bin_sq", "sq_sums", "value_sq"), "float", 1), val, val);
	}
	if (chance(g, 40)) {
		/* a bit per bin, 32 bins to a word: set in a mask of the
		 * occupied bins, cleared in one of the empty bins, or
		 * toggled (the parity of the bin's count) */
		static const char *const fn[] = {"wp.atomic_or", "wp.atomic_and", "wp.atomic_xor"};
		int op = rnd(g, 3);
		const char *m = op == 0   ? kit_arr(k, ONE(g, "occupied", "occupancy", "nonempty"), "int", 1)
				: op == 1 ? kit_arr(k, ONE(g, "empty_bins", "free_bins", "vacant"), "int", 1)
					  : kit_arr(k, ONE(g, "parity", "odd_counts", "hit_parity"), "int", 1);
		COV(g, stmt_assign);
		B(k, "bit = 1 << (b %% 32)");
		B(k, "%s(%s, b // 32, %sbit)", fn[op], m, op == 1 ? "~" : "");
	}
	kit_end(k, ONE(g, "histogram", "bin_values", "count_bins"));
}

/* the bounds of a point set along a direction */
static void bounds(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *p = kit_arr(k, ONE(g, "points", "x", "positions"), "wp.vec3", 1);
	/* both ends, or one: the lowest point along the direction
	 * (a body's contact with the ground), or the highest */
	static const int sw2[] = {70, 15, 15};
	int sides = wpick(g, sw2, 3);
	const char *lo = sides == 2 ? 0
				    : kit_arr(k,
					      sides ? ONE(g, "lowest", "min_d", "support_lo")
						    : ONE(g, "lower", "bounds_min", "lo"),
					      "float", 1);
	const char *hi = sides == 1 ? 0
				    : kit_arr(k,
					      sides ? ONE(g, "highest", "max_d", "support_hi")
						    : ONE(g, "upper", "bounds_max", "hi"),
					      "float", 1);
	/* of the whole set, or of each group (a body's points) */
	const char *grp = chance(g, 35) ? kit_arr(k, ONE(g, "group", "body", "owner"), "int", 1) : 0;
	/* points, or spheres of a radius each or one margin */
	static const int pw[] = {10, 45, 45};
	int pad = wpick(g, pw, 3);
	const char *rad = pad == 1 ? kit_arr(k, ONE(g, "radius", "radii", "point_radius"), "float", 1) : 0;
	/* every point, or a subset through an index list */
	const char *ids = chance(g, 25) ? kit_arr(k, ONE(g, "indices", "point_ids", "subset"), "int", 1) : 0;
	kit_tid_line(k, 1, t, 0);
	/* flagged points skipped, outliers past a radius or points
	 * scored below a cut left out: one of them, so that enough
	 * points remain to move the bounds */
	int cull = rnd(g, 4);
	if (cull < 2 && chance(g, 30)) {
		static const char *const fl[3] = {"flags", "point_flags", "p_flags"};
		kit_active_check(k, t, 1, fl);
	}
	if (ids) {
		B(k, "pid = %s[%s]", ids, t);
		B(k, "q = %s[pid]", p);
	} else {
		B(k, "q = %s[%s]", p, t);
	}
	if (cull == 3) {
		/* points scored below a cut (a detection's confidence,
		 * a visibility) are left out */
		COV(g, stmt_if);
		COV(g, stmt_return_kernel);
		const char *sc = kit_arr(k, ONE(g, "confidence", "score", "visibility"), "float", 1);
		B(k, "if %s[%s] < %s:", sc, ids ? "pid" : t, kit_num_not(k, -0.6, 0.6, "0.0"));
		k->ind++;
		B(k, "return");
		k->ind--;
	} else if (cull == 2) {
		/* points past a cutoff from the origin are outliers */
		const char *cut = kit_num(k, 0.7, 1.3);
		COV(g, stmt_if);
		COV(g, stmt_return_kernel);
		if (chance(g, 50))
			B(k, "if wp.length(q) > %s:", cut);
		else
			B(k, "if wp.dot(q, q) > %s:", kit_dec(k, atof(cut) * atof(cut)));
		k->ind++;
		B(k, "return");
		k->ind--;
	}
	static const int fw[] = {20, 20, 20, 40};
	int frame = wpick(g, fw, 4);
	if (frame == 1) {
		const char *m = kit_scalar(k, ONE(g, "xform", "rotation", "frame"), "wp.mat33");
		B(k, "q = %s * q", m);
	} else if (frame == 2) {
		const char *xf = kit_scalar(k, ONE(g, "xform", "pose", "frame"), "wp.transform");
		COV(g, type_transform);
		B(k, "q = wp.transform_point(%s, q)", xf);
	} else if (frame == 3) {
		const char *c = kit_scalar(k, ONE(g, "origin", "center", "pivot"), "wp.vec3");
		B(k, "q = (q - %s) * %s", c, kit_coef(k, ONE(g, "scale", "inv_size", "zoom"), 0.5, 1.25));
	}
	if (grp)
		B(k, "g = %s[%s]", grp, t);
	/* the extent along a direction (the support of the set) */
	/* maybe swept over a step, for continuous collision: the
	 * end point too */
	const char *vel = chance(g, 25) ? kit_arr(k, ONE(g, "vel", "v", "velocities"), "wp.vec3", 1) : 0;
	const char *sdt = vel ? kit_coef(k, "dt", 0.01, 0.2) : 0;
	int axis = chance(g, 35) ? rnd(g, 3) : -1;
	/* one direction for all, or one per group (each body's own
	 * axis) */
	const char *dir =
		axis >= 0 ? 0
		: grp && chance(g, 35)
			? F(k, "%s[g]", kit_arr(k, ONE(g, "axes", "group_dir", "body_axis"), "wp.vec3", 1))
			: kit_scalar(k, ONE(g, "axis", "direction", "normal"), "wp.vec3");
	/* along a coordinate axis (one side of a box) or a direction */
	if (axis >= 0)
		B(k, "d = q[%d]", axis);
	else
		B(k, "d = wp.dot(q, %s)", dir);
	if (vel) {
		B(k, "q1 = q + %s[%s] * %s", vel, ids ? "pid" : t, sdt);
		if (axis >= 0)
			B(k, "d1 = q1[%d]", axis);
		else
			B(k, "d1 = wp.dot(q1, %s)", dir);
	}
	const char *at = grp ? "g" : "0";
	if (pad == 0) {
		extent(k, lo, hi, at, "d", "");
		if (vel)
			extent(k, lo, hi, at, "d1", "");
	} else {
		/* a radius per point, scaled or plus a margin, or one
		 * margin for all */
		const char *ri = rad ? F(k, "%s[%s]", rad, ids ? "pid" : t) : 0;
		if (rad && chance(g, 40))
			B(k, "r = %s + %s", ri, kit_num(k, 0.005, 0.05));
		else if (rad)
			B(k, "r = %s * %s", ri, kit_num_not(k, 1.0, 1.5, "1.0"));
		else
			B(k, "r = %s",
			  chance(g, 20) ? kit_fparam(k, ONE(g, "margin", "thickness", "pad"))
					: kit_num(k, 0.005, 0.05));
		extent(k, lo, hi, at, "d", "r");
		if (vel)
			extent(k, lo, hi, at, "d1", "r");
	}
	/* the radius of a bounding sphere about a given centre */
	if (chance(g, 20)) {
		const char *rm = kit_arr(k, ONE(g, "sphere_radius", "r_max", "bound_radius"), "float", 1);
		B(k, "wp.atomic_max(%s, %s, wp.length(q - %s))", rm, at,
		  kit_scalar(k, ONE(g, "sphere_center", "c0", "ref_point"), "wp.vec3"));
	}
	/* 2: the points' sum for a centroid, 3: and their count, 4:
	 * their sum weighted by mass, and the mass (a centre of mass) */
	int centre = rnd(g, 5);
	if (centre == 4) {
		const char *pm = kit_arr(k, ONE(g, "mass", "m", "point_mass"), "float", 1);
		B(k, "mq = %s[%s]", pm, ids ? "pid" : t);
		B(k, "wp.atomic_add(%s, %s, q * mq)",
		  kit_arr(k, ONE(g, "mass_moment", "com_sum", "weighted_sum"), "wp.vec3", 1), at);
		B(k, "wp.atomic_add(%s, %s, mq)", kit_arr(k, ONE(g, "mass_sum", "total_mass", "m_sum"), "float", 1),
		  at);
	}
	if (centre == 2 || centre == 3)
		B(k, "wp.atomic_add(%s, %s, q)",
		  kit_arr(k, ONE(g, "center_sum", "centroid", "sum_pos"), "wp.vec3", 1), at);
	if (centre == 3)
		B(k, "wp.atomic_add(%s, %s, 1)", kit_arr(k, ONE(g, "num_points", "count", "n_pts"), "int", 1), at);
	kit_end(k, ONE(g, "compute_bounds", "bounds", "extents"));
}

/* sums: energy, moments, a masked count; of the whole set or per group
 * (a body's particles, a cluster) */
static void sums(Kit *k, int kind)
{
	G *g = k->g;
	const char *t = k->tid;
	/* what a masked count tests: 0-1 the speed, 2-3 the velocity
	 * along a direction, 4 the kinetic energy, 5 the height, 6 the
	 * distance from a centre (the last two read no velocity) */
	int qty = kind == 4 ? rnd(g, 7) : -1;
	const char *v = qty >= 5 ? 0 : kit_arr(k, ONE(g, "v", "vel", "velocities"), "wp.vec3", 1);
	int umass = chance(g, 20); /* one mass for every particle */
	const char *m = umass ? kit_fparam(k, ONE(g, "particle_mass", "mass", "m0"))
			      : kit_arr(k, ONE(g, "mass", "m", "masses"), "float", 1);
	const char *grp = chance(g, 35) ? kit_arr(k, ONE(g, "group", "body", "cluster"), "int", 1) : 0;
	const char *at = grp ? "b" : "0";
	kit_tid_line(k, 1, t, 0);
	if (v)
		B(k, "vi = %s[%s]", v, t);
	if (!umass)
		B(k, "mi = %s[%s]", m, t);
	const char *mi = umass ? m : "mi";
	if (grp)
		B(k, "b = %s[%s]", grp, t);
	const char *tot = kit_arr(k, ONE(g, "total", "sums", "energy"), "float", 1);
	if (kind == 3) {
		/* in the frame of the lab, one that moves, each group's
		 * own (its mean velocity: the thermal part), or one that
		 * turns about the origin */
		const char *x = 0;
		int frame = rnd(g, 4);
		if (frame == 2 && grp && chance(g, 50)) {
			B(k, "vi = vi - %s[b]", kit_arr(k, ONE(g, "v_mean", "group_vel", "v_com"), "wp.vec3", 1));
		} else if (frame == 2) {
			B(k, "vi = vi - %s", kit_scalar(k, ONE(g, "frame_vel", "v_ref", "drift"), "wp.vec3"));
		} else if (frame == 3) {
			x = kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1);
			const char *om = kit_scalar(k, ONE(g, "omega", "spin", "frame_omega"), "wp.vec3");
			B(k, "vi = vi - wp.cross(%s, %s[%s])", om, x, t);
		}
		static const int lw[] = {8, 7, 40, 45};
		int law = wpick(g, lw, 4);
		if (law == 0)
			B(k, "ke = 0.5 * %s * wp.dot(vi, vi)", mi);
		else if (law == 1)
			B(k, "ke = 0.5 * %s * wp.length_sq(vi)", mi);
		else if (law == 2)
			B(k, "ke = %s", kit_prod(k, mi, kit_response(k, "wp.length(vi)")));
		else
			B(k, "ke = %s * %s * wp.dot(vi, vi)", kit_num(k, 0.2, 0.95), mi);
		/* maybe with the spin's energy, 1/2 w.(I w), an inertia
		 * tensor or a moment per particle, in the total or apart */
		int rot = rnd(g, 4);
		if (rot >= 2) {
			const char *wn = ONE(g, "omega", "ang_vel", "w");
			if (frame == 3 && !strcmp(wn, "omega"))
				wn = "ang_vel"; /* the turning frame's is a parameter */
			const char *w = kit_arr(k, wn, "wp.vec3", 1);
			B(k, "wi = %s[%s]", w, t);
			if (chance(g, 50))
				B(k, "erot = 0.5 * wp.dot(wi, %s[%s] * wi)",
				  kit_arr(k, ONE(g, "inertia", "I_body", "moment"), "wp.mat33", 1), t);
			else {
				const char *in = kit_arr(k, ONE(g, "inertia", "I_body", "moment"), "float", 1);
				B(k, "erot = %s * %s[%s] * wp.dot(wi, wi)", kit_num_not(k, 0.2, 0.6, "0.5"), in, t);
			}
			if (rot == 2)
				B(k, "wp.atomic_add(%s, %s, ke + erot)", tot, at);
			else
				B(k, "wp.atomic_add(%s, %s, erot)",
				  kit_arr(k, ONE(g, "rot_energy", "e_rot", "spin_energy"), "float", 1), at);
		}
		if (rot != 2)
			B(k, "wp.atomic_add(%s, %s, ke)", tot, at);
		if (chance(g, 30))
			B(k, "%s[%s] = ke",
			  kit_arr(k, ONE(g, "ke_particle", "particle_energy", "ke_out"), "float", 1), t);
		if (chance(g, 20))
			B(k, "wp.atomic_add(%s, %s, 1)", kit_arr(k, ONE(g, "count", "num", "members"), "int", 1),
			  at);
		/* with the linear momentum, the potential energy, the
		 * angular momentum: one or more of them */
		int what = 1 + rnd(g, 7);
		if (what & 1) {
			const char *mom = kit_arr(k, ONE(g, "momentum", "p_total", "linear"), "wp.vec3", 1);
			B(k, "wp.atomic_add(%s, %s, %s * vi)", mom, at, mi);
		}
		if (what & 6 && !x)
			x = kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1);
		if (what & 2) {
			/* in gravity (a magnitude along -y, above a reference
			 * height, or a vector), in a spring to the origin or to
			 * an anchor per particle, or in a field of the height */
			const char *pe = kit_arr(k, ONE(g, "potential", "pe", "height_energy"), "float", 1);
			int pot = rnd(g, 6);
			if (pot == 0)
				B(k, "wp.atomic_add(%s, %s, %s * %s * %s[%s][1])", pe, at, mi,
				  kit_num(k, 2.0, 9.81), x, t);
			else if (pot == 1)
				B(k, "wp.atomic_add(%s, %s, %s * wp.dot(%s[%s], %s[%s]))", pe, at,
				  kit_num(k, 0.05, 0.8), x, t, x, t);
			else if (pot == 2)
				B(k, "wp.atomic_add(%s, %s, %s)", pe, at,
				  kit_prod(k, mi, kit_response(k, F(k, "%s[%s][1]", x, t))));
			else if (pot == 3) {
				const char *gm = kit_num(k, 2.0, 9.81);
				B(k, "wp.atomic_add(%s, %s, %s * %s * (%s[%s][1] - %s))", pe, at, mi, gm, x, t,
				  kit_num(k, -0.5, 0.5));
			} else if (pot == 4)
				B(k, "wp.atomic_add(%s, %s, -%s * wp.dot(%s, %s[%s]))", pe, at, mi,
				  kit_scalar(k, ONE(g, "gravity", "g", "accel"), "wp.vec3"), x, t);
			else {
				const char *an = kit_arr(k, ONE(g, "anchor", "rest", "x0"), "wp.vec3", 1);
				B(k, "wp.atomic_add(%s, %s, %s * wp.length_sq(%s[%s] - %s[%s]))", pe, at,
				  kit_num(k, 0.05, 0.8), x, t, an, t);
			}
		}
		if (what & 4) {
			/* about the origin or about a pivot */
			const char *am = kit_arr(k, ONE(g, "angular", "ang_momentum", "L_total"), "wp.vec3", 1);
			if (chance(g, 60))
				B(k, "wp.atomic_add(%s, %s, wp.cross(%s[%s], vi) * %s)", am, at, x, t, mi);
			else
				B(k, "wp.atomic_add(%s, %s, wp.cross(%s[%s] - %s, vi) * %s)", am, at, x, t,
				  kit_scalar(k, ONE(g, "pivot", "center", "origin"), "wp.vec3"), mi);
		}
	} else {
		/* the fast ones or the slow ones, the ones moving along a
		 * direction or against it, the energetic ones or the ones
		 * above a height; maybe the others counted apart */
		const char *thr, *q;
		int slow = chance(g, 35);
		if (qty == 4 && umass)
			qty = 0; /* one mass for all, maybe negative: no energy would pass */
		if (qty < 2) {
			/* speeds below 0.6 are rare under the input law */
			/* in the lab's frame, or relative to each group's mean
			 * velocity (the particles that stray from their group;
			 * the difference of two velocities runs to about twice
			 * the speed, and so do its thresholds) */
			q = "speed";
			if (grp && chance(g, 40)) {
				thr = slow ? kit_num(k, 0.85, 1.3) : kit_num(k, 1.0, 1.6);
				B(k, "speed = wp.length(vi - %s[b])",
				  kit_arr(k, ONE(g, "v_mean", "group_vel", "v_com"), "wp.vec3", 1));
			} else {
				thr = slow ? kit_num(k, 0.6, 1.05) : kit_num(k, 0.7, 1.2);
				B(k, "speed = wp.length(vi)");
			}
		} else if (qty < 4) {
			thr = kit_num_not(k, -0.3, 0.3, "0.0");
			q = "speed";
			B(k, "speed = wp.dot(vi, %s)", kit_scalar(k, ONE(g, "up", "direction", "axis"), "wp.vec3"));
		} else if (qty == 4) {
			thr = kit_num(k, 0.05, 0.25);
			q = "e_kin";
			B(k, "e_kin = 0.5 * %s * wp.dot(vi, vi)", mi);
		} else if (qty == 5) {
			thr = kit_num_not(k, -0.35, 0.35, "0.0");
			q = "h";
			B(k, "h = %s[%s][1]", kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1), t);
		} else {
			thr = kit_num(k, 0.85, 1.3);
			q = "dist";
			const char *xp = kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1);
			B(k, "dist = wp.length(%s[%s] - %s)", xp, t,
			  kit_scalar(k, ONE(g, "center", "origin", "target"), "wp.vec3"));
		}
		/* past a threshold, or inside a band about a value (its
		 * half-width tuned too) */
		int band = chance(g, 30);
		const char *excess;
		COV(g, stmt_if);
		if (band) {
			const char *hw = qty == 4 ? kit_num(k, 0.1, 0.25) : kit_num(k, 0.15, 0.45);
			const char *dq = thr[0] == '-' ? F(k, "%s + %s", q, thr + 1) : F(k, "%s - %s", q, thr);
			B(k, "if wp.abs(%s) < %s:", dq, hw);
			excess = F(k, "(%s - wp.abs(%s))", hw, dq);
		} else {
			B(k, "if %s %s %s:", q, slow ? "<" : ">", thr);
			excess = slow ? (thr[0] == '-' ? F(k, "(-%s - %s)", thr + 1, q) : F(k, "(%s - %s)", thr, q))
				 : thr[0] == '-' ? F(k, "(%s + %s)", q, thr + 1)
						 : F(k, "(%s - %s)", q, thr);
		}
		k->ind++;
		const char *cnt = kit_arr(k,
					  band       ? ONE(g, "in_band", "count", "num_near")
					  : qty == 5 ? (slow ? ONE(g, "below", "count", "num_low")
							     : ONE(g, "above", "count", "num_high"))
					  : qty == 6 ? (slow ? ONE(g, "inside", "count", "num_near")
							     : ONE(g, "outside", "count", "num_far"))
					  : slow     ? ONE(g, "slow", "count", "num_slow")
						     : ONE(g, "fast", "count", "num_fast"),
					  "int", 1);
		B(k, "wp.atomic_add(%s, %s, 1)", cnt, at);
		/* what they sum: the excess past the threshold, its square
		 * (a penalty), a response of it, or their mass */
		int ws = rnd(g, 20);
		const char *wv = ws < 3    ? excess
				 : ws < 6  ? F(k, "%s * %s", excess, excess)
				 : ws < 18 ? kit_response(k, excess)
					   : 0;
		if (wv)
			B(k, "wp.atomic_add(%s, %s, %s)", tot, at, kit_prod(k, mi, wv));
		else
			B(k, "wp.atomic_add(%s, %s, %s)", tot, at, umass ? F(k, "%s * %s", mi, excess) : mi);
		k->ind--;
		if (chance(g, 25)) {
			COV(g, stmt_else);
			B(k, "else:");
			k->ind++;
			B(k, "wp.atomic_add(%s, %s, 1)",
			  kit_arr(k, ONE(g, "others", "rest_count", "num_below"), "int", 1), at);
			k->ind--;
		}
	}
	kit_end(k, ONE(g, "reduce_energy", "sum_moments", "total_energy", "measure"));
}

void idiom_reduce(Kit *k)
{
	G *g = k->g;
	/* 0 matrices, 1 histograms, 2 bounds, 3 energies and momenta, 4
	 * masked counts: the matrices' plainest members (a dense layer, a
	 * GEMV) drawn a little less often, the bounds a little more */
	static const int kw[] = {14, 19, 21, 23, 23};
	int kind = wpick(g, kw, 5);
	if (kind == 0) {
		const char *a = kit_arr(k, ONE(g, "A", "mat", "weights", "K"), "float", 2);
		if (chance(g, 50))
			row_sums(k, a);
		else
			mat_vec(k, a);
	} else if (kind == 1) {
		if (chance(g, 11))
			drain_bins(k);
		else if (chance(g, 15))
			histogram_2d(k);
		else
			histogram(k);
	} else if (kind == 2) {
		bounds(k);
	} else {
		sums(k, kind);
	}
}
