/*
 * sema.h: the front end's checker — names, Warp's typing rules and the
 * lowering of the syntax tree (ast.h) to typed IR (ir.h), in one walk —
 * and the state its files share.  Internal to grammar/.
 *
 * The module is checked in two steps.  The first reads the top level
 * (the import, the decorated defs), gives every def its IR function in
 * source order and builds the call graph from the calls that name a
 * wp.func; a depth-first walk of that graph rejects recursion and yields
 * an order in which every callee is lowered before its callers, so a call
 * always finds its callee's parameter and return types.  The second step
 * lowers each body statement by statement: an expression is lowered to a
 * value id (a temp, constant, parameter or variable) and its type is read
 * back from the IR, never tracked on the side.  Which operand types an
 * operator or builtin accepts is asked of ir_op_type and
 * ir_builtin_resolve, the rules the verifier uses too; the checker only
 * turns a refusal into a message a Python user understands.
 *
 * An assignment hands its target down (a Target) so that the last
 * instruction of the right-hand side writes the variable itself: no copy
 * unless the right-hand side is a bare value.  Python's scoping is
 * function-wide, so a variable is one IR value for the whole function,
 * typed by its first assignment; whether it is assigned before each use is
 * left to ir_verify's definite-assignment analysis.
 *
 * Errors longjmp out (ks.h); the module under construction is freed on the
 * way, so an error leaks nothing whether the caller exits or recovers.
 *
 * The module is read in two passes over the pieces of pieces.c
 * (sema_module.c): the first reads the module level and notes each def,
 * where it is and the names it calls; the second parses each def again
 * when its turn comes, callees first, lowers and verifies it, and hands it
 * on (kparse prints it and keeps only its signature).  So memory holds the
 * module level and one def at a time, whatever the file's size, and a call
 * finds its callee's types whatever the order of the file.
 *
 * The files, one concern each:
 *   sema.c           name maps, how messages spell types, emitting
 *                    instructions
 *   sema_types.c     types written in the source (annotations, aliases)
 *   sema_expr.c      expressions: literals, module constants read in a
 *                    body, conditions and operators, the dispatch
 *   sema_index.c     indexing, components, fields and array shapes
 *   sema_call.c      calls: conversions, constructors, builtins, wp.funcs
 *   sema_builtin.c   the wp.NAME calls that are language: where, extract,
 *                    cast, vector/matrix/..., printf and print
 *   sema_stmt.c      statements: assignments, stores, loops, return
 *   sema_loopconst.c Warp's rule for constants changed in dynamic loops
 *   sema_func.c      a def: its parameters, return annotation and body
 *   sema_const.c     module constants: a Python constant evaluator
 *   sema_host.c      the kernel language told from host Python, and
 *                    what host code binds
 *   sema_module.c    the top level, the two passes, ks_frontend and
 *                    ks_frontend_file
 */
#ifndef KS_SEMA_H
#define KS_SEMA_H

#include <stdint.h>
#include <string.h>

#include "../ir/ir.h"
#include "ast.h"

#define MAXOPS 255 /* operands and results of one instruction */

/* A located error at node n; every caller has its Sema in s. */
#define ERR(n, ...) ks_error_at(s->src, (n)->line, (n)->col, __VA_ARGS__)

/* A string → int hash map in the parse arena: function names, and the
 * parameters and variables of the function being lowered. */
typedef struct Map {
	const char **key;
	int *val;
	unsigned n, cap;
} Map;

/* A call by name in a def's body: an edge of the call graph once the
 * name is known to be a wp.func's. */
typedef struct Call {
	const char *name;
	int line, col;
	int to; /* the callee's def index, or -1 */
} Call;

/* A decorated def of the module.  The defs are numbered callees first,
 * the order they are lowered in: def index = IR function index. */
typedef struct Def {
	const char *name;
	int line, col;
	int kernel, no_backward;
	KernelOpts opts; /* a kernel's CUDA options */
	int piece, stmt; /* where it is: its piece, and its statement there */
	int failed;      /* --keep-going: it did not compile */
	int overloaded;  /* a wp.func whose name other wp.funcs share */
	int next;        /* the next overload of the name (source order), or -1 */
	Node *node;      /* its syntax, while that piece is parsed */
	Call *call;      /* the calls in its body */
	int ncall, capcall;
	Node **dflt;          /* per parameter: its default value (a copy), or NULL */
	int file;             /* the file it is in (Sema.scope), 0 for the one given */
	int max_unroll;       /* loops of more trips are not unrolled (Warp's
	                 * module option; 16) */
	int fn;               /* its IR function, or -1 (none yet, or a generic's) */
	int generic;          /* a parameter of type Any: a wp.func is lowered once for
	              * each list of argument types its calls give (an
	              * instance), a kernel for each of its overloads */
	struct Overload *ovl; /* a generic kernel's wp.overload declarations */
	int novl, capovl;
} Def;

/* wp.overload(kernel, [T, ...]) (name NULL: by position),
 * wp.overload(kernel, {"p": T, ...}) or an @wp.overload stub: the types
 * of a generic kernel's parameters, at line. */
typedef struct Overload {
	int n, line;
	const char **name;
	Type *ty;
} Overload;

/* An instance of a generic wp.func: its def, its parameters' types and
 * its IR function (-1 while it is being lowered). */
typedef struct Instance {
	int def, np;
	Type *ty;
	int fn;
} Instance;

/* A module's top level as kernels see it: its defs, its constants, the
 * names it binds to anything else (an error only where a function reads
 * one), type aliases and structs (Vec = wp.vec3d), and what math and numpy
 * are imported as; what it imports from another module is bound here as
 * that module binds it. */
typedef struct Scope {
	Map defs;      /* name → def index */
	Map consts;    /* name → index in Sema.cval */
	Map skipped;   /* name → index in Sema.host: what a kernel cannot use */
	Map typealias; /* name → Type */
	Map modules;   /* name → file (Sema.scope): a module imported as a name */
	const char *math_as, *np_as;
} Scope;

/* A module constant's value: a Python number (py: an int, float or bool,
 * typed when a function reads it: int32, float32, bool, as Warp captures
 * it), or a value of a wp type (wp.float64(0.1), wp.vec3(0.0, -9.8, 0.0)). */
typedef struct Const {
	Type ty;      /* TY_INT, TY_FLOAT, TY_BOOL for a Python number; else a wp type */
	int py;       /* a Python number */
	int64_t i;    /* int and bool */
	double v[36]; /* float, or the components of a vector, matrix, ... */
} Const;

typedef struct Sema {
	const Src *src;
	Arena *a; /* the parse arena: maps, the def table */
	Module *m;
	Def *def;
	int ndef, capdef; /* def index = IR function index */
	/* the module level of each file read (the file given and the
	 * modules it imports, scope[Def.file]), and the one at hand */
	Scope **scope;
	int nscope;
	Scope *sc;
	Const *cval; /* the constants' values (Scope.consts) */
	int ncval, capcval;
	struct Skipped {
		int line;
		const char *why; /* NULL: a module value that is not a constant */
	} * host;
	int nhost, caphost;
	int *fndef; /* per IR function: its def */
	int capfndef;
	Instance *inst; /* the instances of generic wp.funcs so far */
	int ninst, capinst;

	/* the function being lowered */
	Def *cur;
	const Type *inst_ty; /* an instance's parameter types, or NULL */
	Func *f;
	Block *blk;           /* where instructions go */
	Map names;            /* parameters and variables → value id */
	int nloop;            /* enclosing loops, for break/continue */
	const char **loopvar; /* enclosing for-loops' variables */
	int nloopvar, caploopvar;
	int nsig; /* return values so far, -1 before the first return */
	Type *sig;
	int sig_ann; /* the signature came from a '-> T' annotation */
	/* while an assignment target is lowered (d[f(i)].x += e): the values
	 * already computed for its nodes in block memo_blk, so that a node read
	 * and then written back is evaluated once; memo_blk NULL: off */
	struct Memo *memo;
	int nmemo, capmemo;
	Block *memo_blk;
	/* the tile variables that are views (wp.tile_view, a copy here) or
	 * have one: none is changed in place (tile_inplace_ok) */
	int32_t *viewed;
	int nviewed, capviewed;
} Sema;

/* One node's value: what expr (idx 0) or index_val (idx 1) gave for it. */
typedef struct Memo {
	const Node *n;
	int idx;
	int v;
} Memo;

/* An assignment's target, handed to the expression that computes its value
 * so that the last instruction writes the variable directly. */
typedef struct Target {
	Node *at;  /* the N_NAME assigned, for its name and for errors */
	int id;    /* its value, or -1 before its first assignment */
	Type want; /* the annotated type of a new variable, or TY_VOID */
	int done;  /* an instruction has written it */
} Target;

/* The i-th child of n, or NULL. */
static inline Node *kid(const Node *n, int i) { return n && i < n->nkid ? n->kid[i] : NULL; }

/* Where n is, for the IR. */
static inline Loc loc_of(const Node *n)
{
	Loc l = {n->line, n->col};
	return l;
}

static inline int is_name(const Node *n, const char *name)
{
	return n && n->kind == N_NAME && !strcmp(n->name, name);
}

/* wp.NAME */
static inline int is_wp_attr(const Node *n) { return n && n->kind == N_ATTR && is_name(kid(n, 0), "wp"); }

/* The type of value v of the function being lowered. */
static inline Type ty_of(const Sema *s, int v) { return s->f->val[v].ty; }

/* sema.c: names, state, messages, emitting */
int map_get(const Map *mp, const char *k);
/* A name the module binds to what a kernel cannot use (host Python, a
 * value that is not a constant, a def that did not compile): why, or NULL
 * for a value that is not a constant. */
void skip_name(Sema *s, const char *name, int line, const char *why);
/* The error for a use at n of the skipped name n->name (k: its index). */
KS_NORETURN void skipped_use(Sema *s, const Node *n, int k);
void map_put(Arena *a, Map *mp, const char *k, int v);
int def_find(Sema *s, const char *name);
/* What M.NAME names, M a module imported as a name (and no variable):
 * MA_DEF (*v its def), MA_CONST (*v its index in cval), MA_TYPE (*v the
 * Type), MA_HOST (*v its index in host), MA_NONE (the module has no such
 * name); 0 when n is no such attribute. */
enum { MA_DEF = 1, MA_CONST, MA_TYPE, MA_HOST, MA_NONE };
int module_attr(Sema *s, const Node *n, int *v);
const char *uty(Type t);
void fmt_types(char *out, size_t n, const Type *t, int k);
const char *conv_hint(Type a, Type b);
const char *assign_hint(Type dst, Type src);
void lit_text(const Sema *s, const Node *n, char *out, size_t cap);
int reserved(const char *name);
Type wp_type(const char *name);
Inst *emit(Sema *s, const Node *at, int op, const int32_t *res, int nres, const int32_t *arg, int narg);
int new_var(Sema *s, const char *name, Type ty);
void type_mismatch(Sema *s, const Node *at, const char *name, Type has, Type ty);
int out(Sema *s, Target *t, Type ty);
int emit_val(Sema *s, const Node *at, int op, Type ty, const int32_t *arg, int narg, Target *t);
int builtin_val(Sema *s, const Node *at, const char *name, const int32_t *a, int n, Target *t, int want);

/* sema_types.c */
void dotted(const Node *n, char *out, size_t cap);
int array_spelling(const Node *n);
int const_int(Sema *s, Node *n, const char *what);
int is_wp_types(const Node *n, const char *name);
Type shaped_type(Sema *s, Node *at, int rows, int cols, Type sc);
Type ann_type(Sema *s, Node *a);
/* Is annotation a generic (Any, wp.array(dtype=Any), wp.array2d[Any])? */
int generic_ann(Sema *s, const Node *a);
/* The type generic annotation a takes for an argument of type at (at
 * node x), or a located error. */
Type generic_type(Sema *s, const Node *a, const Node *x, Type at);

/* sema_expr.c */
int literal(const Node *n, int64_t *i, double *x, int *isf);
int typed_literal(Sema *s, Node *n, Type ty);
int cond(Sema *s, Node *e, const char *what);
extern const char *const binop_sym[];
int binop(Sema *s, Node *at, int bop, int a, int b, Target *t, int aug);
int wp_constant(const char *name, double *x);
int name_value(Sema *s, Node *e);
/* Module constant k (s->cval[k]) read at at: its value as IR. */
int const_of(Sema *s, Node *at, int k);
int memo_get(Sema *s, const Node *e, int idx);
int memo_put(Sema *s, const Node *e, int idx, int v);
int expr(Sema *s, Node *e, Target *t);
/* wp.static(x): x evaluated when the kernel is compiled */
int static_value(Sema *s, Node *e);

/* sema_index.c */
int index_val(Sema *s, Node *e, int dim, Type of);
Node **subscripts(Node *e, int *n);
void check_nsub(Sema *s, Node *e, Type t, int n);
int component(Sema *s, Node *e, Type t);
int xform_part(Sema *s, Node *at, int v, int q, Target *t);
void set_xform_part(Sema *s, Node *call, const char *name, int q);
int field_index(Sema *s, Node *e, Type t);
int attr_value(Sema *s, Node *e, Target *t);
Type static_type(Sema *s, const Node *n);
int array_of(Sema *s, const Node *n);
int array_access(Sema *s, Node *e, int *arr, Node **sub, int cap);
int index_value(Sema *s, Node *e, Target *t);

/* sema_call.c */
int component_arg(Sema *s, Node *x, Type want, const char *name);
int make(Sema *s, Node *e, Type want, Target *t);
int bind_args(Sema *s, Node *e, const char *what, const char *const *pname, int np, Node *const *dflt, Node **node);
int several(Sema *s, Node *e, const char *name, int row0, Node *lhs, int want);
/* An overloaded call's arguments are evaluated once, for the choice of
 * its overload and then for the call: a memo scope (memo_get) kept open
 * from the choice to the call. */
typedef struct MemoScope {
	Block *blk;
	int n;
} MemoScope;
MemoScope memo_open(Sema *s);
void memo_close(Sema *s, MemoScope m);
int pick_overload(Sema *s, Node *e, int d);
/* The same for n arguments of types at (an: their keywords, or NULL),
 * already evaluated (wp.tile_map's elements); e is where errors point. */
int overload_for(Sema *s, Node *e, int d, const Type *at, const char *const *an, int n);
/* The IR function call e of def d (pick_overload's) takes: d's, or the
 * instance of generic d for the arguments' types. */
int call_target(Sema *s, Node *e, int d);
/* The IR function call e calls (call_target), else -1. */
int callee_of(Sema *s, Node *e);
/* fn below: an IR function, of def s->fndef[fn] */
int func_args(Sema *s, Node *e, int fn, int32_t *a);
void func_call(Sema *s, Node *e, int fn, const int32_t *res, const int32_t *a, int n);
void func_call_temps(Sema *s, Node *e, int fn, int32_t *res);
int call(Sema *s, Node *e, Target *t, int want);

/* sema_builtin.c */
void print_call(Sema *s, Node *e);
int lang_call(Sema *s, Node *e, const char *name, Target *t, int want);
/* sema_tile.c: wp.NAME(...) for Warp's tile builtins (-2 when NAME is not
 * one, or is a row of builtins.h); an index k of a tile, checked when
 * constant. */
int tile_call(Sema *s, Node *e, const char *name, Target *t, int want);
int tile_index(Sema *s, Node *n, Type tile, int k);
void tile_inplace_ok(Sema *s, Node *at, int v);
int tile_view_of(Sema *s, Node *at, int v, const int32_t *off, int n, Type want, Target *t);

/* sema_host.c: a piece's first line of code (its number from 0 in
 * *line), what kind of piece it is (P_*), the names a host statement
 * binds, "kernel NAME: " and the like for a def's messages, the kernel
 * factories in a host def */
enum { P_BLANK, P_KERNEL, P_MODULE };
const char *host_first_code(const char *p, const char *e, int *line);
int host_piece_kind(const char *l, const char *e);
void host_binds(Sema *s, const char *l, const char *e, int line, const char *why);
const char *host_what(const char *l, const char *e, char *buf, size_t n);
int host_is_def(const char *l, const char *e);
const char *host_factory(const char *p, const char *e, int *line, int *col, char *name, size_t n);

/* sema_module.c: the IR function of the instance of generic def d that
 * call e takes (at: its arguments' types, an: their keywords or NULL),
 * lowered first if it is new */
int instance(Sema *s, Node *e, int d, const Type *at, const char *const *an);

/* sema_stmt.c */
void tuple_targets(Sema *s, Node *lhs);
int dropped_target(const Node *lhs, int i);
int tuple_target(Sema *s, Node *lhs, int i, Type ty);
void check_ret_type(Sema *s, Node *at, Type t);
void stmt(Sema *s, Node *n);

/* sema_loopconst.c */
void check_loop_constants(Sema *s, const Node *params, const Node *body);

/* sema_func.c */
void lower_def(Sema *s, Def *d, int di);

/* sema_const.c */
int is_module(const Node *n, const char *as);
int const_eval(Sema *s, Node *e, Const *c);
void py_string(Sema *s, Node *n, Buf *b); /* a string literal's value (sema_builtin.c) */

#endif
