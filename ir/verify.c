/*
 * verify.c: checks that a Module is well formed, whether it was read from
 * text (kfmt) or built by the front end (kparse).
 *
 *  - typing: every instruction's operand and result types obey the rules
 *    in ir.c (ir_op_type, ir_builtin_resolve), calls match their callee;
 *  - scoping: a variable is read only where it has been assigned on every
 *    path (definite assignment, as Python's "may be used before
 *    assignment"); a temp is defined once and used only after its
 *    definition, in the same block or one nested in it; a loop variable is
 *    not assigned in its loop; array parameters are never reassigned;
 *  - control flow: break/continue inside a loop, kernels return nothing, a
 *    func with results returns on every path;
 *  - order: a function calls only functions defined above it, so there is
 *    no recursion and a module can be read and used one function at a
 *    time (ir/file.c).
 *
 * Definite assignment walks the structured control flow once: an if
 * intersects its branches; a for loop may run zero times, so it adds
 * nothing; a `loop` is left only by break, so after it holds what every
 * break held.  Code after ret/break/continue is unreachable and not
 * checked for uses.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "walk.h"

typedef struct Verifier {
	const Module *m;
	const Src *src;
	int use_src;
	const Func *f;
	int fi;
	uint8_t *asg;    /* definitely assigned, per value */
	int reach;       /* current point reachable */
	int *defblk;     /* temps: block id of the definition */
	int *ndef;       /* temps: definitions seen */
	uint8_t *active; /* block ids currently open */
	int nblk, capblk;
	int *loopvar; /* values of open for-loops */
	int nloopvar, caploopvar;
	int nloops;   /* open loops of either kind */
	uint8_t *brk; /* innermost `loop`: intersection of break states */
	int brk_seen;
	int brk_cont;    /* continues meet in brk too (a `for` that surely runs) */
	uint8_t *handle; /* per value: defined by tape_loop */
	int opened;      /* tape_open seen */
	int rank;        /* the kernel's tid results so far (its launch rank) */
} Verifier;

KS_PRINTF(3, 4) KS_NORETURN static void verr(Verifier *v, Loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ks_verror_at(v->src, at.line, at.col, fmt, ap);
}

static Loc where(const Verifier *v, const Inst *in) { return v->use_src ? in->loc : in->at; }

/* A value's name as the user wrote it: 'x' in source, %x or %3 in IR. */
static const char *vname(const Verifier *v, int id, char *buf, size_t n)
{
	const Value *val = &v->f->val[id];
	if (val->name)
		snprintf(buf, n, v->use_src ? "'%s'" : "%%%s", val->name);
	else
		snprintf(buf, n, "%%%d", (int)val->num);
	return buf;
}

/* All the verifier's state lives in the module's arena, so an error that
 * longjmps out (a fuzz harness) leaks nothing once the module is freed. */
static void *valloc(const Verifier *v, size_t n) { return arena_alloc(&((Module *)v->m)->arena, n); }

static uint8_t *state_copy(const Verifier *v)
{
	uint8_t *s = valloc(v, (size_t)v->f->nval + 1);
	memcpy(s, v->asg, (size_t)v->f->nval);
	return s;
}

static void state_and(const Verifier *v, uint8_t *dst, const uint8_t *src)
{
	for (int i = 0; i < v->f->nval; i++)
		dst[i] &= src[i];
}

/* A tape operand that must be a non-negative int constant. */
static void tape_const(Verifier *v, const Inst *in, int k)
{
	const Value *c = &v->f->val[in->arg[k]];
	if (c->kind != VK_CONST || c->ty != TY_INT || c->k.i < 0)
		verr(v, where(v, in), "operand %d of %s must be a non-negative int constant", k + 1,
		     ir_ops[in->op].name);
}

/* The rules of the tape (doc/ir.md): only in a backward kernel, after its
 * one tape_open; a loop handle comes from tape_loop and goes only to the
 * tape operations' first operand. */
static void check_tape(Verifier *v, const Inst *in)
{
	int op = in->op;
	for (int k = 0; k < in->narg; k++)
		if (v->handle[in->arg[k]] && !(k == 0 && op >= OP_TAPE_KEEP && op <= OP_TAPE_GET))
			verr(v, where(v, in),
			     "a loop handle of the tape can only be the first operand "
			     "of tape_keep, tape_put, tape_back or tape_get");
	if (!ir_op_tape(op))
		return;
	if (!v->f->backward)
		verr(v, where(v, in), "%s can only be used in a backward kernel", ir_ops[op].name);
	if (op == OP_TAPE_OPEN) {
		if (v->opened || v->nblk != 1)
			verr(v, where(v, in), "tape_open must come once, in the body's outermost block");
		v->opened = 1;
		return;
	}
	if (!v->opened)
		verr(v, where(v, in), "%s before tape_open", ir_ops[op].name);
	if (op >= OP_TAPE_KEEP && op <= OP_TAPE_GET && !v->handle[in->arg[0]])
		verr(v, where(v, in), "the first operand of %s must be a loop handle from tape_loop",
		     ir_ops[op].name);
	if (op == OP_TAPE_LOOP || op == OP_TAPE_COUNT)
		tape_const(v, in, 0);
	if (op == OP_TAPE_PUT || op == OP_TAPE_GET)
		tape_const(v, in, 1);
}

typedef struct Handles {
	Verifier *v;
	int32_t *id; /* per handle: its loop ID */
} Handles;

/* Mark the values tape_loop defines; each has one loop ID. */
static int find_handle(void *ctx, const Inst *in)
{
	Handles *hs = ctx;
	Verifier *v = hs->v;
	if (in->op == OP_TAPE_LOOP && in->nres == 1 && in->narg == 1) {
		int h = in->res[0];
		int32_t k = v->f->val[in->arg[0]].k.i;
		if (v->handle[h] && hs->id[h] != k)
			verr(v, where(v, in), "a loop handle of the tape is defined for two loops");
		v->handle[h] = 1;
		hs->id[h] = k;
	}
	return 0;
}

static void check_use(Verifier *v, const Inst *in, int id)
{
	char buf[128];
	const Value *val = &v->f->val[id];
	if (val->kind == VK_CONST || !v->reach)
		return;
	if (val->kind == VK_TEMP && (!v->asg[id] || !v->active[v->defblk[id]]))
		verr(v, where(v, in), "%s is used outside the block that defines it",
		     vname(v, id, buf, sizeof buf));
	if (!v->asg[id])
		verr(v, where(v, in), "%s %s may be used before it is assigned", v->use_src ? "variable" : "value",
		     vname(v, id, buf, sizeof buf));
}

static void define(Verifier *v, const Inst *in, int id, int blk)
{
	char buf[128];
	const Value *val = &v->f->val[id];
	switch (val->kind) {
	case VK_CONST:
		verr(v, where(v, in), "a constant cannot be assigned");
	case VK_TEMP:
		if (v->ndef[id]++)
			verr(v, where(v, in), "temp %s is defined more than once", vname(v, id, buf, sizeof buf));
		v->defblk[id] = blk;
		break;
	case VK_PARAM:
		if (ty_is_array(val->ty))
			verr(v, where(v, in), "cannot assign to array parameter %s", vname(v, id, buf, sizeof buf));
		break;
	}
	for (int i = 0; i < v->nloopvar; i++)
		if (v->loopvar[i] == id)
			verr(v, where(v, in), "cannot assign to loop variable %s", vname(v, id, buf, sizeof buf));
	/* a loop handle comes from tape_loop, or is zeroed (`mov 0`) before */
	if (v->handle[id] && in->op != OP_TAPE_LOOP &&
	    !(in->op == OP_MOV && v->f->val[in->arg[0]].kind == VK_CONST && v->f->val[in->arg[0]].k.i == 0))
		verr(v, where(v, in), "a loop handle of the tape is assigned by %s", ir_ops[in->op].name);
	/* an array temp is a struct's array field (field %s, a) */
	if (ty_is_array(val->ty) && !(in->op == OP_FIELD && val->kind == VK_TEMP))
		verr(v, where(v, in), "cannot assign an array to %s", vname(v, id, buf, sizeof buf));
	v->asg[id] = 1;
}

static Type ty_of(const Verifier *v, int id) { return v->f->val[id].ty; }

static void type_list(const Verifier *v, const int32_t *ids, int n, Buf *b)
{
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s%s", i ? ", " : "", ty_name(ty_of(v, ids[i])));
}

KS_NORETURN static void bad_types(Verifier *v, const Inst *in, const char *what)
{
	Buf b = {0};
	type_list(v, in->arg, in->narg, &b);
	char args[256];
	snprintf(args, sizeof args, "%s", b.p ? b.p : "");
	buf_free(&b);
	verr(v, where(v, in), "%s cannot take (%s)", what, args);
}

/* Typing of one non-control instruction. */
static void check_types(Verifier *v, const Inst *in)
{
	Type at[256];
	for (int i = 0; i < in->narg; i++)
		at[i] = ty_of(v, in->arg[i]);
	const OpInfo *oi = &ir_ops[in->op];
	const char *opname = in->op == OP_BUILTIN ? ir_builtins[in->callee].name : oi->name;
	char buf[128];

	if (oi->nres >= 0 && in->nres != oi->nres && !(in->op == OP_BUILTIN))
		verr(v, where(v, in), "'%s' defines %d value%s, not %d", opname, oi->nres, oi->nres == 1 ? "" : "s",
		     in->nres);
	switch (in->op) {
	case OP_STORE: {
		int ok = in->narg >= 3 && ty_is_array(at[0]) && in->narg == 2 + ty_ndim(at[0]) &&
			 at[in->narg - 1] == ty_elem(at[0]);
		for (int i = 1; ok && i < in->narg - 1; i++)
			ok = at[i] == TY_INT;
		if (!ok)
			bad_types(v, in, "store");
		return;
	}
	case OP_TILE_COMP: {
		/* components K .. of each element: K a constant, in range */
		const Value *k = &v->f->val[in->arg[1]];
		if (k->kind != VK_CONST || k->k.i < 0 || in->nres != 1 || !ty_is_tile(at[0]) ||
		    k->k.i + ty_ncomp(ty_elem(ty_of(v, in->res[0]))) > ty_ncomp(ty_elem(at[0])))
			verr(v, where(v, in), "tile_comp takes constant components of the elements' range");
		break;
	}
	case OP_TILE_ADD_AT:
		/* the threads of a block add into one tile: it is a variable,
		 * updated in place */
		if (in->nres == 1 && (in->res[0] != in->arg[0] || v->f->val[in->arg[0]].kind != VK_VAR))
			verr(v, where(v, in), "tile_add_at updates a tile variable in place");
		break;
	case OP_TILE_LOAD_INDEXED:
	case OP_TILE_STORE_INDEXED:
	case OP_TILE_ATOMIC_ADD_INDEXED: {
		/* the axis: a constant within the array's rank, along which the
		 * tile's extent is the indices' */
		int load = in->op == OP_TILE_LOAD_INDEXED, ax = load ? 2 : 3;
		Type t = load ? (in->nres == 1 ? ty_of(v, in->res[0]) : TY_VOID) : (in->narg > 1 ? at[1] : TY_VOID);
		int ok = in->narg > ax && (load || ir_tile_indexed_ok(at[0], at[1], at[2], at + 4, in->narg - 4));
		const Value *k = ok ? &v->f->val[in->arg[ax]] : NULL;
		ok = ok && k->kind == VK_CONST && at[ax] == TY_INT && ty_is_array(at[0]) && k->k.i >= 0 &&
		     k->k.i < ty_ndim(at[0]) && ty_is_tile(t) && ty_ndim(t) == ty_ndim(at[0]) &&
		     ty_is_tile(at[ax - 1]) && ty_ndim(at[ax - 1]) == 1 &&
		     ty_extent(t, (int)k->k.i) == ty_extent(at[ax - 1], 0);
		if (!ok)
			bad_types(v, in, ir_ops[in->op].name);
		if (load)
			break;
		return;
	}
	case OP_TILE_STORE:
	case OP_TILE_ATOMIC_ADD: {
		int ok = in->narg >= 3 && ty_is_array(at[0]) && ty_is_tile(at[1]) &&
			 in->narg == 2 + ty_ndim(at[0]) && ty_ndim(at[1]) == ty_ndim(at[0]) &&
			 ty_elem(at[1]) == ty_elem(at[0]);
		for (int i = 2; ok && i < in->narg; i++)
			ok = at[i] == TY_INT;
		if (!ok)
			bad_types(v, in, ir_ops[in->op].name);
		return;
	}
	case OP_STORE_COMP: {
		/* the array and its indices, then one (two: a matrix's) int
		 * component indices, then the component's value */
		int nd = ty_is_array(at[0]) ? ty_ndim(at[0]) : 0, nc = in->narg - 2 - nd;
		Type el = nd ? ty_elem(at[0]) : TY_VOID;
		int ok = nd && (nc == (ty_is_mat(el) ? 2 : 1)) && ty_is_composite(el);
		for (int i = 1; ok && i < in->narg - 1; i++)
			ok = at[i] == TY_INT;
		if (ok && at[in->narg - 1] != ty_scalar(el))
			ok = 0;
		if (!ok)
			bad_types(v, in, "store_comp");
		return;
	}
	case OP_SHAPE: {
		const Value *k = &v->f->val[in->arg[1]];
		if (ir_op_type(in->op, at, in->narg, TY_VOID) != TY_VOID &&
		    (k->kind != VK_CONST || k->k.i < 0 || k->k.i >= ty_ndim(at[0])))
			verr(v, where(v, in), "the dimension of 'shape' must be a constant from 0 to %d",
			     ty_ndim(at[0]) - 1);
		break;
	}
	case OP_TAPE_OPEN:
		if (in->narg != 1 || at[0] != ty_array(TY_INT, 1))
			bad_types(v, in, opname);
		return;
	case OP_TAPE_PUT:
		if (in->narg != 3 || at[0] != TY_INT || at[1] != TY_INT || at[2] == TY_VOID || ty_is_array(at[2]))
			bad_types(v, in, opname);
		return;
	case OP_TAPE_COUNT:
		if (in->narg != 1 || at[0] != TY_INT)
			bad_types(v, in, opname);
		return;
	case OP_BUILTIN: {
		Type rt;
		int row = ir_builtin_resolve_ir(ir_builtins[in->callee].name, at, in->narg, &rt);
		if (row < 0)
			bad_types(v, in, opname);
		if (row != in->callee)
			verr(v, where(v, in), "builtin overload mismatch for %s", opname);
		if (row == BI_TID) {
			for (int i = 0; i < in->nres; i++)
				if (ty_of(v, in->res[i]) != TY_INT)
					verr(v, where(v, in), "tid returns int");
			if (in->nres > KS_MAX_NDIM)
				verr(v, where(v, in), "tid gives at most %d indices", KS_MAX_NDIM);
			if (in->nres && v->rank && in->nres != v->rank)
				verr(v, where(v, in),
				     "tid gives %d indices here and %d before: a kernel's "
				     "launch has one number of dimensions",
				     in->nres, v->rank);
			if (in->nres)
				v->rank = in->nres;
		} else if (ir_builtins[row].flags & BF_STATE) {
			/* the value, then the state the draw leaves */
			if (in->nres != 2 || ty_of(v, in->res[0]) != rt || ty_of(v, in->res[1]) != TY_UINT32)
				verr(v, where(v, in), "%s returns %s and the new state, uint32", opname,
				     ty_name(rt));
			if (in->res[0] == in->res[1])
				verr(v, where(v, in), "%s defines one value twice", opname);
		} else if (ir_builtin_nres(row) > 1) {
			/* several results: all of them, or none (left unused) */
			Type t[4];
			int n = ir_builtin_results(row, at, in->narg, t);
			if (in->nres && in->nres != n)
				verr(v, where(v, in), "%s defines %d values, not %d", opname, n, in->nres);
			for (int i = 0; i < in->nres; i++)
				if (ty_of(v, in->res[i]) != t[i])
					verr(v, where(v, in), "result %d of %s is %s, not %s", i + 1, opname,
					     ty_name(t[i]), ty_name(ty_of(v, in->res[i])));
		} else if (in->nres > 1 || (in->nres == 1 && (rt == TY_VOID || ty_of(v, in->res[0]) != rt))) {
			verr(v, where(v, in), "%s returns %s", opname, ty_name(rt));
		}
		if ((ir_builtins[row].flags & BF_KERNEL_ONLY) && !v->f->is_kernel)
			verr(v, where(v, in), "%s can only be used in a kernel", opname);
		return;
	}
	case OP_PRINTF: {
		IrConv cv[256];
		int bad;
		if (in->callee < 0 || in->callee >= v->m->nstr)
			verr(v, where(v, in), "printf without a format");
		if (ir_printf_convs(v->m->str[in->callee], cv, 256, &bad) != in->narg)
			verr(v, where(v, in), "printf: the format does not take %d value%s", in->narg,
			     in->narg == 1 ? "" : "s");
		for (int i = 0; i < in->narg; i++)
			if ((cv[i].cls == 'f') != ty_is_float(at[i]))
				bad_types(v, in, opname);
		for (int i = 0; i < in->narg; i++)
			if (!ty_is_scalar(at[i]) && at[i] != TY_BOOL)
				bad_types(v, in, opname);
		return;
	}
	case OP_CALL: {
		if (in->callee < 0 || in->callee >= v->m->nfn)
			verr(v, where(v, in), "call to a function that does not exist");
		const Func *g = v->m->fn[in->callee];
		if (g->is_kernel)
			verr(v, where(v, in), "kernel @%s cannot be called", g->name);
		/* a callee comes before its callers (doc/ir.md), which rules
		 * out recursion */
		if (in->callee == v->fi)
			verr(v, where(v, in), "recursion is not supported: '%s' calls itself", g->name);
		if (in->callee > v->fi)
			verr(v, where(v, in), "'%s' calls '%s', which is defined below it", v->f->name, g->name);
		if (in->narg != g->nparam)
			verr(v, where(v, in), "@%s takes %d argument%s, not %d", g->name, g->nparam,
			     g->nparam == 1 ? "" : "s", in->narg);
		/* a mapped call (wp.tile_map): tiles of one shape, their
		 * elements of the parameters' types, beside values of them;
		 * its results are tiles of that shape */
		Type shape = TY_VOID;
		for (int i = 0; i < in->narg; i++) {
			if (!ty_is_tile(at[i]))
				continue;
			if (shape != TY_VOID && !ty_same_shape(shape, at[i]))
				verr(v, where(v, in),
				     "a mapped call of @%s takes tiles of one shape, not %s and %s", g->name,
				     ty_name(shape), ty_name(at[i]));
			shape = at[i];
		}
		for (int i = 0; i < in->narg; i++) {
			Type pt = g->val[g->param[i]].ty;
			if ((ty_is_tile(at[i]) ? ty_elem(at[i]) : at[i]) != pt)
				verr(v, where(v, in), "argument %d of @%s is %s, not %s", i + 1, g->name,
				     ty_name(pt), ty_name(at[i]));
			if (shape != TY_VOID && !ty_is_scalar(pt) && !ty_is_vec(pt) && !ty_is_mat(pt))
				verr(v, where(v, in),
				     "a mapped call of @%s takes numbers, vectors and matrices, not %s", g->name,
				     ty_name(pt));
		}
		if (in->nres && in->nres != g->nret)
			verr(v, where(v, in), "@%s returns %d value%s, not %d", g->name, g->nret,
			     g->nret == 1 ? "" : "s", in->nres);
		for (int i = 0; i < in->nres; i++) {
			Type rt = g->ret[i];
			if (shape != TY_VOID)
				rt = ty_tile(rt, ty_ndim(shape), ty_info(shape)->shape);
			if (ty_of(v, in->res[i]) != rt)
				verr(v, where(v, in), "result %d of @%s is %s, not %s", i + 1, g->name,
				     rt == TY_VOID ? "no tile" : ty_name(rt), ty_name(ty_of(v, in->res[i])));
		}
		return;
	}
	case OP_RET:
		if (in->narg != v->f->nret)
			verr(v, where(v, in), "%s returns %d value%s, not %d",
			     v->f->is_kernel ? "a kernel" : "this function", v->f->nret, v->f->nret == 1 ? "" : "s",
			     in->narg);
		for (int i = 0; i < in->narg; i++)
			if (at[i] != v->f->ret[i])
				verr(v, where(v, in), "return value %d is %s, not %s", i + 1, ty_name(at[i]),
				     ty_name(v->f->ret[i]));
		return;
	case OP_BREAK:
	case OP_CONTINUE:
		if (in->narg)
			verr(v, where(v, in), "'%s' takes no operands", opname);
		return;
	}
	Type want = in->nres == 1 ? ty_of(v, in->res[0]) : TY_VOID;
	Type rt = ir_inst_type(in->op, in->callee, at, in->narg, want);
	if (rt == TY_VOID)
		bad_types(v, in, opname);
	if (rt != want)
		verr(v, where(v, in), "'%s' gives %s, but %s is %s", opname, ty_name(rt),
		     vname(v, in->res[0], buf, sizeof buf), ty_name(want));
}

static void walk_block(Verifier *v, const Block *b);

/* Does the for-loop in run its body at least once: constant bounds that
 * give an iteration. */
static int runs_once(const Verifier *v, const Inst *in)
{
	const Value *val = v->f->val;
	for (int i = 0; i < 3; i++)
		if (val[in->arg[i]].kind != VK_CONST)
			return 0;
	int64_t lo = val[in->arg[0]].k.i, hi = val[in->arg[1]].k.i, step = val[in->arg[2]].k.i;
	return step > 0 ? lo < hi : step < 0 ? lo > hi : 0;
}

static int open_block(Verifier *v)
{
	arena_grow(&((Module *)v->m)->arena, (void **)&v->active, &v->capblk, v->nblk + 1, 1);
	v->active[v->nblk] = 1;
	return v->nblk++;
}

static void walk_inst(Verifier *v, const Inst *in, int blk)
{
	for (int i = 0; i < in->narg; i++)
		check_use(v, in, in->arg[i]);
	check_tape(v, in);
	switch (in->op) {
	case OP_IF: {
		if (in->narg != 1 || ty_of(v, in->arg[0]) != TY_BOOL)
			verr(v, where(v, in), "an if condition must be bool");
		uint8_t *before = state_copy(v);
		int reach0 = v->reach;
		walk_block(v, &in->body);
		uint8_t *then = state_copy(v);
		int then_reach = v->reach;
		memcpy(v->asg, before, (size_t)v->f->nval);
		v->reach = reach0;
		walk_block(v, &in->els);
		if (then_reach && v->reach)
			state_and(v, v->asg, then);
		else if (then_reach)
			memcpy(v->asg, then, (size_t)v->f->nval);
		v->reach = then_reach || v->reach;
		return;
	}
	case OP_FOR: {
		for (int i = 0; i < 3; i++)
			if (ty_of(v, in->arg[i]) != TY_INT)
				verr(v, where(v, in), "for-loop bounds must be int");
		int j = in->res[0];
		if (in->nres != 1 || v->f->val[j].kind != VK_VAR || ty_of(v, j) != TY_INT)
			verr(v, where(v, in), "a for-loop variable must be an int variable");
		define(v, in, j, blk);
		uint8_t *before = state_copy(v);
		before[j] = 0; /* the loop may not run */
		int reach0 = v->reach;
		arena_grow(&((Module *)v->m)->arena, (void **)&v->loopvar, &v->caploopvar, v->nloopvar + 1,
			   sizeof *v->loopvar);
		v->loopvar[v->nloopvar++] = j;
		v->nloops++;
		uint8_t *outer_brk = v->brk;
		int outer_seen = v->brk_seen, outer_cont = v->brk_cont;
		/* A loop that surely runs leaves what its first pass assigns on
		 * every way out of the body: its end, a continue, a break.  Else
		 * breaks out of a for add nothing. */
		uint8_t *first = NULL;
		if (runs_once(v, in)) {
			first = valloc(v, (size_t)v->f->nval + 1);
			memset(first, 1, (size_t)v->f->nval);
		}
		v->brk = first;
		v->brk_seen = 0;
		v->brk_cont = first != NULL;
		walk_block(v, &in->body);
		int seen = v->brk_seen;
		v->brk = outer_brk;
		v->brk_seen = outer_seen;
		v->brk_cont = outer_cont;
		v->nloops--;
		v->nloopvar--;
		if (first && v->reach)
			state_and(v, first, v->asg);
		if (first && (v->reach || seen)) {
			first[j] = 0; /* the loop variable ends with the loop */
			memcpy(v->asg, first, (size_t)v->f->nval);
		} else {
			memcpy(v->asg, before, (size_t)v->f->nval);
		}
		v->reach = reach0;
		return;
	}
	case OP_LOOP: {
		int reach0 = v->reach;
		uint8_t *outer_brk = v->brk;
		int outer_seen = v->brk_seen, outer_cont = v->brk_cont;
		uint8_t *mine = valloc(v, (size_t)v->f->nval + 1);
		memset(mine, 1, (size_t)v->f->nval);
		v->brk = mine;
		v->brk_seen = 0;
		v->brk_cont = 0;
		v->nloops++;
		walk_block(v, &in->body);
		v->nloops--;
		int seen = v->brk_seen;
		v->brk = outer_brk;
		v->brk_seen = outer_seen;
		v->brk_cont = outer_cont;
		if (seen)
			memcpy(v->asg, mine, (size_t)v->f->nval);
		v->reach = reach0 && seen;
		return;
	}
	case OP_BREAK:
	case OP_CONTINUE:
		if (!v->nloops)
			verr(v, where(v, in), "'%s' outside a loop", ir_ops[in->op].name);
		check_types(v, in);
		if ((in->op == OP_BREAK || v->brk_cont) && v->brk && v->reach) {
			state_and(v, v->brk, v->asg);
			v->brk_seen = 1;
		}
		v->reach = 0;
		return;
	case OP_RET:
		check_types(v, in);
		v->reach = 0;
		return;
	}
	check_types(v, in);
	for (int i = 0; i < in->nres; i++)
		define(v, in, in->res[i], blk);
}

static void walk_block(Verifier *v, const Block *b)
{
	int blk = open_block(v);
	for (int i = 0; i < b->n; i++)
		walk_inst(v, &b->v[i], blk);
	v->active[blk] = 0;
}

static int param_type_ok(Type t) { return t != TY_VOID; }

static void verify_func(Verifier *v, int fi)
{
	const Func *f = v->m->fn[fi];
	Loc at = v->use_src ? f->loc : f->at;
	v->f = f;
	v->fi = fi;
	v->rank = 0;
	if (f->is_kernel && f->nret)
		verr(v, at, "kernel '%s' cannot return a value", f->name);
	if (f->backward && ir_func_find(v->m, f->name) < 0)
		verr(v, at, "backward @%s has no kernel @%s", f->name, f->name);
	for (int i = 0; i < f->nparam; i++)
		if (!param_type_ok(f->val[f->param[i]].ty))
			verr(v, at, "parameter '%s' of '%s' cannot have type %s", f->val[f->param[i]].name, f->name,
			     ty_name(f->val[f->param[i]].ty));
	for (int i = 0; i < f->nret; i++)
		if (ty_is_array(f->ret[i]) || f->ret[i] == TY_VOID)
			verr(v, at, "'%s' cannot return %s", f->name, ty_name(f->ret[i]));
	size_t n = (size_t)f->nval + 1;
	v->handle = valloc(v, n);
	v->opened = 0;
	Handles hs = {v, valloc(v, n * sizeof(int32_t))};
	ir_walk_const(&f->body, find_handle, &hs);
	v->asg = valloc(v, n);
	v->defblk = valloc(v, n * sizeof *v->defblk);
	v->ndef = valloc(v, n * sizeof *v->ndef);
	for (int i = 0; i < f->nparam; i++)
		v->asg[f->param[i]] = 1;
	v->reach = 1;
	v->nblk = 0;
	v->nloops = v->nloopvar = 0;
	v->brk = NULL;
	walk_block(v, &f->body);
	if (v->reach && f->nret)
		verr(v, at, "function '%s' can reach its end without returning a value", f->name);
}

void ir_verify_func(const Module *m, const Src *src, int use_src, int fi)
{
	Verifier v = {0};
	v.m = m;
	v.src = src;
	v.use_src = use_src;
	verify_func(&v, fi);
}

void ir_verify(const Module *m, const Src *src, int use_src)
{
	Verifier v = {0};
	v.m = m;
	v.src = src;
	v.use_src = use_src;
	for (int i = 0; i < m->nfn; i++)
		if ((m->fn[i]->backward ? ir_backward_find : ir_func_find)(m, m->fn[i]->name) < i)
			verr(&v, use_src ? m->fn[i]->loc : m->fn[i]->at, "'%s' is defined twice", m->fn[i]->name);
	for (int i = 0; i < m->nfn; i++)
		verify_func(&v, i);
}
