/*
 * tile.c: tiles in C and CUDA.  A tile is an array of its elements,
 * row-major: a local array in C, where each thread of the CPU is a block
 * of its own (as Warp runs tiles on the CPU), and a __shared__ one in
 * CUDA, where the threads of the block share each operation: a loop over
 * the elements strided by the block, `for (int k = threadIdx.x; k < n; k
 * += blockDim.x)`, so that element k is thread k % blockDim.x's in every
 * tile.  Loads, stores, fills and arithmetic keep to that mapping; a
 * product, a transpose and a reduction read across it, and tile_barriers
 * places `__syncthreads()` where that makes a hazard (below).  A sum
 * (min, max) is a tree over a scratch copy, the same tree on the CPU, so
 * that both give the same bits.  kdiff's tile_add_at (each thread adding
 * into a tile's element) and tile_share (a thread's share of a sum) are
 * a thread's own statements.
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_int.h"

static void indent(Emitter *e, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("    ", e->out);
}

static void line_end(Emitter *e, const Inst *in) { fprintf(e->out, "  // line %d\n", in->loc.line); }

int tile_stmt(const Emitter *e, const Inst *in)
{
	if (in->op == OP_TILE_LOAD || in->op == OP_TILE_STORE || in->op == OP_TILE_ATOMIC_ADD ||
	    in->op == OP_TILE_ADD_AT || ir_op_indexed(in->op))
		return 1;
	if (in->op == OP_BUILTIN && (ir_builtins[in->callee].flags & BF_TILE))
		return 1;
	if (ir_call_mapped(e->f, in))
		return 1;
	return in->nres == 1 && ty_is_tile(vty(e, in->res[0]));
}

/* ---- where barriers go ---------------------------------------------------- */

/* A barrier can only stand where every thread of the block comes: at a
 * collective operation, one on tiles that the threads compute together.
 * The other accesses are a thread's own: an element read from a tile
 * (extract), kdiff's atomic add into a tile's element (tile_add_at), a
 * thread's share of a tile's sum, the scalar code's loads and stores.
 * and so can the statements of a block that holds one (its branch or
 * loop is taken by the whole block, as Warp requires of tile code): the
 * collective blocks.  So a collective operation waits (a barrier before
 * it) when it would read what other threads may have written since the
 * last barrier, or write what they may have read; a thread's own access
 * in a collective block waits likewise, and one in a block of its own (an
 * if on the lane) has the barrier before the statement of the collective
 * block that holds it; and an operation that writes what a thread's own
 * access reads anywhere in the function is followed by a barrier, so that
 * such accesses, wherever they stand, find the tile (the array) done.
 *
 * What a block's threads have done since the last barrier: per tile, TW
 * (written, each element by its thread), TR (read by threads other than
 * an element's), TA (added into by any thread); per array, TW and TR. */
enum { TW = 1, TR = 2, TA = 4 };

typedef struct Hazards {
	Emitter *e;
	int n;          /* values */
	int coll;       /* the block at hand is collective */
	uint8_t *point; /* per value: a tile a thread's own access touches, an
			 * array the scalar code touches */
} Hazards;

/* A prefix (or kdiff's suffix) sum: a copy, then steps behind barriers
 * of their own, each element adding the one a span before it.  An
 * exclusive one copies each element's neighbour: it reads across. */
static int is_scan(const Inst *in)
{
	return in->op == OP_BUILTIN &&
	       (in->callee == BI_TILE_SCAN_INCLUSIVE || in->callee == BI_TILE_SCAN_EXCLUSIVE ||
		in->callee == BI_TILE_RSCAN_INCLUSIVE || in->callee == BI_TILE_RSCAN_EXCLUSIVE ||
		in->callee == BI_TILE_SCAN_MAX_INCLUSIVE || in->callee == BI_TILE_SCAN_MIN_INCLUSIVE ||
		in->callee == BI_TILE_PRODS_BEFORE || in->callee == BI_TILE_PRODS_AFTER);
}

/* The order that sorts a tile's keys: a bitonic sort behind barriers of
 * its own. */
static int is_sort_order(const Inst *in) { return in->op == OP_BUILTIN && in->callee == BI_TILE_SORT_ORDER; }

/* A tile put back in an order: each element written to its place,
 * another thread's. */
static int is_unpermute(const Inst *in) { return in->op == OP_BUILTIN && in->callee == BI_TILE_UNPERMUTE; }

/* The adjoint of prefix maxima or minima: each element reads the
 * results and adjoints of the run after it. */
static int is_scan_adj(const Inst *in)
{
	return in->op == OP_BUILTIN && (in->callee == BI_TILE_SCAN_MAX_ADJ || in->callee == BI_TILE_SCAN_MIN_ADJ);
}

static int is_exclusive_scan(const Inst *in)
{
	return in->op == OP_BUILTIN &&
	       (in->callee == BI_TILE_SCAN_EXCLUSIVE || in->callee == BI_TILE_RSCAN_EXCLUSIVE ||
		in->callee == BI_TILE_PRODS_BEFORE || in->callee == BI_TILE_PRODS_AFTER);
}

/* A Cholesky factor or a triangular solve: steps over the columns of a
 * square tile, each behind a barrier of its own, a step's threads writing
 * elements of other threads. */
static int is_factor(const Inst *in) { return in->op == OP_BUILTIN && in->callee == BI_TILE_CHOLESKY; }

static int is_tri_solve(const Inst *in)
{
	return in->op == OP_BUILTIN && (in->callee == BI_TILE_LOWER_SOLVE || in->callee == BI_TILE_LOWER_SOLVE_2D ||
					in->callee == BI_TILE_UPPER_SOLVE || in->callee == BI_TILE_UPPER_SOLVE_2D);
}

/* kdiff's parts of their adjoints that read across: a triangle of an
 * outer product, a triangle mirrored */
static int is_triangle_across(const Inst *in)
{
	return in->op == OP_BUILTIN && (in->callee == BI_TILE_LOWER_OUTER || in->callee == BI_TILE_LOWER_OUTER_2D ||
					in->callee == BI_TILE_UPPER_OUTER || in->callee == BI_TILE_UPPER_OUTER_2D ||
					in->callee == BI_TILE_MIRROR_LOWER);
}

/* Does a factor or solve have barriers of its own?  A solve of one row
 * is a division. */
static int solver_steps(const Emitter *e, const Inst *in)
{
	return is_factor(in) || (is_tri_solve(in) && ty_extent(vty(e, in->arg[0]), 0) > 1);
}

/* Does in read its tile operands other than element by element? */
static int reads_across(const Inst *in)
{
	return (in->op == OP_BUILTIN &&
		(in->callee == BI_TILE_MATMUL || in->callee == BI_TILE_TRANSPOSE || in->callee == BI_TILE_FFT ||
		 in->callee == BI_TILE_IFFT || in->callee == BI_TILE_ONEHOT || in->callee == BI_TILE_PERMUTE ||
		 in->callee == BI_TILE_DIAG_ADD || in->callee == BI_TILE_DIAG)) ||
	       in->op == OP_TILE_BROADCAST || in->op == OP_TILE_SUM_TO || is_exclusive_scan(in) || is_factor(in) ||
	       is_tri_solve(in) || is_triangle_across(in) || is_scan_adj(in) ||
	       ir_op_indexed(in->op) || /* the indices */
	       in->op == OP_TILE_VIEW || in->op == OP_TILE_ASSIGN;
}

/* The one operand that in reads across, -1 for all: an indexed access's
 * indices, the diagonal tile_diag_add adds (its square tile is read
 * element by element). */
static int across_only(const Inst *in)
{
	if (ir_op_indexed(in->op))
		return in->op == OP_TILE_LOAD_INDEXED ? 1 : 2;
	if ((in->op == OP_BUILTIN && in->callee == BI_TILE_DIAG_ADD) || in->op == OP_TILE_ASSIGN)
		return 1;
	return -1;
}

/* The points of a row of a Fourier transform (tile_fft, tile_ifft), 0
 * for any other instruction. */
static int fft_points(const Emitter *e, const Inst *in)
{
	if (in->op != OP_BUILTIN || (in->callee != BI_TILE_FFT && in->callee != BI_TILE_IFFT))
		return 0;
	Type t = vty(e, in->arg[0]);
	return ty_extent(t, ty_ndim(t) - 1);
}

/* A transform of rows of a power-of-two length from 2 on: its stages of
 * butterflies, log2 of the length, each behind a barrier of its own, each
 * thread's butterflies writing elements of other threads; 0 for any other
 * instruction (a row of another length is a direct sum for each element,
 * which reads across as a product does; a row of one point is a copy). */
static int fft_stages(const Emitter *e, const Inst *in)
{
	int n = fft_points(e, in), stages = 0;
	if (n & (n - 1))
		return 0;
	while ((1 << stages) < n)
		stages++;
	return stages;
}

/* A reduction: a copy, element by element, then a tree behind barriers
 * of its own, then its result's one element. */
static int is_reduction(const Inst *in)
{
	return in->op == OP_BUILTIN &&
	       (in->callee == BI_TILE_SUM || in->callee == BI_TILE_MIN || in->callee == BI_TILE_MAX ||
		in->callee == BI_TILE_PROD || in->callee == BI_TILE_ARGMIN || in->callee == BI_TILE_ARGMAX);
}

/* A reduction to the index of an element: a tree of the elements and
 * one of their indices beside it. */
static int is_arg_reduction(const Inst *in)
{
	return in->op == OP_BUILTIN && (in->callee == BI_TILE_ARGMIN || in->callee == BI_TILE_ARGMAX);
}

/* wp.untile: a thread's own element, which it wrote itself (element k
 * is thread k's) unless threads added into it. */
static int is_untile(const Inst *in) { return in->op == OP_BUILTIN && in->callee == BI_UNTILE; }

/* A thread's own access of a tile's elements, any of them. */
static int own_access(const Emitter *e, const Inst *in)
{
	return (in->op == OP_EXTRACT && ty_is_tile(vty(e, in->arg[0]))) || in->op == OP_TILE_ADD_AT ||
	       is_untile(in);
}

/* A thread's share of a tile's sum: the elements it computes, no hazard. */
static int is_share(const Inst *in) { return in->op == OP_BUILTIN && in->callee == BI_TILE_SHARE; }

static int collective(const Emitter *e, const Inst *in)
{
	return tile_stmt(e, in) && !own_access(e, in) && !is_share(in);
}

static int note_points(void *ctx, const Inst *in)
{
	Hazards *h = ctx;
	if (is_untile(in))
		return 0;
	if (own_access(h->e, in))
		h->point[in->arg[0]] = 1;
	else if (!collective(h->e, in) && in->narg && ty_is_array(vty(h->e, in->arg[0])) &&
		 (ir_inst_load(in) || ir_inst_store(in) || ir_inst_atomic(in)))
		h->point[in->arg[0]] = 1;
	else if (in->op == OP_CALL)
		for (int k = 0; k < in->narg; k++)
			if (ty_is_array(vty(h->e, in->arg[k])))
				h->point[in->arg[k]] = 1;
	return 0;
}

static void walk_hazards(Hazards *h, const Block *b, uint8_t *st);
static void walk_blocks(Hazards *h, const Inst *in, uint8_t *st);

static int is_collective(void *ctx, const Inst *in) { return collective(ctx, in); }

/* Does b hold a collective operation, however deep? */
static int holds_collective(const Emitter *e, const Block *b) { return ir_walk_const(b, is_collective, (void *)e); }

/* Would a thread's own access of a tile wait, in state st? */
static int own_waits(const Emitter *e, const Inst *in, const uint8_t *st)
{
	if (!own_access(e, in))
		return 0;
	if (is_untile(in))
		return (st[in->arg[0]] & TA) != 0;
	return (st[in->arg[0]] & (in->op == OP_TILE_ADD_AT ? TW | TR : TW | TA)) != 0;
}

typedef struct Waits {
	const Emitter *e;
	const uint8_t *st;
} Waits;

static int waits_in(void *ctx, const Inst *in)
{
	Waits *w = ctx;
	return own_waits(w->e, in, w->st);
}

/* st |= other */
static void join(uint8_t *st, const uint8_t *other, int n)
{
	for (int i = 0; i < n; i++)
		st[i] |= other[i];
}

/* A thread's own access: what it leaves for the next barrier to settle. */
static void own_hazards(Hazards *h, const Inst *in, uint8_t *st)
{
	Emitter *e = h->e;
	if (is_untile(in))
		return;
	if (own_access(e, in)) {
		st[in->arg[0]] |= in->op == OP_TILE_ADD_AT ? TA : TR;
		return;
	}
	if (in->op == OP_CALL) {
		for (int k = 0; k < in->narg; k++)
			if (ty_is_array(vty(e, in->arg[k])))
				st[in->arg[k]] |= TW | TR;
		return;
	}
	if (in->narg && ty_is_array(vty(e, in->arg[0])) && in->op != OP_SHAPE)
		st[in->arg[0]] |= (ir_inst_load(in) || ir_inst_atomic(in) ? TR : 0) |
				  (ir_inst_store(in) || ir_inst_atomic(in) ? TW : 0);
}

static void hazards_of(Hazards *h, const Inst *in, uint8_t *st)
{
	Emitter *e = h->e;
	int n = h->n;
	if (ir_op_blocks(in->op)) {
		/* its blocks are collective when they hold a collective
		 * operation; if not, a wait of theirs is the statement's */
		int coll = h->coll;
		h->coll = coll && (holds_collective(e, &in->body) || holds_collective(e, &in->els));
		if (coll && !h->coll) {
			Waits w = {e, st};
			if (ir_walk_inst_const(in, waits_in, &w)) {
				e->ii[inst_id(e, in)].sync = 1;
				memset(st, 0, (size_t)n);
			}
		}
		walk_blocks(h, in, st);
		h->coll = coll;
		return;
	}
	if (is_share(in))
		return;
	if (!collective(e, in)) {
		if (h->coll && own_waits(e, in, st)) {
			e->ii[inst_id(e, in)].sync = 1;
			memset(st, 0, (size_t)n);
		}
		own_hazards(h, in, st);
		return;
	}
	int across = reads_across(in) && fft_points(e, in) != 1, need = 0, after = 0;
	/* an indexed access reads across its indices alone */
	int only = across_only(in);
	/* a factor's or a solve's steps read across behind barriers of their own */
	int steps = solver_steps(e, in);
	for (int k = 0; k < in->narg; k++) {
		int v = in->arg[k], x = across && !steps && (only < 0 || k == only);
		if (ty_is_tile(vty(e, v)) && (st[v] & (x ? TW | TA : TA)))
			need = 1;
	}
	for (int k = 0; k < in->nres; k++) {
		int v = in->res[k];
		need |= (st[v] & (TR | TA)) != 0;
		after |= h->point[v];
	}
	/* an array: a load after writes, a store after any access */
	int arr = in->narg && ty_is_array(vty(e, in->arg[0])) ? in->arg[0] : -1;
	int awrite = in->op == OP_TILE_STORE || in->op == OP_TILE_ATOMIC_ADD || in->op == OP_TILE_STORE_INDEXED ||
		     in->op == OP_TILE_ATOMIC_ADD_INDEXED;
	if (arr >= 0) {
		need |= (st[arr] & (awrite ? TW | TR : TW)) != 0;
		after |= awrite && h->point[arr];
	}
	IInfo *x = &e->ii[inst_id(e, in)];
	x->sync |= need;
	if (need || ((is_reduction(in) || is_scan(in) || is_sort_order(in)) && ty_count(vty(e, in->arg[0])) > 1))
		memset(st, 0, (size_t)n); /* a tree or scan of more than one element has barriers of its own */
	for (int k = 0; k < in->narg && across; k++)
		if (ty_is_tile(vty(e, in->arg[k])) && (only < 0 || k == only))
			st[in->arg[k]] |= TR;
	for (int k = 0; k < in->nres; k++)
		st[in->res[k]] |= TW;
	if (in->op == OP_BUILTIN && in->callee == BI_TILE_PICK)
		st[in->res[0]] |= TA; /* its element is thread `thread`'s */
	if (is_unpermute(in))
		st[in->res[0]] |= TA; /* each element's place is another thread's */
	if (fft_stages(e, in)) {      /* barriers of its own, then writes by any thread */
		memset(st, 0, (size_t)n);
		st[in->res[0]] |= TW | TA;
	}
	if (steps) { /* barriers of its own; the last step reads across */
		memset(st, 0, (size_t)n);
		for (int k = 0; k < in->narg; k++)
			st[in->arg[k]] |= TR;
		/* a factor's last column is any thread's; a solve ends
		 * dividing each element by its own thread */
		st[in->res[0]] |= TW | (is_factor(in) ? TA : 0);
	}
	if (arr >= 0)
		st[arr] |= awrite ? TW : TR;
	x->sync_after |= after;
	if (after)
		memset(st, 0, (size_t)n);
}

/* The blocks of if or loop in, from state st, leaving the state after. */
static void walk_blocks(Hazards *h, const Inst *in, uint8_t *st)
{
	int n = h->n;
	if (in->op == OP_IF) {
		uint8_t *other = xmalloc((size_t)n);
		memcpy(other, st, (size_t)n);
		walk_hazards(h, &in->body, st);
		walk_hazards(h, &in->els, other);
		join(st, other, n);
		free(other);
		return;
	}
	/* a loop: the state at its head is the entry's and the end of the
	 * body's, until it settles (each round only adds) */
	uint8_t *head = xmalloc((size_t)n), *body = xmalloc((size_t)n);
	memcpy(head, st, (size_t)n);
	for (;;) {
		memcpy(body, head, (size_t)n);
		walk_hazards(h, &in->body, body);
		int grew = 0;
		for (int i = 0; i < n; i++)
			if ((head[i] | body[i]) != head[i])
				head[i] |= body[i], grew = 1;
		if (!grew)
			break;
	}
	memcpy(st, head, (size_t)n);
	free(head);
	free(body);
}

static void walk_hazards(Hazards *h, const Block *b, uint8_t *st)
{
	for (int i = 0; i < b->n; i++)
		if (!h->e->ii[inst_id(h->e, &b->v[i])].dead)
			hazards_of(h, &b->v[i], st);
}

void tile_barriers(Emitter *e, const Func *f)
{
	e->tiled = f->is_kernel && ir_func_tiled(f);
	if (e->target != EMIT_CUDA || !e->tiled)
		return;
	Hazards h = {e, f->nval, 1, xmalloc((size_t)f->nval + 1)};
	uint8_t *st = xmalloc((size_t)f->nval + 1);
	memset(st, 0, (size_t)f->nval + 1);
	memset(h.point, 0, (size_t)f->nval + 1);
	ir_walk_const(&f->body, note_points, &h);
	walk_hazards(&h, &f->body, st);
	free(st);
	free(h.point);
}

void tile_sync(Emitter *e, const Inst *in, int depth)
{
	indent(e, depth);
	fputs("__syncthreads();", e->out);
	line_end(e, in);
}

/* ---- the code ------------------------------------------------------------ */

/* The names tile loops use, taken once per function: the element, its
 * row and column, the index of a product's sum, its sum, a tree's step;
 * a Fourier transform's (emit_fft). */
enum {
	TN_K,
	TN_ROW,
	TN_COL,
	TN_Q,
	TN_DOT,
	TN_HALF,
	TN_IDX,
	TN_C0,
	TN_ELEM = TN_C0 + KS_MAX_NDIM,
	TN_REV,
	TN_POS,
	TN_LO,
	TN_HI,
	TN_ANGLE,
	TN_COS,
	TN_SIN,
	TN_U,
	TN_V,
	TN_X,
	TN_RE,
	TN_IM,
	TN_DIAG,
	TN_RHS,
	TN_SIZE,
	TN_SWAP,
	TN_SWAP_AT,
	TN_STATE,
	TN_COUNT
};

static const char *tname(Emitter *e, int which)
{
	_Static_assert(TN_COUNT <= (int)(sizeof e->tname / sizeof *e->tname), "Emitter.tname is too short");
	/* a 1-D tile's coordinate is idx, a 2-D one's row and col, a 3-D or
	 * 4-D one's c0 .. c3 */
	static const char *const base[TN_COUNT] = {"k",     "row", "col",  "q",    "dot",     "span", "idx", "c0",
						   "c1",    "c2",  "c3",   "elem", "rev",     "pos",  "lo",  "hi",
						   "angle", "c",   "s",    "u",    "v",       "x",    "re",  "im",
						   "diag",  "rhs", "size", "swap", "swap_at", "state"};
	if (!e->tname[which])
		e->tname[which] = make_name(e, base[which], 0);
	return e->tname[which];
}

/* "8 * 4": a tile's element count as its extents' product */
static void put_count(Buf *b, Type t)
{
	for (int k = 0; k < ty_ndim(t); k++) {
		if (k)
			buf_puts(b, " * ");
		buf_int(b, ty_extent(t, k));
	}
}

/* Do C's operators compute numbers of type t as Warp does?  Not float16's
 * (a struct) nor the small ints' (which C promotes): the runtime's
 * functions do, ks_add_float16. */
static int c_arith(Type t)
{
	return t == TY_INT || t == TY_UINT32 || t == TY_INT64 || t == TY_UINT64 || t == TY_FLOAT || t == TY_DOUBLE;
}

/* x OP y on elements of types t and u: "x + y" on the numbers C's
 * operators compute, else the runtime's functions, as for scalar code:
 * "ks_add_float16(x, y)", "ks_mul_vec3_float(x, y)" */
static void put_arith(Buf *b, int op, Type t, Type u, const char *x, const char *y)
{
	/* clang-format off */
	static const char *const sym[] = {
		[OP_ADD] = " + ", [OP_SUB] = " - ", [OP_MUL] = " * ", [OP_DIV] = " / ", [OP_LT] = " < ",
		[OP_LE] = " <= ", [OP_GT] = " > ", [OP_GE] = " >= ", [OP_EQ] = " == ", [OP_NE] = " != ",
	};
	static const char *const word[] = {
		[OP_ADD] = "add", [OP_SUB] = "sub", [OP_MUL] = "mul", [OP_DIV] = "div", [OP_LT] = "lt",
		[OP_LE] = "le", [OP_GT] = "gt", [OP_GE] = "ge", [OP_EQ] = "eq", [OP_NE] = "ne",
	};
	/* clang-format on */
	if (c_arith(t) && t == u)
		buf_cat(b, x, sym[op], y, NULL);
	else if ((op == OP_MUL || op == OP_DIV) && (ty_is_composite(t) || ty_is_composite(u)))
		buf_cat(b, "ks_", word[op], "_", ty_name(t), "_", ty_name(u), "(", x, ", ", y, ")", NULL);
	else
		buf_cat(b, "ks_", word[op], "_", ty_name(t), "(", x, ", ", y, ")", NULL);
}

/* x converted from number type from to number type to */
static void put_conv_elem(Buf *b, Type from, Type to, const char *x)
{
	if (from == to)
		buf_puts(b, x);
	else if (from != TY_HALF && to != TY_HALF && !(ty_is_float(from) && ty_is_int(to)))
		buf_cat(b, "(", scalar_ctype(to), ")", x, NULL);
	else
		buf_cat(b, "ks_to_", ty_name(to), "_", ty_name(from), "(", x, ")", NULL);
}

/* The declaration of tile value v: "__shared__ float a[8 * 8];" */
void tile_decl(Emitter *e, Buf *b, int v)
{
	Type t = vty(e, v);
	if (e->target == EMIT_CUDA)
		buf_puts(b, "__shared__ ");
	buf_cat(b, ctype(ty_elem(t)), " ", e->v[v].name, "[", NULL);
	put_count(b, t);
	buf_puts(b, "];");
}

/* The loop over the elements of tile type t, opened: on the CPU all of
 * them, in CUDA this thread's. */
static void open_loop(Emitter *e, int depth, Type t, const Inst *in)
{
	const char *k = tname(e, TN_K);
	Buf b = {0};
	indent(e, depth);
	if (e->target == EMIT_CUDA)
		buf_cat(&b, "for (int ", k, " = threadIdx.x; ", k, " < ", NULL);
	else
		buf_cat(&b, "for (int ", k, " = 0; ", k, " < ", NULL);
	put_count(&b, t);
	if (e->target == EMIT_CUDA)
		buf_cat(&b, "; ", k, " += blockDim.x) {", NULL);
	else
		buf_cat(&b, "; ", k, "++) {", NULL);
	fwrite(b.p, 1, b.n, e->out);
	line_end(e, in);
	buf_free(&b);
}

static void close_block(Emitter *e, int depth)
{
	indent(e, depth);
	fputs("}\n", e->out);
}

/* One statement at depth: text, then the line. */
static void put_stmt(Emitter *e, int depth, Buf *b, const Inst *in)
{
	indent(e, depth);
	fwrite(b->p, 1, b->n, e->out);
	line_end(e, in);
	b->n = 0;
}

/* Operand val at element k: "a[k]" for a tile, the value itself else. */
static void put_at(Emitter *e, Buf *b, int val, int prec)
{
	if (ty_is_tile(vty(e, val))) {
		buf_cat(b, e->v[val].name, "[", tname(e, TN_K), "]", NULL);
		return;
	}
	put_expr(e, b, val, prec);
}

/* "(k / 8 % 4)": coordinate d of element k of a tile of type t, its flat
 * index named k; bare, without the parentheses (a term of a sum) */
static void put_coord(Buf *b, Type t, int d, const char *k, int bare)
{
	int stride = 1, above = 1;
	for (int j = d + 1; j < ty_ndim(t); j++)
		stride *= ty_extent(t, j);
	for (int j = 0; j < d; j++)
		above *= ty_extent(t, j);
	int outer = above > 1; /* k reaches past this coordinate's extent */
	if (stride == 1 && !outer) {
		buf_puts(b, k);
		return;
	}
	if (!bare)
		buf_putc(b, '(');
	buf_puts(b, k);
	if (stride > 1) {
		buf_puts(b, " / ");
		buf_int(b, stride);
	}
	if (outer) {
		buf_puts(b, " % ");
		buf_int(b, ty_extent(t, d));
	}
	if (!bare)
		buf_putc(b, ')');
}

/* "int row = OFF0 + k / 4, col = OFF1 + k % 4;" for tile type t at
 * offsets off (NULL: none); the names of the coordinates in c[]. */
static void put_coords(Emitter *e, Buf *b, Type t, const int32_t *off, const char **c, int axis, const char *ind)
{
	const char *k = tname(e, TN_K);
	int nd = ty_ndim(t);
	for (int d = 0; d < nd; d++)
		c[d] = tname(e, nd == 1 ? TN_IDX : nd == 2 ? TN_ROW + d : TN_C0 + d);
	buf_puts(b, "int ");
	for (int d = 0; d < nd; d++) {
		buf_cat(b, d ? ", " : "", c[d], " = ", NULL);
		if (off) {
			put_expr(e, b, off[d], P_ADD);
			buf_puts(b, " + ");
		}
		if (d == axis) {
			buf_cat(b, ind, "[", NULL);
			put_coord(b, t, d, k, 1);
			buf_putc(b, ']');
		} else {
			put_coord(b, t, d, k, 1);
		}
	}
	buf_putc(b, ';');
}

/* The array element at coordinates c: "A.data[row * A.shape[1] + col]" */
static void put_array_at(Emitter *e, Buf *b, int arr, int nd, const char **c)
{
	/* row-major over the array's extents: ((c0 * a.shape[1] + c1) * a.shape[2] + c2) */
	put_expr(e, b, arr, P_POSTFIX);
	buf_puts(b, ".data[");
	for (int d = 2; d < nd; d++)
		buf_putc(b, '(');
	buf_puts(b, c[0]);
	for (int d = 1; d < nd; d++) {
		buf_puts(b, " * ");
		put_expr(e, b, arr, P_POSTFIX);
		buf_puts(b, ".shape[");
		buf_int(b, d);
		buf_cat(b, "] + ", c[d], d + 1 < nd ? ")" : "", NULL);
	}
	buf_putc(b, ']');
}

/* "0 <= row && row < A.shape[0] && ..." */
static void put_inside(Emitter *e, Buf *b, int arr, int nd, const char **c)
{
	for (int d = 0; d < nd; d++) {
		buf_cat(b, d ? " && " : "", "0 <= ", c[d], " && ", c[d], " < ", NULL);
		put_expr(e, b, arr, P_POSTFIX);
		buf_puts(b, ".shape[");
		buf_int(b, d);
		buf_putc(b, ']');
	}
}

/* tile_load, tile_store and tile_atomic_add: the elements inside the
 * array, row-major from the offsets (a load reads 0 past the array's
 * end); the adds are the runtime's atomics (the blocks of a launch may
 * add into one element). */
static void emit_access(Emitter *e, const Inst *in, int depth, int t)
{
	int load = in->op == OP_TILE_LOAD || in->op == OP_TILE_LOAD_INDEXED, arr = in->arg[0];
	int indexed = ir_op_indexed(in->op), axis = -1;
	const char *ind = NULL;
	if (indexed) {
		/* the indices, the axis, then the offsets */
		ind = e->v[in->arg[load ? 1 : 2]].name;
		axis = (int)e->f->val[in->arg[load ? 2 : 3]].k.i;
	}
	Type tt = vty(e, t);
	int nd = ty_ndim(tt);
	const int32_t *off = in->arg + (load ? 1 : 2) + 2 * indexed;
	const char *c[KS_MAX_NDIM];
	Buf b = {0};
	open_loop(e, depth, tt, in);
	put_coords(e, &b, tt, off, c, axis, ind);
	put_stmt(e, depth + 1, &b, in);
	if (load) {
		buf_cat(&b, e->v[t].name, "[", tname(e, TN_K), "] = ", NULL);
		put_inside(e, &b, arr, nd, c);
		buf_puts(&b, " ? ");
		put_array_at(e, &b, arr, nd, c);
		buf_cat(&b, " : ", zero_of(e, ty_elem(tt)), ";", NULL);
		put_stmt(e, depth + 1, &b, in);
	} else {
		buf_puts(&b, "if (");
		put_inside(e, &b, arr, nd, c);
		buf_puts(&b, ")");
		put_stmt(e, depth + 1, &b, in);
		if (in->op == OP_TILE_ATOMIC_ADD || in->op == OP_TILE_ATOMIC_ADD_INDEXED) {
			buf_cat(&b, "ks_atomic_add_", ty_name(ty_elem(tt)), "(&", NULL);
			put_array_at(e, &b, arr, nd, c);
			buf_cat(&b, ", ", e->v[t].name, "[", tname(e, TN_K), "]);", NULL);
		} else {
			put_array_at(e, &b, arr, nd, c);
			buf_cat(&b, " = ", e->v[t].name, "[", tname(e, TN_K), "];", NULL);
		}
		put_stmt(e, depth + 2, &b, in);
	}
	close_block(e, depth);
	buf_free(&b);
}

/* r = a @ b, r MxN, a MxK, b KxN: each element the sum of a row of a
 * times a column of b, in order. */
static void emit_matmul(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]), tr = vty(e, in->res[0]);
	int kk = ty_extent(ta, 1), n = ty_extent(tr, 1);
	const char *row = tname(e, TN_ROW), *col = tname(e, TN_COL), *q = tname(e, TN_Q), *dot = tname(e, TN_DOT);
	const char *a = e->v[in->arg[0]].name, *bb = e->v[in->arg[1]].name;
	Buf b = {0};
	open_loop(e, depth, tr, in);
	buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, tname(e, TN_K), n, col, tname(e, TN_K), n);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s %s = %s;", ctype(ty_elem(tr)), dot, zero_of(e, ty_elem(tr)));
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "for (int %s = 0; %s < %d; %s++)", q, q, kk, q);
	put_stmt(e, depth + 1, &b, in);
	Type el = ty_elem(tr);
	if (c_arith(el)) {
		buf_printf(&b, "%s += %s[%s * %d + %s] * %s[%s * %d + %s];", dot, a, row, kk, q, bb, q, n, col);
	} else {
		char x[200], y[200];
		snprintf(x, sizeof x, "%s[%s * %d + %s]", a, row, kk, q);
		snprintf(y, sizeof y, "%s[%s * %d + %s]", bb, q, n, col);
		Buf m = {0};
		put_arith(&m, OP_MUL, el, el, x, y);
		buf_cat(&b, dot, " = ", NULL);
		put_arith(&b, OP_ADD, el, el, dot, m.p);
		buf_putc(&b, ';');
		buf_free(&m);
	}
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s[%s] = %s;", r, tname(e, TN_K), dot);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* The flat index in tile a of the element that broadcasts to element k
 * (named kn) of tile t, "0" if a has one element. */
static void put_broadcast_index(Buf *b, Type a, Type t, const char *kn)
{
	int na = ty_ndim(a), nt = ty_ndim(t), any = 0, stride = 1;
	Buf terms = {0};
	for (int d = na - 1; d >= 0; d--) {
		if (ty_extent(a, d) != 1) {
			Buf one = {0};
			put_coord(&one, t, d + nt - na, kn, 0);
			if (stride > 1) {
				buf_puts(&one, " * ");
				buf_int(&one, stride);
			}
			if (any)
				buf_puts(&one, " + ");
			if (terms.n)
				buf_put(&one, terms.p, terms.n);
			buf_free(&terms);
			terms = one;
			any = 1;
		}
		stride *= ty_extent(a, d);
	}
	if (any)
		buf_put(b, terms.p, terms.n);
	else
		buf_putc(b, '0');
	buf_free(&terms);
}

/* r = a broadcast to r's shape: each element from a's element it repeats */
static void emit_broadcast(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->res[0]), a = vty(e, in->arg[0]);
	Buf b = {0};
	open_loop(e, depth, t, in);
	buf_cat(&b, r, "[", tname(e, TN_K), "] = ", e->v[in->arg[0]].name, "[", NULL);
	put_broadcast_index(&b, a, t, tname(e, TN_K));
	buf_puts(&b, "];");
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r = g summed to r's shape (the adjoint of a broadcast, a sum along
 * axes): each element the sum, in order, of the elements of g it
 * broadcasts to */
static void emit_sum_to(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->res[0]), g = vty(e, in->arg[0]), el = ty_elem(t);
	int nt = ty_ndim(t), ng = ty_ndim(g), reps = ty_count(g) / ty_count(t);
	const char *k = tname(e, TN_K), *q = tname(e, TN_Q), *dot = tname(e, TN_DOT);
	/* g's element: the kept coordinates from k, the summed ones from q */
	Buf idx = {0}, b = {0};
	int gstride = 1, rstride = 1;
	for (int d = ng - 1; d >= 0; d--) {
		int dt = d - (ng - nt), kept = dt >= 0 && ty_extent(t, dt) != 1;
		Buf one = {0};
		if (kept) {
			put_coord(&one, t, dt, k, 0);
		} else if (ty_extent(g, d) == 1) {
			gstride *= 1;
			continue;
		} else {
			int div = rstride > 1, mod = rstride * ty_extent(g, d) < reps;
			if (div || mod)
				buf_putc(&one, '(');
			buf_puts(&one, q);
			if (div) {
				buf_puts(&one, " / ");
				buf_int(&one, rstride);
			}
			if (mod) {
				buf_puts(&one, " % ");
				buf_int(&one, ty_extent(g, d));
			}
			if (div || mod)
				buf_putc(&one, ')');
			rstride *= ty_extent(g, d);
		}
		if (gstride > 1) {
			buf_puts(&one, " * ");
			buf_int(&one, gstride);
		}
		if (idx.n)
			buf_puts(&one, " + ");
		if (idx.n)
			buf_put(&one, idx.p, idx.n);
		buf_free(&idx);
		idx = one;
		gstride *= ty_extent(g, d);
	}
	buf_putc(&idx, 0);
	open_loop(e, depth, t, in);
	buf_cat(&b, ctype(el), " ", dot, " = ", zero_of(e, el), ";", NULL);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "for (int %s = 0; %s < %d; %s++)", q, q, reps, q);
	put_stmt(e, depth + 1, &b, in);
	char x[400];
	snprintf(x, sizeof x, "%s[%s]", e->v[in->arg[0]].name, idx.p);
	if (c_arith(el)) {
		buf_cat(&b, dot, " += ", x, ";", NULL);
	} else {
		buf_cat(&b, dot, " = ", NULL);
		put_arith(&b, OP_ADD, el, el, dot, x);
		buf_putc(&b, ';');
	}
	put_stmt(e, depth + 2, &b, in);
	buf_cat(&b, r, "[", k, "] = ", dot, ";", NULL);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
	buf_free(&idx);
}

/* r = the transpose of a (MxN): r[row][col] = a[col][row] */
static void emit_transpose(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]);
	int m = ty_extent(ta, 0), n = ty_extent(ta, 1);
	const char *row = tname(e, TN_ROW), *col = tname(e, TN_COL), *k = tname(e, TN_K);
	Buf b = {0};
	open_loop(e, depth, vty(e, in->res[0]), in);
	buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, k, m, col, k, m);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s[%s] = %s[%s * %d + %s];", r, k, e->v[in->arg[0]].name, col, n, row);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r = a with d added to its diagonal (wp.tile_diag_add), element by
 * element, d's read across; r = a's diagonal (kdiff's tile_diag). */
static void emit_diag(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]), el = ty_elem(ta);
	int n = ty_extent(ta, 0);
	const char *row = tname(e, TN_ROW), *col = tname(e, TN_COL), *k = tname(e, TN_K),
		   *a = e->v[in->arg[0]].name;
	Buf b = {0};
	open_loop(e, depth, vty(e, in->res[0]), in);
	if (in->callee == BI_TILE_DIAG) {
		buf_printf(&b, "%s[%s] = %s[%s * %d];", r, k, a, k, n + 1);
	} else {
		char x[300], y[300];
		snprintf(x, sizeof x, "%s[%s]", a, k);
		snprintf(y, sizeof y, "%s[%s]", e->v[in->arg[1]].name, row);
		buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, k, n, col, k, n);
		put_stmt(e, depth + 1, &b, in);
		buf_cat(&b, r, "[", k, "] = ", row, " == ", col, " ? ", NULL);
		put_arith(&b, OP_ADD, el, el, x, y);
		buf_cat(&b, " : ", x, ";", NULL);
	}
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* The names of the coordinates of a tile of nd dimensions in c[]. */
static void coord_names(Emitter *e, int nd, const char **c)
{
	for (int d = 0; d < nd; d++)
		c[d] = tname(e, nd == 1 ? TN_IDX : nd == 2 ? TN_ROW + d : TN_C0 + d);
}

/* "((c0 * 4 + c1) * 8 + c2)": the element at coordinates c of tile t,
 * its last n extents */
static void put_flat_at(Buf *b, Type t, int n, const char **c)
{
	int lead = ty_ndim(t) - n;
	for (int d = 2; d < n; d++)
		buf_putc(b, '(');
	buf_puts(b, c[0]);
	for (int d = 1; d < n; d++)
		buf_printf(b, " * %d + %s%s", ty_extent(t, lead + d), c[d], d + 1 < n ? ")" : "");
}

/* "int c0 = ..., c1 = ...;", a statement: the coordinates c of an element
 * that is the loop's element k of tile t over nd dimensions (t has the
 * last nd - lead).  READ: in the tile read from the offsets on (c = off
 * + k's coordinate; off alone along the lead dimensions); else relative
 * to the offsets (c = k's coordinate - off, lead 0). */
static void put_part_coords(Emitter *e, const Inst *in, int depth, int nd, const char **c, const int32_t *off,
			    Type t, int lead, int read)
{
	Buf b = {0};
	buf_puts(&b, "int ");
	for (int d = 0; d < nd; d++) {
		buf_cat(&b, d ? ", " : "", c[d], " = ", NULL);
		if (read) {
			put_expr(e, &b, off[d], d < lead ? P_COND : P_ADD);
			if (d >= lead) {
				buf_puts(&b, " + ");
				put_coord(&b, t, d - lead, tname(e, TN_K), 1);
			}
			continue;
		}
		put_coord(&b, t, d, tname(e, TN_K), 1);
		const Value *o = &e->f->val[off[d]];
		if (o->kind != VK_CONST || o->k.i) {
			buf_puts(&b, " - ");
			put_expr(e, &b, off[d], P_ADD + 1);
		}
	}
	buf_putc(&b, ';');
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

/* r = the elements of t from the offsets on, in r's shape, its extents
 * t's last (tile_view: wp.tile_view, t[i] of a row), 0 past t's end. */
static void emit_view(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type tt = vty(e, in->arg[0]), tr = vty(e, in->res[0]);
	int nd = ty_ndim(tt), lead = nd - ty_ndim(tr);
	const int32_t *off = in->arg + 1;
	const char *c[KS_MAX_NDIM];
	coord_names(e, nd, c);
	Buf b = {0};
	open_loop(e, depth, tr, in);
	put_part_coords(e, in, depth + 1, nd, c, off, tr, lead, 1);
	buf_cat(&b, r, "[", tname(e, TN_K), "] = ", NULL);
	for (int d = 0; d < nd; d++)
		buf_printf(&b, "%s0 <= %s && %s < %d", d ? " && " : "", c[d], c[d], ty_extent(tt, d));
	buf_cat(&b, " ? ", e->v[in->arg[0]].name, "[", NULL);
	put_flat_at(&b, tt, nd, c);
	buf_cat(&b, "] : ", zero_of(e, ty_elem(tt)), ";", NULL);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r = t with s's elements from the offsets on, s's extents t's last
 * (tile_assign: wp.tile_assign, t[i] = row), element by element over
 * t, each element's coordinates taken relative to the offsets, s read
 * across. */
static void emit_tile_assign(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type tt = vty(e, in->arg[0]), ts = vty(e, in->arg[1]);
	int nd = ty_ndim(tt), ns = ty_ndim(ts), lead = nd - ns, inplace = in->res[0] == in->arg[0];
	const int32_t *off = in->arg + 2;
	const char *c[KS_MAX_NDIM], *k = tname(e, TN_K);
	coord_names(e, nd, c);
	Buf b = {0};
	open_loop(e, depth, tt, in);
	put_part_coords(e, in, depth + 1, nd, c, off, tt, 0, 0);
	if (inplace)
		buf_puts(&b, "if (");
	else
		buf_cat(&b, r, "[", k, "] = ", NULL);
	for (int d = 0; d < nd; d++) {
		int ext = d < lead ? 1 : ty_extent(ts, d - lead);
		if (ext == 1)
			buf_printf(&b, "%s%s == 0", d ? " && " : "", c[d]);
		else
			buf_printf(&b, "%s0 <= %s && %s < %d", d ? " && " : "", c[d], c[d], ext);
	}
	buf_puts(&b, inplace ? ")" : " ? ");
	if (inplace) {
		put_stmt(e, depth + 1, &b, in);
		buf_cat(&b, r, "[", k, "] = ", NULL);
	}
	buf_cat(&b, e->v[in->arg[1]].name, "[", NULL);
	put_flat_at(&b, ts, ns, c + lead);
	buf_puts(&b, "]");
	if (!inplace)
		buf_cat(&b, " : ", e->v[in->arg[0]].name, "[", k, "]", NULL);
	buf_putc(&b, ';');
	put_stmt(e, depth + 1 + inplace, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r[0] = the sum (product, min, max) of a's elements: a copy into
 * scratch s, then a tree, each step combining the elements half apart,
 * behind a barrier in CUDA.  An argmin or argmax carries each element's
 * index beside it in a second scratch, the lesser index winning a tie. */
static void emit_reduction(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]), el = ty_elem(ta);
	int n = ty_count(ta), p = 1;
	while (p < n)
		p *= 2;
	int cuda = e->target == EMIT_CUDA, arg = is_arg_reduction(in), c = in->callee;
	int least = c == BI_TILE_MIN || c == BI_TILE_ARGMIN;
	const char *k = tname(e, TN_K), *half = tname(e, TN_HALF);
	char base[300];
	ks_join(base, sizeof base, r, "_tree", NULL);
	const char *s = make_name(e, base, 0), *at = NULL;
	const char *what = c == BI_TILE_SUM ? "sum" : c == BI_TILE_PROD ? "product" : least ? "minimum" : "maximum";
	Buf b = {0};
	buf_printf(&b, "%s%s %s[%d];  // the %s, as a tree", cuda ? "__shared__ " : "", ctype(el), s, n, what);
	indent(e, depth);
	fwrite(b.p, 1, b.n, e->out);
	fputc('\n', e->out);
	b.n = 0;
	if (arg) {
		ks_join(base, sizeof base, r, "_at", NULL);
		at = make_name(e, base, 0);
		buf_printf(&b, "%sint %s[%d];  // and where it is", cuda ? "__shared__ " : "", at, n);
		indent(e, depth);
		fwrite(b.p, 1, b.n, e->out);
		fputc('\n', e->out);
		b.n = 0;
	}
	open_loop(e, depth, ta, in);
	buf_printf(&b, "%s[%s] = %s[%s];", s, k, e->v[in->arg[0]].name, k);
	put_stmt(e, depth + 1, &b, in);
	if (arg) {
		buf_printf(&b, "%s[%s] = %s;", at, k, k);
		put_stmt(e, depth + 1, &b, in);
	}
	close_block(e, depth);
	if (p > 1) {
		if (cuda)
			tile_sync(e, in, depth);
		buf_printf(&b, "for (int %s = %d; %s > 0; %s /= 2) {", half, p / 2, half, half);
		put_stmt(e, depth, &b, in);
		if (cuda)
			buf_printf(&b, "for (int %s = threadIdx.x; %s < %s; %s += blockDim.x)", k, k, half, k);
		else
			buf_printf(&b, "for (int %s = 0; %s < %s; %s++)", k, k, half, k);
		put_stmt(e, depth + 1, &b, in);
		if (p != n) {
			buf_printf(&b, "if (%s + %s < %d)", k, half, n);
			put_stmt(e, depth + 2, &b, in);
		}
		int d = depth + 2 + (p != n);
		char mine[200], other[200];
		snprintf(mine, sizeof mine, "%s[%s]", s, k);
		snprintf(other, sizeof other, "%s[%s + %s]", s, k, half);
		if ((c == BI_TILE_SUM || c == BI_TILE_PROD) && c_arith(el)) {
			buf_cat(&b, mine, c == BI_TILE_SUM ? " += " : " *= ", other, ";", NULL);
		} else if (c == BI_TILE_SUM || c == BI_TILE_PROD) {
			buf_cat(&b, mine, " = ", NULL);
			put_arith(&b, c == BI_TILE_SUM ? OP_ADD : OP_MUL, el, el, mine, other);
			buf_putc(&b, ';');
		} else if (arg) {
			/* if (other < mine || (other == mine && its index is less)) */
			char imine[200], iother[200];
			snprintf(imine, sizeof imine, "%s[%s]", at, k);
			snprintf(iother, sizeof iother, "%s[%s + %s]", at, k, half);
			buf_puts(&b, "if (");
			put_arith(&b, least ? OP_LT : OP_GT, el, el, other, mine);
			buf_puts(&b, " || (");
			put_arith(&b, OP_EQ, el, el, other, mine);
			buf_cat(&b, " && ", iother, " < ", imine, ")) {", NULL);
			put_stmt(e, d, &b, in);
			buf_cat(&b, mine, " = ", other, ";", NULL);
			put_stmt(e, d + 1, &b, in);
			buf_cat(&b, imine, " = ", iother, ";", NULL);
			put_stmt(e, d + 1, &b, in);
			close_block(e, d);
		} else {
			buf_cat(&b, mine, " = ", NULL);
			put_arith(&b, least ? OP_LT : OP_GT, el, el, other, mine);
			buf_cat(&b, " ? ", other, " : ", mine, ";", NULL);
		}
		if (!arg)
			put_stmt(e, d, &b, in);
		if (cuda)
			tile_sync(e, in, depth + 1);
		close_block(e, depth);
	}
	buf_printf(&b, "%s%s[0] = %s[0];", cuda ? "if (threadIdx.x == 0) " : "", r, arg ? at : s);
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

/* out = the adjoint of prefix maxima (minima) r of a, g theirs: an
 * element that is a new maximum, the first of equal ones, gets the
 * adjoints of the run of results that are it, the others 0,
 *     out[k] = 0.0f;
 *     if (k == 0 || r[k - 1] < a[k])
 *         for (int q = k; q < 16 && r[q] == a[k]; q++)
 *             out[k] += g[q]; */
static void emit_scan_adj(Emitter *e, const Inst *in, int depth, const char *out)
{
	Type t = vty(e, in->res[0]), el = ty_elem(t);
	int n = ty_count(t);
	const char *k = tname(e, TN_K), *q = tname(e, TN_Q);
	const char *a = e->v[in->arg[0]].name, *r = e->v[in->arg[1]].name, *g = e->v[in->arg[2]].name;
	char ak[200], before[200];
	snprintf(ak, sizeof ak, "%s[%s]", a, k);
	snprintf(before, sizeof before, "%s[%s - 1]", r, k);
	Buf b = {0};
	open_loop(e, depth, t, in);
	buf_printf(&b, "%s[%s] = %s;", out, k, zero_of(e, el));
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "if (%s == 0 || ", k);
	put_arith(&b, in->callee == BI_TILE_SCAN_MAX_ADJ ? OP_LT : OP_GT, el, el, before, ak);
	buf_putc(&b, ')');
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "for (int %s = %s; %s < %d && %s[%s] == %s; %s++)", q, k, q, n, r, q, ak, q);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s[%s] += %s[%s];", out, k, g, q);
	put_stmt(e, depth + 3, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r = the order that sorts keys a, ascending: a bitonic sort of (key,
 * index) pairs over the count rounded up to a power of two (the pairs
 * past the count greater than any), each step comparing and swapping the
 * pairs a stride apart, each thread its pairs, behind a barrier; the same
 * steps in C.  Equal keys are left where the network leaves them, as
 * Warp's CPU sort (the same network) does, but over 2048 keys of 32 bits,
 * where Warp's is a radix sort, stable: they keep their order. */
static void open_loop_over(Emitter *e, int depth, const char *count, const Inst *in);

static void emit_sort_order(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]), el = ty_elem(ta);
	int n = ty_count(ta), p = 1, cuda = e->target == EMIT_CUDA;
	int stable = n > 2048 && el != TY_INT64 && el != TY_UINT64;
	while (p < n)
		p *= 2;
	const char *k = tname(e, TN_K), *span = tname(e, TN_HALF), *lo = tname(e, TN_LO), *hi = tname(e, TN_HI);
	const char *a = e->v[in->arg[0]].name;
	char base[300], cnt[32];
	ks_join(base, sizeof base, r, "_key", NULL);
	const char *key = make_name(e, base, 0);
	ks_join(base, sizeof base, r, "_at", NULL);
	const char *at = make_name(e, base, 0);
	Buf b = {0};
	indent(e, depth);
	fprintf(e->out, "%s%s %s[%d];  // the keys as they are sorted\n", cuda ? "__shared__ " : "", ctype(el), key,
		p);
	indent(e, depth);
	fprintf(e->out, "%sint %s[%d];  // and where each came from\n", cuda ? "__shared__ " : "", at, p);
	snprintf(cnt, sizeof cnt, "%d", p);
	open_loop_over(e, depth, cnt, in);
	if (p != n)
		buf_printf(&b, "%s[%s] = %s < %d ? %s[%s] : %s;", key, k, k, n, a, k, zero_of(e, el));
	else
		buf_printf(&b, "%s[%s] = %s[%s];", key, k, a, k);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s[%s] = %s;", at, k, k);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	if (p > 1) {
		const char *size = tname(e, TN_SIZE);
		const char *sw = tname(e, TN_SWAP), *swat = tname(e, TN_SWAP_AT);
		if (cuda)
			tile_sync(e, in, depth);
		buf_printf(&b, "for (int %s = 2; %s <= %d; %s *= 2)", size, size, p, size);
		put_stmt(e, depth, &b, in);
		buf_printf(&b, "for (int %s = %s / 2; %s > 0; %s /= 2) {", span, size, span, span);
		put_stmt(e, depth + 1, &b, in);
		snprintf(cnt, sizeof cnt, "%d", p / 2);
		open_loop_over(e, depth + 2, cnt, in);
		buf_printf(&b, "int %s = 2 * %s * (%s / %s) + %s %% %s, %s = %s + %s;", lo, span, k, span, k, span,
			   hi, lo, span);
		put_stmt(e, depth + 3, &b, in);
		/* u's pair goes first (lo's in a run up, hi's in a run down)
		 * unless v's is no padding and u's is, or v's key is less (or
		 * equal from an earlier index, where the sort is stable) */
		const char *u = tname(e, TN_U), *v = tname(e, TN_V);
		char ku[200], kv[200], kl[200], kh[200];
		snprintf(kl, sizeof kl, "%s[%s]", key, lo);
		snprintf(kh, sizeof kh, "%s[%s]", key, hi);
		snprintf(ku, sizeof ku, "%s[%s]", key, u);
		snprintf(kv, sizeof kv, "%s[%s]", key, v);
		buf_printf(&b, "int %s = (%s & %s) == 0 ? %s : %s, %s = %s + %s - %s;", u, lo, size, lo, hi, v, lo,
			   hi, u);
		put_stmt(e, depth + 3, &b, in);
		buf_printf(&b, "if (%s[%s] < %d && (%s[%s] >= %d || ", at, v, n, at, u, n);
		put_arith(&b, OP_LT, el, el, kv, ku);
		if (stable) {
			buf_puts(&b, " || (");
			put_arith(&b, OP_EQ, el, el, kv, ku);
			buf_printf(&b, " && %s[%s] < %s[%s])", at, v, at, u);
		}
		buf_puts(&b, ")) {");
		put_stmt(e, depth + 3, &b, in);
		buf_printf(&b, "%s %s = %s;", ctype(el), sw, kl);
		put_stmt(e, depth + 4, &b, in);
		buf_printf(&b, "int %s = %s[%s];", swat, at, lo);
		put_stmt(e, depth + 4, &b, in);
		buf_printf(&b, "%s = %s;", kl, kh);
		put_stmt(e, depth + 4, &b, in);
		buf_printf(&b, "%s[%s] = %s[%s];", at, lo, at, hi);
		put_stmt(e, depth + 4, &b, in);
		buf_printf(&b, "%s = %s;", kh, sw);
		put_stmt(e, depth + 4, &b, in);
		buf_printf(&b, "%s[%s] = %s;", at, hi, swat);
		put_stmt(e, depth + 4, &b, in);
		close_block(e, depth + 3);
		close_block(e, depth + 2);
		if (cuda)
			tile_sync(e, in, depth + 2);
		close_block(e, depth + 1);
	}
	open_loop(e, depth, ta, in);
	buf_printf(&b, "%s[%s] = %s[%s];", r, k, at, k);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r = a in order: r[k] = a[order[k]] (tile_permute), or put back,
 * r[order[k]] = a[k] (tile_unpermute) */
static void emit_permute(Emitter *e, const Inst *in, int depth, const char *r)
{
	const char *k = tname(e, TN_K), *q = tname(e, TN_Q), *a = e->v[in->arg[0]].name, *o = e->v[in->arg[1]].name;
	Buf b = {0};
	open_loop(e, depth, vty(e, in->res[0]), in);
	buf_printf(&b, "int %s = %s[%s];", q, o, k);
	put_stmt(e, depth + 1, &b, in);
	if (is_unpermute(in))
		buf_printf(&b, "%s[%s] = %s[%s];", r, q, a, k);
	else
		buf_printf(&b, "%s[%s] = %s[%s];", r, k, a, q);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* r = zeros of a's shape but for element i[0], g[0] (the adjoint of a
 * minimum or maximum): "r[k] = k == i[0] ? g[0] : 0.0f;" */
static void emit_onehot(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->res[0]);
	const char *k = tname(e, TN_K);
	Buf b = {0};
	open_loop(e, depth, t, in);
	buf_printf(&b, "%s[%s] = %s == %s[0] ? %s[0] : %s;", r, k, k, e->v[in->arg[1]].name, e->v[in->arg[2]].name,
		   zero_of(e, ty_elem(t)));
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* The loop over count things, opened: on the CPU all of them, in CUDA
 * this thread's, "for (int k = threadIdx.x; k < 4 * 4; k += blockDim.x) {" */
static void open_loop_over(Emitter *e, int depth, const char *count, const Inst *in)
{
	const char *k = tname(e, TN_K);
	Buf b = {0};
	if (e->target == EMIT_CUDA)
		buf_cat(&b, "for (int ", k, " = threadIdx.x; ", k, " < ", count, "; ", k, " += blockDim.x) {",
			NULL);
	else
		buf_cat(&b, "for (int ", k, " = 0; ", k, " < ", count, "; ", k, "++) {", NULL);
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

/* r = the DFT of each row of a (its last axis, n points; wp.tile_fft,
 * or tile_ifft with the angles' sign turned), complex numbers as vec2
 * (re, im), unnormalised.  A power-of-two n is radix 2: the row in
 * bit-reversed order (swapped in place where r is a, else gathered into
 * r), then log2(n) stages of butterflies, each stage's m * n / 2 shared
 * by the block's threads behind a barrier; the twiddle from its angle.
 * Another n (r is never a: emit_tile gives it a scratch tile): each
 * element the direct sum over its row, the angle reduced mod n. */
static void emit_fft(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->arg[0]), el = ty_elem(t), sc = ty_scalar(el);
	int n = ty_extent(t, ty_ndim(t) - 1), rows = ty_count(t) / n, stages = fft_stages(e, in);
	int dbl = sc == TY_DOUBLE, inverse = in->callee == BI_TILE_IFFT, cuda = e->target == EMIT_CUDA;
	const char *a = e->v[in->arg[0]].name, *k = tname(e, TN_K), *row = tname(e, TN_ROW),
		   *col = tname(e, TN_COL), *q = tname(e, TN_Q), *span = tname(e, TN_HALF);
	const char *real = ctype(sc), *cplx = ctype(el), *sign = inverse ? "" : "-";
	const char *pi = dbl ? "3.141592653589793" : "3.14159265f",
		   *two_pi = dbl ? "6.283185307179586" : "6.28318531f";
	char cbuf[64], sbuf[64], count[32];
	const char *cosn = builtin_fn(BI_COS, &sc, cbuf, sizeof cbuf),
		   *sinn = builtin_fn(BI_SIN, &sc, sbuf, sizeof sbuf);
	Buf b = {0};
	buf_printf(&b, "// %s = the %s DFT of each of %s's %d row%s of %d point%s", r,
		   inverse ? "inverse" : "forward", a, rows, rows == 1 ? "" : "s", n, n == 1 ? "" : "s");
	if (n == 1)
		buf_puts(&b, ", each its own");
	if (stages)
		buf_printf(&b, ": bit-reversed order, then %d stage%s of butterflies", stages,
			   stages == 1 ? "" : "s");
	indent(e, depth);
	fwrite(b.p, 1, b.n, e->out);
	fputc('\n', e->out);
	b.n = 0;
	if (n == 1) { /* a row of one point is its own transform */
		if (!strcmp(r, a)) {
			buf_free(&b);
			return;
		}
		open_loop(e, depth, t, in);
		buf_cat(&b, r, "[", k, "] = ", a, "[", k, "];", NULL);
		put_stmt(e, depth + 1, &b, in);
		close_block(e, depth);
		buf_free(&b);
		return;
	}
	if (!stages) { /* a direct sum for each element */
		const char *angle = tname(e, TN_ANGLE), *c = tname(e, TN_COS), *s = tname(e, TN_SIN);
		const char *x = tname(e, TN_X), *re = tname(e, TN_RE), *im = tname(e, TN_IM);
		open_loop(e, depth, t, in);
		buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, k, n, col, k, n);
		put_stmt(e, depth + 1, &b, in);
		buf_printf(&b, "%s %s = %s, %s = %s;", real, re, zero_of(e, sc), im, zero_of(e, sc));
		put_stmt(e, depth + 1, &b, in);
		buf_printf(&b, "for (int %s = 0; %s < %d; %s++) {", q, q, n, q);
		put_stmt(e, depth + 1, &b, in);
		buf_printf(&b, "%s %s = %s%s * (%s * %s %% %d) / %d;", real, angle, sign, two_pi, col, q, n, n);
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s %s = %s(%s), %s = %s(%s);", real, c, cosn, angle, s, sinn, angle);
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s %s = %s[%s * %d + %s];", cplx, x, a, row, n, q);
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s += %s * %s.c[0] - %s * %s.c[1];", re, c, x, s, x);
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s += %s * %s.c[1] + %s * %s.c[0];", im, c, x, s, x);
		put_stmt(e, depth + 2, &b, in);
		close_block(e, depth + 1);
		buf_printf(&b, "%s[%s] = ks_make_%s(%s, %s);", r, k, ty_name(el), re, im);
		put_stmt(e, depth + 1, &b, in);
		close_block(e, depth);
		buf_free(&b);
		return;
	}
	/* the bit-reversed order */
	const char *rev = tname(e, TN_REV);
	open_loop(e, depth, t, in);
	buf_printf(&b, "int %s = %s / %d, %s = %s %% %d, %s = 0;", row, k, n, col, k, n, rev);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "for (int %s = 0; %s < %d; %s++)", q, q, stages, q);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s = %s << 1 | (%s >> %s & 1);", rev, rev, col, q);
	put_stmt(e, depth + 2, &b, in);
	if (!strcmp(r, a)) {
		const char *x = tname(e, TN_X);
		buf_printf(&b, "if (%s < %s) {", col, rev);
		put_stmt(e, depth + 1, &b, in);
		buf_printf(&b, "%s %s = %s[%s];", cplx, x, r, k);
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s[%s] = %s[%s * %d + %s];", r, k, r, row, n, rev);
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s[%s * %d + %s] = %s;", r, row, n, rev, x);
		put_stmt(e, depth + 2, &b, in);
		close_block(e, depth + 1);
	} else {
		buf_printf(&b, "%s[%s] = %s[%s * %d + %s];", r, k, a, row, n, rev);
		put_stmt(e, depth + 1, &b, in);
	}
	close_block(e, depth);
	/* the stages: butterflies of 2 * span points, the pair (lo, hi) of
	 * one taking u + w v and u - w v, w = e^(-+ i pi pos / span) */
	const char *pos = tname(e, TN_POS), *lo = tname(e, TN_LO), *hi = tname(e, TN_HI);
	const char *angle = tname(e, TN_ANGLE), *c = tname(e, TN_COS), *s = tname(e, TN_SIN);
	const char *u = tname(e, TN_U), *v = tname(e, TN_V), *re = tname(e, TN_RE), *im = tname(e, TN_IM);
	buf_printf(&b, "for (int %s = 1; %s < %d; %s *= 2) {", span, span, n, span);
	put_stmt(e, depth, &b, in);
	if (cuda)
		tile_sync(e, in, depth + 1);
	snprintf(count, sizeof count, "%d * %d", rows, n / 2);
	open_loop_over(e, depth + 1, count, in);
	buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, k, n / 2, col, k, n / 2);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "int %s = %s %% %s, %s = %s * %d + (%s - %s) * 2 + %s, %s = %s + %s;", pos, col, span, lo,
		   row, n, col, pos, pos, hi, lo, span);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s %s = %s%s * %s / %s;", real, angle, sign, pi, pos, span);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s %s = %s(%s), %s = %s(%s);", real, c, cosn, angle, s, sinn, angle);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s %s = %s[%s], %s = %s[%s];", cplx, u, r, lo, v, r, hi);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s %s = %s * %s.c[0] - %s * %s.c[1], %s = %s * %s.c[1] + %s * %s.c[0];", real, re, c, v, s,
		   v, im, c, v, s, v);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s[%s] = ks_make_%s(%s.c[0] + %s, %s.c[1] + %s);", r, lo, ty_name(el), u, re, u, im);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s[%s] = ks_make_%s(%s.c[0] - %s, %s.c[1] - %s);", r, hi, ty_name(el), u, re, u, im);
	put_stmt(e, depth + 2, &b, in);
	close_block(e, depth + 1);
	close_block(e, depth);
	buf_free(&b);
}

/* r = the prefix sums of a's elements, row-major (Hillis and Steele):
 * a copy, then for each span 1, 2, 4, ... below the count every element
 * adds the one a span before it, read into a scratch tile between two
 * barriers, the same steps in C.  An exclusive scan copies each element's
 * predecessor, 0 for the first; kdiff's suffix sums (its adjoints) run
 * from the other end. */
static void emit_scan(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]), el = ty_elem(ta);
	int n = ty_count(ta), cuda = e->target == EMIT_CUDA;
	int prod = in->callee == BI_TILE_PRODS_BEFORE || in->callee == BI_TILE_PRODS_AFTER;
	int rev = in->callee == BI_TILE_RSCAN_INCLUSIVE || in->callee == BI_TILE_RSCAN_EXCLUSIVE ||
		  in->callee == BI_TILE_PRODS_AFTER;
	int excl = in->callee == BI_TILE_SCAN_EXCLUSIVE || in->callee == BI_TILE_RSCAN_EXCLUSIVE || prod;
	int op = in->callee == BI_TILE_SCAN_MAX_INCLUSIVE   ? OP_GT
		 : in->callee == BI_TILE_SCAN_MIN_INCLUSIVE ? OP_LT
							    : 0;
	const char *k = tname(e, TN_K), *span = tname(e, TN_HALF), *a = e->v[in->arg[0]].name;
	/* what an element takes where there is none: 0, for products 1 */
	const char *zero = !prod ? zero_of(e, el) : el == TY_FLOAT ? "1.0f" : "1.0";
	Buf b = {0};
	open_loop(e, depth, ta, in);
	if (!excl)
		buf_printf(&b, "%s[%s] = %s[%s];", r, k, a, k);
	else if (!rev)
		buf_printf(&b, "%s[%s] = %s > 0 ? %s[%s - 1] : %s;", r, k, k, a, k, zero);
	else
		buf_printf(&b, "%s[%s] = %s + 1 < %d ? %s[%s + 1] : %s;", r, k, k, n, a, k, zero);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	if (n > 1) {
		char base[300];
		ks_join(base, sizeof base, r, "_part", NULL);
		const char *part = make_name(e, base, 0);
		buf_printf(&b, "%s%s %s[%d];  // what each element %s: the one a span %s\n",
			   cuda ? "__shared__ " : "", ctype(el), part, n,
			   op     ? "meets"
			   : prod ? "multiplies by"
				  : "adds",
			   rev ? "after it" : "before it");
		indent(e, depth);
		fwrite(b.p, 1, b.n, e->out);
		b.n = 0;
		buf_printf(&b, "for (int %s = 1; %s < %d; %s *= 2) {", span, span, n, span);
		put_stmt(e, depth, &b, in);
		if (cuda)
			tile_sync(e, in, depth + 1);
		open_loop(e, depth + 1, ta, in);
		if (rev)
			buf_printf(&b, "%s[%s] = %s + %s < %d ? %s[%s + %s] : %s;", part, k, k, span, n, r, k, span,
				   zero);
		else if (op)
			buf_printf(&b, "%s[%s] = %s >= %s ? %s[%s - %s] : %s[%s];", part, k, k, span, r, k, span, r,
				   k);
		else
			buf_printf(&b, "%s[%s] = %s >= %s ? %s[%s - %s] : %s;", part, k, k, span, r, k, span, zero);
		put_stmt(e, depth + 2, &b, in);
		close_block(e, depth + 1);
		if (cuda)
			tile_sync(e, in, depth + 1);
		open_loop(e, depth + 1, ta, in);
		if (op) {
			char mine[200], other[200];
			snprintf(mine, sizeof mine, "%s[%s]", r, k);
			snprintf(other, sizeof other, "%s[%s]", part, k);
			buf_puts(&b, "if (");
			put_arith(&b, op, el, el, other, mine);
			buf_cat(&b, ") ", mine, " = ", other, ";", NULL);
		} else {
			buf_printf(&b, "%s[%s] %s= %s[%s];", r, k, prod ? "*" : "+", part, k);
		}
		put_stmt(e, depth + 2, &b, in);
		close_block(e, depth + 1);
		close_block(e, depth);
	}
	buf_free(&b);
}

/* A comment line at depth: "// text" */
static void put_note(Emitter *e, int depth, Buf *b)
{
	indent(e, depth);
	fputs("// ", e->out);
	fwrite(b->p, 1, b->n, e->out);
	fputc('\n', e->out);
	b->n = 0;
}

/* r = the Cholesky factor L of a's lower triangle (n x n), L Lᵀ = a,
 * column by column (left-looking): the diagonal element, which every
 * thread computes from the row of L before it, then the column below it,
 * its rows shared by the threads, each the dot of its row of L with the
 * diagonal's, behind a barrier per column.  The upper triangle is 0. */
static void emit_cholesky(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type ta = vty(e, in->arg[0]), el = ty_elem(ta);
	int n = ty_extent(ta, 0), cuda = e->target == EMIT_CUDA;
	const char *a = e->v[in->arg[0]].name, *k = tname(e, TN_K), *row = tname(e, TN_ROW),
		   *col = tname(e, TN_COL), *q = tname(e, TN_Q), *dot = tname(e, TN_DOT), *diag = tname(e, TN_DIAG);
	char sq[64];
	const char *sqrtn = builtin_fn(BI_SQRT, &el, sq, sizeof sq);
	Buf b = {0};
	buf_printf(&b, "%s = the Cholesky factor of %s's lower triangle, column by column", r, a);
	put_note(e, depth, &b);
	open_loop(e, depth, ta, in);
	buf_printf(&b, "if (%s / %d < %s %% %d)", k, n, k, n);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s[%s] = %s;", r, k, zero_of(e, el));
	put_stmt(e, depth + 2, &b, in);
	close_block(e, depth);
	buf_printf(&b, "for (int %s = 0; %s < %d; %s++) {", col, col, n, col);
	put_stmt(e, depth, &b, in);
	if (cuda)
		tile_sync(e, in, depth + 1);
	buf_printf(&b, "%s %s = %s[%s * %d + %s];", ctype(el), diag, a, col, n, col);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "for (int %s = 0; %s < %s; %s++)", q, q, col, q);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s -= %s[%s * %d + %s] * %s[%s * %d + %s];", diag, r, col, n, q, r, col, n, q);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s = %s(%s);", diag, sqrtn, diag);
	put_stmt(e, depth + 1, &b, in);
	if (cuda)
		buf_printf(&b, "for (int %s = %s + threadIdx.x; %s < %d; %s += blockDim.x) {", row, col, row, n,
			   row);
	else
		buf_printf(&b, "for (int %s = %s; %s < %d; %s++) {", row, col, row, n, row);
	put_stmt(e, depth + 1, &b, in);
	buf_printf(&b, "%s %s = %s[%s * %d + %s];", ctype(el), dot, a, row, n, col);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "for (int %s = 0; %s < %s; %s++)", q, q, col, q);
	put_stmt(e, depth + 2, &b, in);
	buf_printf(&b, "%s -= %s[%s * %d + %s] * %s[%s * %d + %s];", dot, r, row, n, q, r, col, n, q);
	put_stmt(e, depth + 3, &b, in);
	buf_printf(&b, "%s[%s * %d + %s] = %s == %s ? %s : %s / %s;", r, row, n, col, row, col, diag, dot, diag);
	put_stmt(e, depth + 2, &b, in);
	close_block(e, depth + 1);
	close_block(e, depth);
	buf_free(&b);
}

/* r = the solution of L r = y, L's lower triangle read (forward
 * substitution), or of U r = y, U's upper (backward), y a column or m
 * columns: y copied, then for each column of the matrix, from the first
 * (the last), the rows after it (before it) take away their element of
 * the column times the solution in its row, the solution the row as it
 * stands over the diagonal, the rows shared by the threads behind a
 * barrier per column; last each row divided by its diagonal. */
static void emit_tri_solve(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type tl = vty(e, in->arg[0]), ty = vty(e, in->arg[1]);
	int n = ty_extent(tl, 0), m = ty_ndim(ty) == 2 ? ty_extent(ty, 1) : 1, cuda = e->target == EMIT_CUDA;
	int upper = in->callee == BI_TILE_UPPER_SOLVE || in->callee == BI_TILE_UPPER_SOLVE_2D;
	const char *l = e->v[in->arg[0]].name, *y = e->v[in->arg[1]].name, *k = tname(e, TN_K),
		   *row = tname(e, TN_ROW), *col = tname(e, TN_COL);
	char count[64], at_row[96], at_col[96];
	Buf b = {0};
	buf_printf(&b, "%s = the solution of %s %s = %s (%s's %s triangle): %s substitution", r, l, r, y, l,
		   upper ? "upper" : "lower", upper ? "backward" : "forward");
	put_note(e, depth, &b);
	if (strcmp(r, y)) {
		open_loop(e, depth, ty, in);
		buf_printf(&b, "%s[%s] = %s[%s];", r, k, y, k);
		put_stmt(e, depth + 1, &b, in);
		close_block(e, depth);
	}
	if (n > 1) {
		const char *rhs = m > 1 ? tname(e, TN_RHS) : NULL;
		if (upper)
			buf_printf(&b, "for (int %s = %d; %s > 0; %s--) {", col, n - 1, col, col);
		else
			buf_printf(&b, "for (int %s = 0; %s < %d; %s++) {", col, col, n - 1, col);
		put_stmt(e, depth, &b, in);
		if (cuda)
			tile_sync(e, in, depth + 1);
		/* the rows below (above) the column, times the columns of y */
		if (upper)
			snprintf(count, sizeof count, m > 1 ? "%s * %d" : "%s", col, m);
		else
			snprintf(count, sizeof count, m > 1 ? "(%d - %s) * %d" : "%d - %s", n - 1, col, m);
		open_loop_over(e, depth + 1, count, in);
		if (m > 1) {
			if (upper)
				buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, k, m, rhs, k, m);
			else
				buf_printf(&b, "int %s = %s + 1 + %s / %d, %s = %s %% %d;", row, col, k, m, rhs, k,
					   m);
			snprintf(at_row, sizeof at_row, "%s[%s * %d + %s]", r, row, m, rhs);
			snprintf(at_col, sizeof at_col, "%s[%s * %d + %s]", r, col, m, rhs);
		} else {
			if (upper)
				buf_printf(&b, "int %s = %s;", row, k);
			else
				buf_printf(&b, "int %s = %s + 1 + %s;", row, col, k);
			snprintf(at_row, sizeof at_row, "%s[%s]", r, row);
			snprintf(at_col, sizeof at_col, "%s[%s]", r, col);
		}
		put_stmt(e, depth + 2, &b, in);
		buf_printf(&b, "%s -= %s[%s * %d + %s] * (%s / %s[%s * %d + %s]);", at_row, l, row, n, col, at_col,
			   l, col, n, col);
		put_stmt(e, depth + 2, &b, in);
		close_block(e, depth + 1);
		close_block(e, depth);
		if (cuda)
			tile_sync(e, in, depth);
	}
	open_loop(e, depth, ty, in);
	if (m > 1)
		buf_printf(&b, "%s[%s] /= %s[%s / %d * %d + %s / %d];", r, k, l, k, m, n, k, m);
	else
		buf_printf(&b, "%s[%s] /= %s[%s * %d + %s];", r, k, l, k, n, k);
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* kdiff's parts of the adjoints of factors and solves, n x n, element by
 * element: the lower (upper) triangle of a bᵀ, a and b columns or n x m
 * tiles; a's lower triangle mirrored onto its upper; a's lower triangle
 * with its diagonal halved. */
static void emit_triangle(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type tr = vty(e, in->res[0]), ta = vty(e, in->arg[0]), el = ty_elem(tr);
	int n = ty_extent(tr, 0), cb = in->callee;
	const char *a = e->v[in->arg[0]].name, *k = tname(e, TN_K), *row = tname(e, TN_ROW),
		   *col = tname(e, TN_COL), *zero = zero_of(e, el);
	Buf b = {0};
	open_loop(e, depth, tr, in);
	buf_printf(&b, "int %s = %s / %d, %s = %s %% %d;", row, k, n, col, k, n);
	put_stmt(e, depth + 1, &b, in);
	if (cb == BI_TILE_MIRROR_LOWER) {
		buf_printf(&b, "%s[%s] = %s >= %s ? %s[%s] : %s[%s * %d + %s];", r, k, row, col, a, k, a, col, n,
			   row);
	} else if (cb == BI_TILE_LOWER_HALVED) {
		buf_printf(&b, "%s[%s] = %s > %s ? %s[%s] : %s == %s ? %s * %s[%s] : %s;", r, k, row, col, a, k,
			   row, col, el == TY_DOUBLE ? "0.5" : "0.5f", a, k, zero);
	} else {
		const char *bb = e->v[in->arg[1]].name,
			   *cmp = cb == BI_TILE_LOWER_OUTER || cb == BI_TILE_LOWER_OUTER_2D ? ">=" : "<=";
		int m = ty_ndim(ta) == 2 ? ty_extent(ta, 1) : 1;
		if (m == 1) {
			buf_printf(&b, "%s[%s] = %s %s %s ? %s[%s] * %s[%s] : %s;", r, k, row, cmp, col, a, row, bb,
				   col, zero);
		} else {
			const char *q = tname(e, TN_Q), *dot = tname(e, TN_DOT);
			buf_printf(&b, "%s %s = %s;", ctype(el), dot, zero);
			put_stmt(e, depth + 1, &b, in);
			buf_printf(&b, "if (%s %s %s)", row, cmp, col);
			put_stmt(e, depth + 1, &b, in);
			buf_printf(&b, "for (int %s = 0; %s < %d; %s++)", q, q, m, q);
			put_stmt(e, depth + 2, &b, in);
			buf_printf(&b, "%s += %s[%s * %d + %s] * %s[%s * %d + %s];", dot, a, row, m, q, bb, col, m,
				   q);
			put_stmt(e, depth + 3, &b, in);
			buf_printf(&b, "%s[%s] = %s;", r, k, dot);
		}
	}
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* The row-major index of tile t's element at the operands idx, "i * 4 + j" */
void tile_flat(Emitter *e, Buf *b, Type t, const int32_t *idx)
{
	int nd = ty_ndim(t);
	for (int d = 0; d < nd; d++) {
		int stride = 1;
		for (int j = d + 1; j < nd; j++)
			stride *= ty_extent(t, j);
		if (d)
			buf_puts(b, " + ");
		put_expr(e, b, idx[d], stride > 1 ? P_MUL : P_ADD + 1);
		if (stride > 1) {
			buf_puts(b, " * ");
			buf_int(b, stride);
		}
	}
}

/* r = a with one element set: a copy, then the element, by its thread in
 * CUDA. */
static void emit_insert(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->res[0]);
	int nd = ty_ndim(t);
	Buf b = {0}, at = {0};
	if (in->arg[0] != in->res[0]) {
		open_loop(e, depth, t, in);
		buf_cat(&b, r, "[", tname(e, TN_K), "] = ", e->v[in->arg[0]].name, "[", tname(e, TN_K), "];", NULL);
		put_stmt(e, depth + 1, &b, in);
		close_block(e, depth);
	}
	tile_flat(e, &at, t, in->arg + 1);
	int depth1 = depth;
	if (e->target == EMIT_CUDA) {
		int simple = nd == 1 && e->f->val[in->arg[1]].kind != VK_TEMP;
		buf_cat(&b, "if (threadIdx.x == ", simple ? "" : "(", at.p, simple ? "" : ")", " % blockDim.x)",
			NULL);
		put_stmt(e, depth, &b, in);
		depth1++;
	}
	buf_cat(&b, r, "[", at.p, "] = ", NULL);
	put_expr(e, &b, in->arg[in->narg - 1], 0);
	buf_putc(&b, ';');
	put_stmt(e, depth1, &b, in);
	buf_free(&b);
	buf_free(&at);
}

/* An operation element by element: a fill, a copy, a conversion,
 * arithmetic, a builtin of numbers (wp.tile_map). */
static void emit_elementwise(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->res[0]), el = ty_elem(t);
	Buf b = {0}, x[16] = {{0}};
	int n = in->narg < 16 ? in->narg : 16, mono = c_arith(el) && in->op != OP_BUILTIN && in->op != OP_SELECT &&
						      !(in->op >= OP_LT && in->op <= OP_NE);
	for (int k = 0; k < n; k++) {
		int prec = in->op == OP_ADD || in->op == OP_SUB ? P_ADD : in->op == OP_NEG ? P_UNARY : P_MUL;
		put_at(e, &x[k], in->arg[k], !mono ? P_COND : k ? prec + 1 : prec);
	}
	open_loop(e, depth, t, in);
	buf_cat(&b, r, "[", tname(e, TN_K), "] = ", NULL);
	switch (in->op) {
	case OP_MAKE:
		buf_puts(&b, n ? x[0].p : zero_of(e, el));
		break;
	case OP_MOV:
	case OP_TILE_RESHAPE: /* the elements in their order */
		buf_puts(&b, x[0].p);
		break;
	case OP_NEG:
		if (c_arith(el))
			buf_cat(&b, "-", x[0].p, NULL);
		else
			buf_cat(&b, "ks_neg_", ty_name(el), "(", x[0].p, ")", NULL);
		break;
	case OP_CONV:
		put_conv_elem(&b, ty_elem(vty(e, in->arg[0])), el, x[0].p);
		break;
	case OP_SELECT:
		buf_cat(&b, x[0].p, " ? ", x[1].p, " : ", x[2].p, NULL);
		break;
	case OP_TILE_COMP: {
		/* the element, then its components: "elem.c[2]", or
		 * "ks_make_vec2(elem.c[2], elem.c[3])" (a shared element in
		 * sim is a reference, whose components are the value's) */
		int k0 = (int)e->f->val[in->arg[1]].k.i, nc = ty_ncomp(el);
		const char *v = tname(e, TN_ELEM);
		Buf d = {0};
		buf_cat(&d, ctype(ty_elem(vty(e, in->arg[0]))), " ", v, " = ", x[0].p, ";", NULL);
		put_stmt(e, depth + 1, &d, in);
		buf_free(&d);
		if (nc > 1)
			buf_cat(&b, "ks_make_", ty_name(el), "(", NULL);
		for (int c = 0; c < nc; c++)
			buf_printf(&b, "%s%s.c[%d]", c ? ", " : "", v, k0 + c);
		if (nc > 1)
			buf_putc(&b, ')');
		break;
	}
	case OP_TILE_ARANGE: {
		/* start + step * k, in the element's type */
		Buf kk = {0}, m = {0};
		if (ty_is_float(el))
			buf_cat(&kk, "(", ctype(el), ")", NULL);
		buf_puts(&kk, tname(e, TN_K));
		put_arith(&m, OP_MUL, el, el, x[1].p, kk.p);
		put_arith(&b, OP_ADD, el, el, x[0].p, m.p);
		buf_free(&kk);
		buf_free(&m);
		break;
	}
	case OP_BUILTIN: {
		char name[96];
		Type at[16];
		for (int k = 0; k < n; k++)
			at[k] = ty_is_tile(vty(e, in->arg[k])) ? ty_elem(vty(e, in->arg[k])) : vty(e, in->arg[k]);
		buf_cat(&b, builtin_fn(in->callee, at, name, sizeof name), "(", NULL);
		for (int k = 0; k < n; k++)
			buf_cat(&b, k ? ", " : "", x[k].p, NULL);
		buf_putc(&b, ')');
		break;
	}
	default: {
		Type ot[2];
		for (int k = 0; k < 2; k++)
			ot[k] = ty_is_tile(vty(e, in->arg[k])) ? ty_elem(vty(e, in->arg[k])) : vty(e, in->arg[k]);
		put_arith(&b, in->op, ot[0], ot[1], x[0].p, x[1].p);
	}
	}
	for (int k = 0; k < n; k++)
		buf_free(&x[k]);
	buf_putc(&b, ';');
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* A mapped call (wp.tile_map of a wp.func): each thread calls the func
 * on its elements, `c[k] = cplx_prod(a[k], b[k]);`.  A func of several
 * results writes them through pointers, as a call in scalar code does,
 * into the thread's own variables, then into the tiles (not through
 * pointers into a shared tile, which sim would not see written):
 * `ks_vec2d ret0, ret1; cplx_prod_adj(a[k], b[k], adj_c[k], &ret0, &ret1);
 * adj_a[k] = ret0;` */
static void emit_mapped_call(Emitter *e, const Inst *in, int depth)
{
	const Func *g = e->m->fn[in->callee];
	Type shape = TY_VOID;
	for (int k = 0; k < in->narg && shape == TY_VOID; k++)
		if (ty_is_tile(vty(e, in->arg[k])))
			shape = vty(e, in->arg[k]);
	Buf b = {0};
	for (int q = 0; q < in->nres; q++) {
		int r = in->res[q];
		if (is_named_temp(e, r) ||
		    (e->f->val[r].kind == VK_VAR && decl_inline(e, r) && in == first_occ(e, r))) {
			tile_decl(e, &b, r);
			put_stmt(e, depth, &b, in);
		}
	}
	open_loop(e, depth, shape, in);
	const char *ret[256];
	for (int q = 0; g->nret > 1 && q < g->nret; q++) {
		/* one declaration per type: ks_vec2d ret0, ret1; */
		char base[16];
		snprintf(base, sizeof base, "ret%d", q);
		ret[q] = make_name(e, base, 0);
		buf_cat(&b, q && g->ret[q] == g->ret[q - 1] ? ", " : ctype(g->ret[q]),
			q && g->ret[q] == g->ret[q - 1] ? "" : " ", ret[q], NULL);
		if (q + 1 == g->nret || g->ret[q + 1] != g->ret[q]) {
			buf_putc(&b, ';');
			put_stmt(e, depth + 1, &b, in);
		}
	}
	if (in->nres == 1 && g->nret == 1)
		buf_cat(&b, e->v[in->res[0]].name, "[", tname(e, TN_K), "] = ", NULL);
	buf_cat(&b, fn_name(e, in->callee), "(", NULL);
	for (int k = 0; k < in->narg; k++) {
		if (k)
			buf_puts(&b, ", ");
		put_at(e, &b, in->arg[k], P_COND);
	}
	for (int q = 0; g->nret > 1 && q < g->nret; q++)
		buf_cat(&b, in->narg || q ? ", " : "", "&", ret[q], NULL);
	buf_puts(&b, ");");
	put_stmt(e, depth + 1, &b, in);
	for (int q = 0; g->nret > 1 && q < in->nres; q++) {
		buf_cat(&b, e->v[in->res[q]].name, "[", tname(e, TN_K), "] = ", ret[q], ";", NULL);
		put_stmt(e, depth + 1, &b, in);
	}
	close_block(e, depth);
	buf_free(&b);
}

/* t[i, j] += x, t shared by the threads of the block, each adding its x:
 * the runtime's atomic add (kdiff's adjoint of an element every thread
 * read).  In place: the verifier sees to it. */
static void emit_add_at(Emitter *e, const Inst *in, int depth)
{
	Type t = vty(e, in->res[0]);
	Buf b = {0};
	buf_cat(&b, "ks_atomic_add_", ty_name(ty_elem(t)), "(&", e->v[in->res[0]].name, "[", NULL);
	tile_flat(e, &b, t, in->arg + 1);
	buf_puts(&b, "], ");
	put_expr(e, &b, in->arg[in->narg - 1], P_COND);
	buf_puts(&b, ");");
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

/* Does in, which sets r, declare it: a temp, or a variable declared where
 * it is first set? */
static int declares(Emitter *e, const Inst *in, int r)
{
	return is_named_temp(e, r) || (e->f->val[r].kind == VK_VAR && decl_inline(e, r) && in == first_occ(e, r));
}

/* x = this thread's share of the sum of tile a's elements: on the CPU
 * all of them, in CUDA those it computes (the block's shares add up to
 * the sum). */
static void emit_share(Emitter *e, const Inst *in, int depth)
{
	int r = in->res[0];
	Type ta = vty(e, in->arg[0]), el = ty_elem(ta);
	const char *k = tname(e, TN_K), *x = e->v[r].name, *a = e->v[in->arg[0]].name;
	Buf b = {0};
	if (declares(e, in, r))
		buf_cat(&b, ctype(el), " ", NULL);
	buf_cat(&b, x, " = ", zero_of(e, el), ";", NULL);
	put_stmt(e, depth, &b, in);
	open_loop(e, depth, ta, in);
	char mine[200];
	snprintf(mine, sizeof mine, "%s[%s]", a, k);
	if (c_arith(el)) {
		buf_cat(&b, x, " += ", mine, ";", NULL);
	} else {
		buf_cat(&b, x, " = ", NULL);
		put_arith(&b, OP_ADD, el, el, x, mine);
		buf_putc(&b, ';');
	}
	put_stmt(e, depth + 1, &b, in);
	close_block(e, depth);
	buf_free(&b);
}

/* The element of this thread: element k is thread k's, and a CPU thread
 * is a block of one. */
static const char *lane(const Emitter *e) { return e->target == EMIT_CUDA ? "threadIdx.x" : "0"; }

/* A tile of random draws (tile_randf, tile_randi): each thread draws
 * its elements in turn from a state of its own, pcg(lane + rng), as
 * Warp's tiles do; on the CPU the block's one thread draws them all.
 *     {
 *         uint32_t state = ks_pcg(threadIdx.x + rng);
 *         for (int k = threadIdx.x; k < 64; k += blockDim.x) {
 *             t[k] = ks_randf(&state);
 *         }
 *     } */
static void emit_rand(Emitter *e, const Inst *in, int depth, const char *r)
{
	Type t = vty(e, in->res[0]);
	const char *st = tname(e, TN_STATE);
	Buf b = {0};
	indent(e, depth);
	fputs("{\n", e->out);
	buf_cat(&b, "uint32_t ", st, " = ks_pcg(", NULL);
	if (e->target == EMIT_CUDA)
		buf_puts(&b, "threadIdx.x + ");
	put_expr(e, &b, in->arg[0], P_ADD + 1);
	buf_puts(&b, ");");
	put_stmt(e, depth + 1, &b, in);
	open_loop(e, depth + 1, t, in);
	buf_cat(&b, r, "[", tname(e, TN_K), "] = ks_rand", ty_elem(t) == TY_FLOAT ? "f" : "i",
		in->narg == 3 ? "_range(&" : "(&", st, NULL);
	for (int k = 1; k < in->narg; k++) {
		buf_puts(&b, ", ");
		put_expr(e, &b, in->arg[k], P_COND);
	}
	buf_puts(&b, ");");
	put_stmt(e, depth + 2, &b, in);
	close_block(e, depth + 1);
	close_block(e, depth);
	buf_free(&b);
}

/* x = untile(a): this thread's element of a */
static void emit_untile(Emitter *e, const Inst *in, int depth)
{
	int r = in->res[0];
	Buf b = {0};
	if (declares(e, in, r))
		buf_cat(&b, ctype(vty(e, r)), " ", NULL);
	buf_cat(&b, e->v[r].name, " = ", e->v[in->arg[0]].name, "[", lane(e), "];", NULL);
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

/* r = tile_pick(x, thread): the one element, set by that thread (on the
 * CPU by the block's one thread) */
static void emit_pick(Emitter *e, const Inst *in, int depth, const char *r)
{
	Buf b = {0};
	if (e->target == EMIT_CUDA) {
		buf_puts(&b, "if ((int)threadIdx.x == ");
		put_expr(e, &b, in->arg[1], P_EQ + 1);
		buf_puts(&b, ") ");
	}
	buf_cat(&b, r, "[0] = ", NULL);
	put_expr(e, &b, in->arg[0], P_COND);
	buf_putc(&b, ';');
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

/* r = tile(x): each thread's x at its element */
static void emit_of_threads(Emitter *e, const Inst *in, int depth, const char *r)
{
	Buf b = {0};
	buf_cat(&b, r, "[", lane(e), "] = ", NULL);
	put_expr(e, &b, in->arg[0], P_COND);
	buf_putc(&b, ';');
	put_stmt(e, depth, &b, in);
	buf_free(&b);
}

void emit_tile(Emitter *e, const Inst *in, int depth)
{
	if (is_share(in)) {
		emit_share(e, in, depth);
		return;
	}
	if (is_untile(in)) {
		emit_untile(e, in, depth);
		return;
	}
	if (in->op == OP_TILE_STORE || in->op == OP_TILE_ATOMIC_ADD || in->op == OP_TILE_STORE_INDEXED ||
	    in->op == OP_TILE_ATOMIC_ADD_INDEXED) {
		emit_access(e, in, depth, in->arg[1]);
		return;
	}
	if (in->op == OP_CALL) {
		emit_mapped_call(e, in, depth);
		return;
	}
	int r = in->res[0];
	const Value *rv = &e->f->val[r];
	if (declares(e, in, r)) {
		Buf b = {0};
		tile_decl(e, &b, r);
		indent(e, depth);
		fwrite(b.p, 1, b.n, e->out);
		line_end(e, in);
		buf_free(&b);
	}
	/* an operation that reads across its operand writes its result
	 * apart, then copies it in, where the result is that operand */
	int apart = 0;
	for (int k = 0; k < in->narg; k++)
		apart |= in->arg[k] == r && (across_only(in) < 0 || across_only(in) == k) &&
			 ((reads_across(in) && !fft_stages(e, in) && fft_points(e, in) != 1) || is_reduction(in));
	const char *name = e->v[r].name;
	if (apart) {
		char base[300];
		ks_join(base, sizeof base, name, "_next", NULL);
		name = make_name(e, base, 0);
		Buf b = {0};
		if (e->target == EMIT_CUDA)
			buf_puts(&b, "__shared__ ");
		buf_cat(&b, ctype(ty_elem(rv->ty)), " ", name, "[", NULL);
		put_count(&b, rv->ty);
		buf_puts(&b, "];");
		put_stmt(e, depth, &b, in);
		buf_free(&b);
	}
	if (in->op == OP_TILE_LOAD || in->op == OP_TILE_LOAD_INDEXED)
		emit_access(e, in, depth, r);
	else if (in->op == OP_BUILTIN && in->callee == BI_TILE_MATMUL)
		emit_matmul(e, in, depth, name);
	else if (in->op == OP_BUILTIN && in->callee == BI_TILE_TRANSPOSE)
		emit_transpose(e, in, depth, name);
	else if (in->op == OP_BUILTIN && (in->callee == BI_TILE_DIAG_ADD || in->callee == BI_TILE_DIAG))
		emit_diag(e, in, depth, name);
	else if (is_reduction(in))
		emit_reduction(e, in, depth, name);
	else if (is_scan(in))
		emit_scan(e, in, depth, name);
	else if (is_factor(in))
		emit_cholesky(e, in, depth, name);
	else if (is_tri_solve(in))
		emit_tri_solve(e, in, depth, name);
	else if (in->op == OP_BUILTIN && (is_triangle_across(in) || in->callee == BI_TILE_LOWER_HALVED))
		emit_triangle(e, in, depth, name);
	else if (in->op == OP_BUILTIN && (in->callee == BI_TILE_FFT || in->callee == BI_TILE_IFFT))
		emit_fft(e, in, depth, name);
	else if (in->op == OP_TILE_RAND)
		emit_rand(e, in, depth, name);
	else if (in->op == OP_TILE_ADD_AT)
		emit_add_at(e, in, depth);
	else if (in->op == OP_TILE_VIEW)
		emit_view(e, in, depth, name);
	else if (in->op == OP_TILE_ASSIGN)
		emit_tile_assign(e, in, depth, name);
	else if (in->op == OP_TILE_BROADCAST)
		emit_broadcast(e, in, depth, name);
	else if (in->op == OP_TILE_SUM_TO)
		emit_sum_to(e, in, depth, name);
	else if (in->op == OP_INSERT)
		emit_insert(e, in, depth, name);
	else if (in->op == OP_BUILTIN && in->callee == BI_TILE)
		emit_of_threads(e, in, depth, name);
	else if (in->op == OP_BUILTIN && in->callee == BI_TILE_PICK)
		emit_pick(e, in, depth, name);
	else if (in->op == OP_BUILTIN && in->callee == BI_TILE_ONEHOT)
		emit_onehot(e, in, depth, name);
	else if (is_scan_adj(in))
		emit_scan_adj(e, in, depth, name);
	else if (is_sort_order(in))
		emit_sort_order(e, in, depth, name);
	else if (in->op == OP_BUILTIN && (in->callee == BI_TILE_PERMUTE || is_unpermute(in)))
		emit_permute(e, in, depth, name);
	else
		emit_elementwise(e, in, depth, name);
	if (apart) {
		Buf b = {0};
		if (e->target == EMIT_CUDA)
			tile_sync(e, in, depth);
		open_loop(e, depth, rv->ty, in);
		buf_cat(&b, e->v[r].name, "[", tname(e, TN_K), "] = ", name, "[", tname(e, TN_K), "];", NULL);
		put_stmt(e, depth + 1, &b, in);
		close_block(e, depth);
		buf_free(&b);
	}
}
