/*
 * ks_decomp.h: the decompositions of small matrices (svd3, svd2, qr3,
 * eig3) and their adjoints, computed once on plain arrays for each working
 * precision and wrapped for the matrices of each float type.
 */
#ifndef KS_DECOMP_H
#define KS_DECOMP_H

/* Decompositions of small matrices (svd3, svd2, qr3, eig3) and their
 * adjoints.  The work is done on arrays of CT: KS_REAL for float32 and
 * float16 (a float16 matrix is widened first and its factors rounded
 * back), double for float64.  X names the variant (r: KS_REAL, d: double).
 *
 * eig3 diagonalizes the symmetric part (A + A^T) / 2 by cyclic Jacobi
 * rotations until the off-diagonal part is below EPS of the diagonal (at
 * most 16 sweeps): Q (det +1) and d, the eigenvalues in increasing order.
 * svd3 takes V from the eigenvectors of A^T A, orders the columns of A V
 * by decreasing length (a swap negates one column, so det V stays +1),
 * and factors A V = Q R by qr3: U = Q, sigma = the diagonal of R.  So
 * sigma decreases in magnitude, sigma[0] and sigma[1] are >= 0, and
 * sigma[2] has the sign of det A; U and V are rotations.  qr3 is
 * Gram-Schmidt on the columns: R[0][0] and R[1][1] are >= 0, the last
 * column of Q is the cross product of the first two (det Q = +1), so
 * R[2][2] carries the sign of det A.  A column that vanishes (below EPS of
 * A's norm) is replaced by a unit vector perpendicular to the ones before.
 * svd2: V is the rotation that diagonalizes A^T A with V[0][0] >= 0, the
 * singular values are >= 0, and U has the determinant's sign (+1 for a
 * singular A).
 *
 * The adjoints are the exact derivatives of these functions: for the
 * SVDs U (F o (U^T gU - gU^T U) S + diag(gs) + S (F o (V^T gV - gV^T V)))
 * V^T, F[i][j] = 1 / (s[j]^2 - s[i]^2) for i < j, the difference held
 * below -FEPS as Warp holds it (FEPS 1e-6, 1e-12 for float64); for qr3
 * (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T, zero where R is singular; for
 * eig3 the symmetric part of Q (diag(gd) + F o (Q^T gQ)) Q^T, F[i][j] =
 * 1 / (d[j] - d[i]), a difference closer to 0 than 1e-6 moved to +-1e-6. */
#if KS_DOUBLE_MODE
#define KS_REAL_EPS 2.220446049250313e-16
#else
#define KS_REAL_EPS 1.1920929e-7f
#endif

#define KS_DECOMP_CORE(X, CT, SQRT, ABS, EPS, FEPS)                                                                \
	/* one Jacobi rotation in the plane (p, q): s = J^T s J, v = v J */                                        \
	KS_FUNC void ks_jacobi_rotate_##X(CT s[3][3], CT v[3][3], int p, int q)                                    \
	{                                                                                                          \
		if (s[p][q] == 0)                                                                                  \
			return;                                                                                    \
		CT theta = (s[q][q] - s[p][p]) / (2 * s[p][q]);                                                    \
		CT t = 1 / (ABS(theta) + SQRT(theta * theta + 1));                                                 \
		if (theta < 0)                                                                                     \
			t = -t;                                                                                    \
		CT c = 1 / SQRT(t * t + 1), sn = t * c;                                                            \
		for (int k = 0; k < 3; k++) {                                                                      \
			CT a = s[k][p], b = s[k][q];                                                               \
			s[k][p] = c * a - sn * b;                                                                  \
			s[k][q] = sn * a + c * b;                                                                  \
		}                                                                                                  \
		for (int k = 0; k < 3; k++) {                                                                      \
			CT a = s[p][k], b = s[q][k];                                                               \
			s[p][k] = c * a - sn * b;                                                                  \
			s[q][k] = sn * a + c * b;                                                                  \
		}                                                                                                  \
		s[p][q] = s[q][p] = 0;                                                                             \
		for (int k = 0; k < 3; k++) {                                                                      \
			CT a = v[k][p], b = v[k][q];                                                               \
			v[k][p] = c * a - sn * b;                                                                  \
			v[k][q] = sn * a + c * b;                                                                  \
		}                                                                                                  \
	}                                                                                                          \
	/* s symmetric becomes diagonal; v the rotation of its eigenvectors */                                     \
	KS_FUNC void ks_jacobi3_##X(CT s[3][3], CT v[3][3])                                                        \
	{                                                                                                          \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				v[i][j] = i == j;                                                                  \
		for (int sweep = 0; sweep < 16; sweep++) {                                                         \
			CT off = s[0][1] * s[0][1] + s[0][2] * s[0][2] + s[1][2] * s[1][2];                        \
			CT diag = s[0][0] * s[0][0] + s[1][1] * s[1][1] + s[2][2] * s[2][2];                       \
			if (!(off > EPS * EPS * diag))                                                             \
				break;                                                                             \
			ks_jacobi_rotate_##X(s, v, 0, 1);                                                          \
			ks_jacobi_rotate_##X(s, v, 0, 2);                                                          \
			ks_jacobi_rotate_##X(s, v, 1, 2);                                                          \
		}                                                                                                  \
	}                                                                                                          \
	/* swap columns i and j of m, negating one: the determinant stays */                                       \
	KS_FUNC void ks_swap_cols_##X(CT m[3][3], int i, int j)                                                    \
	{                                                                                                          \
		for (int k = 0; k < 3; k++) {                                                                      \
			CT t = m[k][i];                                                                            \
			m[k][i] = -m[k][j];                                                                        \
			m[k][j] = t;                                                                               \
		}                                                                                                  \
	}                                                                                                          \
	KS_FUNC CT ks_col_dot_##X(CT a[3][3], int i, CT b[3][3], int j)                                            \
	{                                                                                                          \
		return a[0][i] * b[0][j] + a[1][i] * b[1][j] + a[2][i] * b[2][j];                                  \
	}                                                                                                          \
	/* q = a Gram-Schmidt on the columns of a; r = q^T a, upper triangular */                                  \
	KS_FUNC void ks_qr3_core_##X(CT a[3][3], CT q[3][3], CT r[3][3])                                           \
	{                                                                                                          \
		CT tiny = 0;                                                                                       \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				tiny += a[i][j] * a[i][j];                                                         \
		tiny = EPS * SQRT(tiny);                                                                           \
		CT n0 = SQRT(ks_col_dot_##X(a, 0, a, 0));                                                          \
		for (int k = 0; k < 3; k++)                                                                        \
			q[k][0] = n0 > tiny ? a[k][0] / n0 : (CT)(k == 0);                                         \
		for (int k = 0; k < 3; k++)                                                                        \
			q[k][1] = a[k][1];                                                                         \
		for (int pass = 0; pass < 2; pass++) { /* twice: orthogonal */                                     \
			CT d = ks_col_dot_##X(q, 0, q, 1);                                                         \
			for (int k = 0; k < 3; k++)                                                                \
				q[k][1] -= d * q[k][0];                                                            \
		}                                                                                                  \
		CT n1 = SQRT(ks_col_dot_##X(q, 1, q, 1));                                                          \
		if (n1 > tiny) {                                                                                   \
			for (int k = 0; k < 3; k++)                                                                \
				q[k][1] /= n1;                                                                     \
		} else {                                                                                           \
			/* the axis least along q0, less its part along q0 */                                      \
			int m = 0;                                                                                 \
			for (int k = 1; k < 3; k++)                                                                \
				if (ABS(q[k][0]) < ABS(q[m][0]))                                                   \
					m = k;                                                                     \
			for (int k = 0; k < 3; k++)                                                                \
				q[k][1] = (CT)(k == m) - q[m][0] * q[k][0];                                        \
			n1 = SQRT(ks_col_dot_##X(q, 1, q, 1));                                                     \
			for (int k = 0; k < 3; k++)                                                                \
				q[k][1] /= n1;                                                                     \
		}                                                                                                  \
		q[0][2] = q[1][0] * q[2][1] - q[2][0] * q[1][1];                                                   \
		q[1][2] = q[2][0] * q[0][1] - q[0][0] * q[2][1];                                                   \
		q[2][2] = q[0][0] * q[1][1] - q[1][0] * q[0][1];                                                   \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				r[i][j] = j < i ? 0 : ks_col_dot_##X(q, i, a, j);                                  \
	}                                                                                                          \
	KS_FUNC void ks_svd3_core_##X(CT a[3][3], CT u[3][3], CT s[3], CT v[3][3])                                 \
	{                                                                                                          \
		CT ata[3][3], b[3][3], r[3][3], rho[3];                                                            \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				ata[i][j] = ks_col_dot_##X(a, i, a, j);                                            \
		ks_jacobi3_##X(ata, v);                                                                            \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				b[i][j] = a[i][0] * v[0][j] + a[i][1] * v[1][j] + a[i][2] * v[2][j];               \
		for (int j = 0; j < 3; j++)                                                                        \
			rho[j] = ks_col_dot_##X(b, j, b, j);                                                       \
		for (int i = 0; i < 2; i++)                                                                        \
			for (int j = i + 1; j < 3; j++)                                                            \
				if (rho[i] < rho[j]) {                                                             \
					CT t = rho[i];                                                             \
					rho[i] = rho[j], rho[j] = t;                                               \
					ks_swap_cols_##X(b, i, j);                                                 \
					ks_swap_cols_##X(v, i, j);                                                 \
				}                                                                                  \
		ks_qr3_core_##X(b, u, r);                                                                          \
		for (int k = 0; k < 3; k++)                                                                        \
			s[k] = r[k][k];                                                                            \
	}                                                                                                          \
	KS_FUNC void ks_eig3_core_##X(CT a[3][3], CT q[3][3], CT d[3])                                             \
	{                                                                                                          \
		CT s[3][3];                                                                                        \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				s[i][j] = (a[i][j] + a[j][i]) / 2;                                                 \
		ks_jacobi3_##X(s, q);                                                                              \
		for (int k = 0; k < 3; k++)                                                                        \
			d[k] = s[k][k];                                                                            \
		for (int i = 0; i < 2; i++)                                                                        \
			for (int j = i + 1; j < 3; j++)                                                            \
				if (d[j] < d[i]) {                                                                 \
					CT t = d[i];                                                               \
					d[i] = d[j], d[j] = t;                                                     \
					ks_swap_cols_##X(q, i, j);                                                 \
				}                                                                                  \
	}                                                                                                          \
	/* 2x2 in the top-left corner of 3x3 arrays */                                                             \
	KS_FUNC void ks_svd2_core_##X(CT a[3][3], CT u[3][3], CT s[3], CT v[3][3])                                 \
	{                                                                                                          \
		CT ata[3][3] = {{0}}, b[3][3] = {{0}};                                                             \
		for (int i = 0; i < 2; i++)                                                                        \
			for (int j = 0; j < 2; j++)                                                                \
				ata[i][j] = a[0][i] * a[0][j] + a[1][i] * a[1][j];                                 \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				v[i][j] = u[i][j] = i == j;                                                        \
		ks_jacobi_rotate_##X(ata, v, 0, 1);                                                                \
		if (ata[0][0] < ata[1][1])                                                                         \
			ks_swap_cols_##X(v, 0, 1);                                                                 \
		if (v[0][0] < 0 || (v[0][0] == 0 && v[1][0] < 0))                                                  \
			for (int i = 0; i < 2; i++)                                                                \
				for (int j = 0; j < 2; j++)                                                        \
					v[i][j] = -v[i][j];                                                        \
		for (int i = 0; i < 2; i++)                                                                        \
			for (int j = 0; j < 2; j++)                                                                \
				b[i][j] = a[i][0] * v[0][j] + a[i][1] * v[1][j];                                   \
		CT tiny =                                                                                          \
			EPS * SQRT(a[0][0] * a[0][0] + a[0][1] * a[0][1] + a[1][0] * a[1][0] + a[1][1] * a[1][1]); \
		CT n0 = SQRT(b[0][0] * b[0][0] + b[1][0] * b[1][0]);                                               \
		if (n0 > tiny)                                                                                     \
			u[0][0] = b[0][0] / n0, u[1][0] = b[1][0] / n0;                                            \
		CT sg = a[0][0] * a[1][1] - a[0][1] * a[1][0] < 0 ? -1 : 1;                                        \
		u[0][1] = -sg * u[1][0];                                                                           \
		u[1][1] = sg * u[0][0];                                                                            \
		s[0] = u[0][0] * b[0][0] + u[1][0] * b[1][0];                                                      \
		s[1] = u[0][1] * b[0][1] + u[1][1] * b[1][1];                                                      \
		s[2] = 0;                                                                                          \
	}                                                                                                          \
	/* the adjoint of svd3 (n 3) and svd2 (n 2: the top-left corners) */                                       \
	KS_FUNC void ks_adj_svd_core_##X(int n, CT u[3][3], CT s[3], CT v[3][3], CT gu[3][3], CT gs[3],            \
					 CT gv[3][3], CT ga[3][3])                                                 \
	{                                                                                                          \
		CT f[3][3], m[3][3], w[3][3];                                                                      \
		for (int i = 0; i < n; i++) {                                                                      \
			f[i][i] = 0;                                                                               \
			for (int j = i + 1; j < n; j++) {                                                          \
				CT d = s[j] * s[j] - s[i] * s[i];                                                  \
				d = d < -(CT)FEPS ? d : -(CT)FEPS;                                                 \
				f[i][j] = 1 / d;                                                                   \
				f[j][i] = -1 / d;                                                                  \
			}                                                                                          \
		}                                                                                                  \
		for (int i = 0; i < n; i++)                                                                        \
			for (int j = 0; j < n; j++) {                                                              \
				CT ku = 0, kv = 0;                                                                 \
				for (int k = 0; k < n; k++) {                                                      \
					ku += u[k][i] * gu[k][j] - gu[k][i] * u[k][j];                             \
					kv += v[k][i] * gv[k][j] - gv[k][i] * v[k][j];                             \
				}                                                                                  \
				m[i][j] = f[i][j] * ku * s[j] + s[i] * f[i][j] * kv + (i == j ? gs[i] : 0);        \
			}                                                                                          \
		for (int i = 0; i < n; i++) /* w = u m */                                                          \
			for (int j = 0; j < n; j++) {                                                              \
				w[i][j] = 0;                                                                       \
				for (int k = 0; k < n; k++)                                                        \
					w[i][j] += u[i][k] * m[k][j];                                              \
			}                                                                                          \
		for (int i = 0; i < n; i++) /* ga = w v^T */                                                       \
			for (int j = 0; j < n; j++) {                                                              \
				ga[i][j] = 0;                                                                      \
				for (int k = 0; k < n; k++)                                                        \
					ga[i][j] += w[i][k] * v[j][k];                                             \
			}                                                                                          \
	}                                                                                                          \
	KS_FUNC void ks_adj_qr3_core_##X(CT q[3][3], CT r[3][3], CT gq[3][3], CT gr[3][3], CT ga[3][3])            \
	{                                                                                                          \
		CT m[3][3], x[3][3], ri[3][3] = {{0}};                                                             \
		CT det = r[0][0] * r[1][1] * r[2][2];                                                              \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++) {                                                              \
				m[i][j] = 0;                                                                       \
				for (int k = 0; k < 3; k++)                                                        \
					m[i][j] += r[i][k] * gr[j][k] - gq[k][i] * q[k][j];                        \
			}                                                                                          \
		for (int i = 0; i < 3; i++) /* x = gq + q copyltu(m) */                                            \
			for (int j = 0; j < 3; j++) {                                                              \
				x[i][j] = gq[i][j];                                                                \
				for (int k = 0; k < 3; k++)                                                        \
					x[i][j] += q[i][k] * (k > j ? m[k][j] : m[j][k]);                          \
			}                                                                                          \
		if (det == 0) {                                                                                    \
			for (int i = 0; i < 3; i++)                                                                \
				for (int j = 0; j < 3; j++)                                                        \
					ga[i][j] = 0;                                                              \
			return;                                                                                    \
		}                                                                                                  \
		/* the inverse of the upper triangular r */                                                        \
		ri[0][0] = 1 / r[0][0], ri[1][1] = 1 / r[1][1], ri[2][2] = 1 / r[2][2];                            \
		ri[0][1] = -r[0][1] / (r[0][0] * r[1][1]);                                                         \
		ri[1][2] = -r[1][2] / (r[1][1] * r[2][2]);                                                         \
		ri[0][2] = (r[0][1] * r[1][2] - r[0][2] * r[1][1]) / det;                                          \
		for (int i = 0; i < 3; i++) /* ga = x ri^T */                                                      \
			for (int j = 0; j < 3; j++) {                                                              \
				ga[i][j] = 0;                                                                      \
				for (int k = 0; k < 3; k++)                                                        \
					ga[i][j] += x[i][k] * ri[j][k];                                            \
			}                                                                                          \
	}                                                                                                          \
	KS_FUNC void ks_adj_eig3_core_##X(CT q[3][3], CT d[3], CT gq[3][3], CT gd[3], CT ga[3][3])                 \
	{                                                                                                          \
		CT m[3][3], w[3][3], g[3][3];                                                                      \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++) {                                                              \
				CT qg = 0, e = d[j] - d[i];                                                        \
				for (int k = 0; k < 3; k++)                                                        \
					qg += q[k][i] * gq[k][j];                                                  \
				if (ABS(e) < (CT)1e-6)                                                             \
					e = e < 0 ? (CT)-1e-6 : (CT)1e-6;                                          \
				m[i][j] = i == j ? gd[i] : qg / e;                                                 \
			}                                                                                          \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++) {                                                              \
				w[i][j] = 0;                                                                       \
				for (int k = 0; k < 3; k++)                                                        \
					w[i][j] += q[i][k] * m[k][j];                                              \
			}                                                                                          \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++) {                                                              \
				g[i][j] = 0;                                                                       \
				for (int k = 0; k < 3; k++)                                                        \
					g[i][j] += w[i][k] * q[j][k];                                              \
			}                                                                                          \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				ga[i][j] = (g[i][j] + g[j][i]) / 2;                                                \
	}

KS_DECOMP_CORE(r, KS_REAL, sqrtf, fabsf, KS_REAL_EPS, 1e-6)
KS_DECOMP_CORE(d, double, sqrt, fabs, 2.220446049250313e-16, 1e-12)

/* The builtins of one float type: ST to CT by TO, back by FROM. */
#define KS_DECOMP_IN(n, dst, src, TO)       \
	for (int i = 0; i < n; i++)         \
		for (int j = 0; j < n; j++) \
			dst[i][j] = TO(src.c[i][j]);
#define KS_DECOMP_OUT(n, dst, src, FROM)    \
	for (int i = 0; i < n; i++)         \
		for (int j = 0; j < n; j++) \
			dst.c[i][j] = FROM(src[i][j]);
#define KS_DECOMP(M2, V2, M3, V3, X, CT, TO, FROM)                                                   \
	KS_FUNC void ks_svd3_##M3(ks_##M3 A, ks_##M3 *U, ks_##V3 *sigma, ks_##M3 *V)                 \
	{                                                                                            \
		CT a[3][3], u[3][3], s[3], v[3][3];                                                  \
		KS_DECOMP_IN(3, a, A, TO)                                                            \
		ks_svd3_core_##X(a, u, s, v);                                                        \
		KS_DECOMP_OUT(3, (*U), u, FROM)                                                      \
		KS_DECOMP_OUT(3, (*V), v, FROM)                                                      \
		for (int k = 0; k < 3; k++)                                                          \
			sigma->c[k] = FROM(s[k]);                                                    \
	}                                                                                            \
	KS_FUNC void ks_svd2_##M2(ks_##M2 A, ks_##M2 *U, ks_##V2 *sigma, ks_##M2 *V)                 \
	{                                                                                            \
		CT a[3][3] = {{0}}, u[3][3], s[3], v[3][3];                                          \
		KS_DECOMP_IN(2, a, A, TO)                                                            \
		ks_svd2_core_##X(a, u, s, v);                                                        \
		KS_DECOMP_OUT(2, (*U), u, FROM)                                                      \
		KS_DECOMP_OUT(2, (*V), v, FROM)                                                      \
		for (int k = 0; k < 2; k++)                                                          \
			sigma->c[k] = FROM(s[k]);                                                    \
	}                                                                                            \
	KS_FUNC void ks_qr3_##M3(ks_##M3 A, ks_##M3 *Q, ks_##M3 *R)                                  \
	{                                                                                            \
		CT a[3][3], q[3][3], r[3][3];                                                        \
		KS_DECOMP_IN(3, a, A, TO)                                                            \
		ks_qr3_core_##X(a, q, r);                                                            \
		KS_DECOMP_OUT(3, (*Q), q, FROM)                                                      \
		KS_DECOMP_OUT(3, (*R), r, FROM)                                                      \
	}                                                                                            \
	KS_FUNC void ks_eig3_##M3(ks_##M3 A, ks_##M3 *Q, ks_##V3 *d)                                 \
	{                                                                                            \
		CT a[3][3], q[3][3], e[3];                                                           \
		KS_DECOMP_IN(3, a, A, TO)                                                            \
		ks_eig3_core_##X(a, q, e);                                                           \
		KS_DECOMP_OUT(3, (*Q), q, FROM)                                                      \
		for (int k = 0; k < 3; k++)                                                          \
			d->c[k] = FROM(e[k]);                                                        \
	}                                                                                            \
	KS_FUNC ks_##M3 ks_adj_svd3_##M3(ks_##M3 A, ks_##M3 U, ks_##V3 sigma, ks_##M3 V, ks_##M3 gU, \
					 ks_##V3 gsigma, ks_##M3 gV)                                 \
	{                                                                                            \
		CT u[3][3], v[3][3], gu[3][3], gv[3][3], s[3], gs[3], ga[3][3];                      \
		ks_##M3 r;                                                                           \
		(void)A;                                                                             \
		KS_DECOMP_IN(3, u, U, TO)                                                            \
		KS_DECOMP_IN(3, v, V, TO)                                                            \
		KS_DECOMP_IN(3, gu, gU, TO)                                                          \
		KS_DECOMP_IN(3, gv, gV, TO)                                                          \
		for (int k = 0; k < 3; k++)                                                          \
			s[k] = TO(sigma.c[k]), gs[k] = TO(gsigma.c[k]);                              \
		ks_adj_svd_core_##X(3, u, s, v, gu, gs, gv, ga);                                     \
		KS_DECOMP_OUT(3, r, ga, FROM)                                                        \
		return r;                                                                            \
	}                                                                                            \
	KS_FUNC ks_##M2 ks_adj_svd2_##M2(ks_##M2 A, ks_##M2 U, ks_##V2 sigma, ks_##M2 V, ks_##M2 gU, \
					 ks_##V2 gsigma, ks_##M2 gV)                                 \
	{                                                                                            \
		CT u[3][3], v[3][3], gu[3][3], gv[3][3], s[3], gs[3], ga[3][3];                      \
		ks_##M2 r;                                                                           \
		(void)A;                                                                             \
		KS_DECOMP_IN(2, u, U, TO)                                                            \
		KS_DECOMP_IN(2, v, V, TO)                                                            \
		KS_DECOMP_IN(2, gu, gU, TO)                                                          \
		KS_DECOMP_IN(2, gv, gV, TO)                                                          \
		for (int k = 0; k < 2; k++)                                                          \
			s[k] = TO(sigma.c[k]), gs[k] = TO(gsigma.c[k]);                              \
		ks_adj_svd_core_##X(2, u, s, v, gu, gs, gv, ga);                                     \
		KS_DECOMP_OUT(2, r, ga, FROM)                                                        \
		return r;                                                                            \
	}                                                                                            \
	KS_FUNC ks_##M3 ks_adj_qr3_##M3(ks_##M3 A, ks_##M3 Q, ks_##M3 R, ks_##M3 gQ, ks_##M3 gR)     \
	{                                                                                            \
		CT q[3][3], rr[3][3], gq[3][3], gr[3][3], ga[3][3];                                  \
		ks_##M3 r;                                                                           \
		(void)A;                                                                             \
		KS_DECOMP_IN(3, q, Q, TO)                                                            \
		KS_DECOMP_IN(3, rr, R, TO)                                                           \
		KS_DECOMP_IN(3, gq, gQ, TO)                                                          \
		KS_DECOMP_IN(3, gr, gR, TO)                                                          \
		ks_adj_qr3_core_##X(q, rr, gq, gr, ga);                                              \
		KS_DECOMP_OUT(3, r, ga, FROM)                                                        \
		return r;                                                                            \
	}                                                                                            \
	KS_FUNC ks_##M3 ks_adj_eig3_##M3(ks_##M3 A, ks_##M3 Q, ks_##V3 d, ks_##M3 gQ, ks_##V3 gd)    \
	{                                                                                            \
		CT q[3][3], gq[3][3], e[3], ge[3], ga[3][3];                                         \
		ks_##M3 r;                                                                           \
		(void)A;                                                                             \
		KS_DECOMP_IN(3, q, Q, TO)                                                            \
		KS_DECOMP_IN(3, gq, gQ, TO)                                                          \
		for (int k = 0; k < 3; k++)                                                          \
			e[k] = TO(d.c[k]), ge[k] = TO(gd.c[k]);                                      \
		ks_adj_eig3_core_##X(q, e, gq, ge, ga);                                              \
		KS_DECOMP_OUT(3, r, ga, FROM)                                                        \
		return r;                                                                            \
	}

#define KS_SAME(x) (x)
KS_DECOMP(mat22, vec2, mat33, vec3, r, KS_REAL, KS_SAME, KS_SAME)
KS_DECOMP(mat22h, vec2h, mat33h, vec3h, r, KS_REAL, KS_H, KS_HALF)
KS_DECOMP(mat22d, vec2d, mat33d, vec3d, d, double, KS_SAME, KS_SAME)

#endif
