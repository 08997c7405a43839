/*
 * ir.h: ksynth's typed intermediate representation (doc/ir.md has the
 * text grammar).
 *
 * A Module holds functions (wp.func) and kernels.  A function body is a
 * Block: a list of instructions whose control flow is structured (if, for,
 * loop with break/continue/ret), so kdiff and the emitters walk it as a
 * tree.  Every instruction carries the source line and column it came
 * from.
 *
 * Values are numbered per function (Func.val).  Four kinds:
 *   params    %name, the function's parameters; scalar ones may be reassigned
 *   variables %name, source variables; assigned any number of times, one type
 *   temps     %N, defined exactly once, used where that definition dominates
 *   constants int, float and bool literals, written inline as operands
 * All value and instruction storage lives in the module's arena.
 */
#ifndef KS_IR_H
#define KS_IR_H

#include <stdint.h>
#include <stdio.h>

#include "../lib/ks.h"

#define IR_VERSION 1

/* ---- types ----------------------------------------------------------- */

/* A Type is a row of one table (ir/type.c): the named rows of types.h
 * first, in their order (so TY_FLOAT is a constant), then the array types
 * made as they are needed.  Two values have the same type exactly when
 * their Types are equal. */
typedef uint16_t Type;
enum {
#define T(e, kind, scalar, rows, cols, ir, warp, alias) TY_##e,
#include "types.h"
#undef T
	TY_NFIXED
};

/* clang-format off */
enum TypeKind {
	TK_VOID, TK_BOOL, TK_SINT, TK_UINT, TK_FLOAT, /* scalars */
	TK_VEC, TK_MAT, TK_QUAT, TK_XFORM,             /* of a scalar */
	TK_ARRAY,
	TK_STRUCT,                                     /* a @wp.struct */
	TK_TILE,                                       /* a block's tile */
};
/* clang-format on */

/* A field of a struct type. */
typedef struct Field {
	const char *name;
	Type ty;
} Field;

typedef struct TypeInfo {
	uint8_t kind;      /* TK_* */
	uint8_t rows;      /* components (vec, quat, transform) or rows (mat) */
	uint8_t cols;      /* mat: columns; else 1 */
	uint8_t ndim;      /* array: rank, 1 to 4 */
	uint16_t size;     /* bytes of one value (an array: of one element) */
	Type scalar;       /* the component type; an array's element's */
	Type elem;         /* array: the element type; else the type itself */
	const char *name;  /* the IR spelling: "float", "vec3d", "float[,]" */
	const char *warp;  /* wp.<warp>, "" for none */
	const char *alias; /* a second wp.<alias> spelling, or "" */
	int nfield;        /* struct: its fields, in order */
	const Field *field;
	const int *shape; /* tile: its extents, ndim of them */
	int count;        /* tile: its elements, the product of the extents */
} TypeInfo;

/* The table; it may move when an array type is made (ty_array). */
extern TypeInfo *ks_types;
static inline const TypeInfo *ty_info(Type t) { return &ks_types[t]; }

#define KS_MAX_NDIM 4

static inline int ty_kind(Type t) { return ks_types[t].kind; }
static inline int ty_is_array(Type t) { return ks_types[t].kind == TK_ARRAY; }
/* An array's element type; any other type itself. */
static inline Type ty_elem(Type t) { return ks_types[t].elem; }
static inline int ty_ndim(Type t) { return ks_types[t].ndim; }
static inline Type ty_scalar(Type t) { return ks_types[t].scalar; }
static inline int ty_is_vec(Type t) { return ks_types[t].kind == TK_VEC; }
static inline int ty_is_mat(Type t) { return ks_types[t].kind == TK_MAT; }
static inline int ty_is_quat(Type t) { return ks_types[t].kind == TK_QUAT; }
static inline int ty_is_xform(Type t) { return ks_types[t].kind == TK_XFORM; }
/* float16, float32, float64 */
static inline int ty_is_float(Type t) { return ks_types[t].kind == TK_FLOAT; }
/* int8 .. uint64 */
static inline int ty_is_int(Type t) { return ks_types[t].kind == TK_SINT || ks_types[t].kind == TK_UINT; }
static inline int ty_is_unsigned(Type t) { return ks_types[t].kind == TK_UINT; }
/* a number: an int or a float of any width (not bool) */
static inline int ty_is_scalar(Type t) { return ty_is_int(t) || ty_is_float(t); }
static inline int ty_is_struct(Type t) { return ks_types[t].kind == TK_STRUCT; }
static inline int ty_is_tile(Type t) { return ks_types[t].kind == TK_TILE; }
/* A tile's extent k (0 <= k < its rank, ty_ndim) and its element count. */
static inline int ty_extent(Type t, int k) { return ks_types[t].shape[k]; }
static inline int ty_count(Type t) { return ks_types[t].count; }
/* Are tiles a and b of one shape (whatever their elements)? */
int ty_same_shape(Type a, Type b);
static inline int ty_nfield(Type t) { return ks_types[t].nfield; }
static inline const Field *ty_field(Type t, int k) { return &ks_types[t].field[k]; }
/* a vector, matrix, quaternion or transform */
static inline int ty_is_composite(Type t)
{
	int k = ks_types[t].kind;
	return k == TK_VEC || k == TK_MAT || k == TK_QUAT || k == TK_XFORM;
}
/* a value made of floats: a float, or a composite of floats (what has an
 * adjoint) */
static inline int ty_is_floaty(Type t)
{
	return (ty_is_float(t) || ty_is_composite(t)) && ty_is_float(ks_types[t].scalar);
}
/* N of vecN and of matNN (its rows), else 0 */
static inline int ty_dim(Type t) { return ty_is_vec(t) || ty_is_mat(t) ? ks_types[t].rows : 0; }
static inline int ty_rows(Type t) { return ks_types[t].rows; }
static inline int ty_cols(Type t) { return ks_types[t].cols; }
/* the number of scalar components (1 for a scalar, N, N*M, 4, 7) */
static inline int ty_ncomp(Type t) { return ks_types[t].rows * ks_types[t].cols; }
/* float32 vecN and matNN, N from 2 to 4 */
static inline Type ty_vec(int n) { return (Type)(TY_VEC2 + n - 2); }
static inline Type ty_mat(int n) { return (Type)(TY_MAT22 + n - 2); }
/* The named type of this kind, scalar and shape, or TY_VOID if there is
 * none (a vec5, a mat23). */
Type ty_find(int kind, Type scalar, int rows, int cols);
/* t's shape with another scalar (vec3 -> vec3d), or TY_VOID. */
Type ty_with_scalar(Type t, Type scalar);
/* The array of elem with ndim dimensions (made on first use), or TY_VOID
 * when elem cannot be an array's element or ndim is out of range. */
Type ty_array(Type elem, int ndim);
/* The tile of elem (a number, bool, vector or matrix) with these extents (ndim of them, 1 to 4,
 * each at least 1, at most KS_MAX_TILE elements in all), made on first
 * use; TY_VOID when elem or the shape cannot be a tile's.  Its IR name is
 * "tile(float,16,16)".  An extent may be KS_TILE_BLOCK, the threads of the
 * block, which the launch decides (wp.tile(x): an element of each
 * thread's): "tile(float,block)", counted as one element until the
 * emitters give it the block's size (ty_at_block). */
#define KS_MAX_TILE 65536
#define KS_TILE_BLOCK (-1)
Type ty_tile(Type elem, int ndim, const int *shape);
/* Does tile t have an extent of KS_TILE_BLOCK? */
int ty_has_block(Type t);
/* t with every KS_TILE_BLOCK extent made block (threads); any other type
 * as it is. */
Type ty_at_block(Type t, int block);
/* "float", "vec3", "mat33d", "float[]", "vec3[,]", "bool" */
static inline const char *ty_name(Type t) { return ks_types[t].name; }
/* The struct type NAME with these fields (copied), made on first use: a
 * struct of the same name and fields is the same Type.  A later struct of
 * the same name with other fields is a new Type, and the name means it
 * from then on (ty_parse): tools read one module at a time. */
Type ty_struct(const char *name, const Field *field, int nfield);
/* The field of struct t named name: its index, or -1. */
int ty_field_find(Type t, const char *name);
/* Does t hold a float anywhere (a float of any width, a composite of
 * floats, or a struct with such a field, nested structs included)?
 * Arrays do not count. */
int ty_has_float(Type t);
/* The leaves of a value of type t, in order: 1, or for a struct its
 * fields' leaves (a nested struct's leaves in its place); the first leaf
 * of a struct's field k among them. */
int ty_nleaves(Type t);
int ty_leaf_offset(Type t, int k);
/* Parse a type name as ty_name prints it; TY_VOID when unknown. */
Type ty_parse(const char *s, size_t n);
/* The named type spelled wp.NAME (Warp's name or its alias), or TY_VOID. */
Type ty_from_warp(const char *name);

/* ---- opcodes and builtins -------------------------------------------- */

enum {
#define OP(e, s, na, nr, cl) OP_##e,
#include "ops.h"
#undef OP
	OP_COUNT
};

/* What an opcode is: ops.h's class column, flags (0: a pure value, no
 * effect and no memory read).  Read them through the predicates below
 * the instructions. */
enum {
	OC_READ = 1,   /* reads memory: load; the tape's operations */
	OC_WRITE = 2,  /* writes memory: store; the tape's operations but tape_get */
	OC_PRINT = 4,  /* writes the log: printf */
	OC_CALL = 8,   /* what it does is its callee's: call, builtin */
	OC_BLOCK = 16, /* holds blocks: if, for, loop */
	OC_LOOP = 32,  /* a loop: for, loop */
	OC_JUMP = 64,  /* leaves its block: break, continue, ret */
	OC_TAPE = 128, /* acts on a backward kernel's tape */
};

typedef struct OpInfo {
	const char *name;
	int nargs, nres;
	int cls; /* OC_* */
} OpInfo;
extern const OpInfo ir_ops[OP_COUNT];

/* BF_STATE: advances its first argument, a random-number state: the
 * instruction has a second result, the new state.  BF_OWN_NAME: the C name
 * is ks_ and the row's enum in lower case (overloads C could not tell
 * apart by the first argument).  BF_VIEW: its array arguments are passed
 * as views, with their shape.  BF_INTERNAL: an adjoint helper a kernel
 * cannot call (doc/autodiff.md).  BF_TILE: an operation on tiles, which
 * the threads of a block compute together. */
enum {
	BF_KERNEL_ONLY = 1,
	BF_ATOMIC = 2,
	BF_STATE = 4,
	BF_OWN_NAME = 8,
	BF_VIEW = 16,
	BF_INTERNAL = 32,
	BF_TILE = 64
};
enum {
#define B6(e, name, res, args, fl, adj) BI_##e,
#include "builtins.h"
#undef B6
	BI_COUNT
};
typedef struct BuiltinInfo {
	const char *name, *res, *args;
	const char *ename; /* the enum, "RANDF_RANGE" */
	int flags;
	const char *adj; /* derivative rule (diff/rule.c), "" for none */
} BuiltinInfo;
extern const BuiltinInfo ir_builtins[BI_COUNT];

/* Does any builtin row have this name? */
int ir_builtin_known(const char *name);
/* The rows of a name in order: the first, or -1; the one after row r. */
int ir_builtin_first(const char *name);
int ir_builtin_next(int row);
/* ... one a kernel may call (not BF_INTERNAL)? */
int ir_builtin_public(const char *name);
/* Resolve an overload of NAME for the argument types.  Returns the row or
 * -1, and sets *res to its result type (TY_VOID for none). */
int ir_builtin_resolve(const char *name, const Type *args, int nargs, Type *res);
/* Is a call of row on these argument types a mapped one, the row's
 * function applied to each element of its tile arguments? */
int ir_builtin_mapped(int row, const Type *args, int nargs);
/* The result types of a row for these argument types (which it must
 * accept) into res (at most 4): their number, 0 for none.  A row with
 * several results (svd3) names them (ir_builtin_result_name). */
int ir_builtin_results(int row, const Type *args, int nargs, Type *res);
/* The name of result k of a row with several ("U"), into out. */
void ir_builtin_result_name(int row, int k, char *out, size_t n);
/* The number of results of a row (0, 1, or more for svd3 and the like). */
int ir_builtin_nres(int row);
/* The same for IR, which may also add a struct into an element of an
 * array of structs, atomically, field by field (kdiff's gather of an
 * adjoint; the language has no such atomic_add). */
int ir_builtin_resolve_ir(const char *name, const Type *args, int nargs, Type *res);
/* The number of arguments of a row, or -1 where it varies (index). */
int ir_builtin_arity(int row);
/* Does parameter k of row have a default value ("gain: float = 0.5")?
 * Then its type (a type by name) and the value. */
int ir_builtin_default(int row, int k, Type *ty, double *value);
/* A readable list of NAME's signatures, "min(float, float), min(int, int),
 * ...", for error messages. */
void ir_builtin_signatures(const char *name, char *out, size_t n);
/* "ks_sin_float", "ks_min_vec3", "ks_atomic_add_float": the runtime name */
void ir_builtin_cname(int row, const Type *args, char *out, size_t n);

/* The result type of a non-builtin value opcode applied to args, or
 * TY_VOID when the combination is not allowed.  For OP_MAKE the result
 * type cannot be derived from the arguments: pass it in want. */
Type ir_op_type(int op, const Type *args, int nargs, Type want);
/* The same for an instruction, whose callee field may matter: field and
 * setfield name their field by its index there. */
Type ir_inst_type(int op, int callee, const Type *args, int nargs, Type want);

/* ---- values and instructions ----------------------------------------- */

enum { VK_PARAM, VK_VAR, VK_TEMP, VK_CONST };

typedef struct Loc {
	int line, col;
} Loc;

typedef struct Value {
	const char *name; /* params and variables; NULL otherwise */
	Type ty;
	uint8_t kind;
	uint8_t view; /* an array parameter: 0 not yet known, 1 passed as a
	               * pointer, 2 as a view (ir_param_view) */
	int32_t num;  /* temps: number as read (renumbered on print) */
	union {
		int64_t i; /* int and bool constants: the value, an unsigned
		            * one's bits (uint64 above INT64_MAX is negative) */
		double f;  /* float constants, exact in their type */
	} k;
} Value;

typedef struct Inst Inst;
typedef struct Block {
	Inst *v;
	int n, cap;
} Block;

struct Inst {
	uint16_t op;
	int32_t callee; /* OP_BUILTIN: builtin row; OP_CALL: module fn index;
	                 * OP_PRINTF: the format's index in Module.str */
	uint8_t nres, narg;
	int32_t *res; /* value ids defined */
	int32_t *arg; /* value ids used */
	Loc loc;      /* in the kernel source */
	Loc at;       /* in the IR text it was read from (0:0 if built) */
	Block body;   /* IF: then; FOR, LOOP: body */
	Block els;    /* IF: else */
};

/* A kernel's options for its CUDA build (@wp.kernel(launch_bounds=...,
 * cuda_max_registers=..., cluster_dim=..., grid_stride=False,
 * enable_cuda_smem_spilling=True)); 0 where unset.  A backward kernel has
 * its kernel's. */
typedef struct KernelOpts {
	int max_threads, min_blocks; /* __launch_bounds__(max_threads[, min_blocks]) */
	int max_registers;           /* __maxnreg__ */
	int cluster_dim;             /* blocks to a cluster, 2 to 16 */
	int lean;                    /* no grid-stride loop: a thread per index */
	int smem_spilling;           /* registers may spill to shared memory */
} KernelOpts;

typedef struct Func {
	const char *name;
	int is_kernel;    /* 1 for kernels and backward kernels */
	int backward;     /* the backward kernel of kernel @name (kdiff) */
	int no_backward;  /* a kernel kdiff leaves without a backward
	                  * (@wp.kernel(enable_backward=False)) */
	KernelOpts opts;  /* kernels and backward kernels */
	const char *file; /* the source file it is from, when not the module's
	                   * (a module imported): in the arena with its body */
	int nparam;
	int32_t *param; /* value ids */
	int nret;
	Type *ret;
	Block body;
	Value *val;
	int nval, capval;
	Loc loc, at;
	uint64_t hash; /* ir_hash_func's result, when hashed is set */
	int hashed;    /* set by a caller that then drops the body */
} Func;

typedef struct Module {
	int version;
	const char *source; /* the kernel source file name, or NULL */
	Type *st;           /* the struct types it declares, each after the
	                     * structs its fields hold; malloc'd */
	int nst, capst;
	int32_t *stidx; /* per Type: its index in st + 1, 0 if not here (malloc'd) */
	int capstidx;
	/* the functions: fn[i] is function i while it is at hand, NULL before
	 * it is read (ir/file.c's first pass names every function of a module)
	 * and after a tool is done with a kernel (ir_func_forget); its name
	 * and kind stay in fnname and fnkind.  All malloc'd, each Func too. */
	Func **fn;
	const char **fnname;
	uint8_t *fnkind; /* FN_* */
	int nfn, capfn;
	Arena arena;
	/* name index of fn (ir_func_find): open addressing over fn indices + 1,
	 * filled lazily up to nindexed; malloc'd */
	int32_t *index;
	int capindex, nindexed;
	/* when set, where ir_func_new puts a function's name and entry, so
	 * that they outlive the arena (ir/file.c) */
	Arena *fnarena;
	/* the strings of printf instructions, each once; malloc'd, so that
	 * they outlive the arena of a function read one at a time */
	char **str;
	int nstr, capstr;
	int32_t *strindex; /* str by text: open addressing over index + 1 */
	int capstrindex;
} Module;

/* ---- what an instruction is ------------------------------------------ */

/* The questions passes ask of an opcode's class (OC_*): does it hold
 * blocks or leave one (the structured control flow: if, for, loop, break,
 * continue, ret)?  hold blocks (if, for, loop)?  is it a loop (for,
 * loop)?  leave its block (break, continue, ret)?  act on the tape? */
static inline int ir_op_control(int op) { return ir_ops[op].cls & (OC_BLOCK | OC_JUMP); }
static inline int ir_op_blocks(int op) { return ir_ops[op].cls & OC_BLOCK; }
static inline int ir_op_loop(int op) { return ir_ops[op].cls & OC_LOOP; }
static inline int ir_op_jump(int op) { return ir_ops[op].cls & OC_JUMP; }
static inline int ir_op_tape(int op) { return ir_ops[op].cls & OC_TAPE; }

/* Is builtin row an atomic (BF_ATOMIC: it reads and writes an array
 * element, in no set order with the other threads)?  Is in a call of one? */
static inline int ir_builtin_atomic(int row) { return (ir_builtins[row].flags & BF_ATOMIC) != 0; }
static inline int ir_inst_atomic(const Inst *in) { return in->op == OP_BUILTIN && ir_builtin_atomic(in->callee); }
/* a store of an array element, of one of its components, or of a tile */
static inline int ir_inst_store(const Inst *in)
{
	return in->op == OP_STORE || in->op == OP_STORE_COMP || in->op == OP_TILE_STORE ||
	       in->op == OP_TILE_STORE_INDEXED;
}
/* a load of an array element or of a tile */
static inline int ir_inst_load(const Inst *in)
{
	return in->op == OP_LOAD || in->op == OP_TILE_LOAD || in->op == OP_TILE_LOAD_INDEXED;
}
/* a tile's access of an array through a tile of indices along an axis
 * (tile_load_indexed, tile_store_indexed, tile_atomic_add_indexed) */
static inline int ir_op_indexed(int op)
{
	return op == OP_TILE_LOAD_INDEXED || op == OP_TILE_STORE_INDEXED || op == OP_TILE_ATOMIC_ADD_INDEXED;
}
/* Do these types fit such an access: array arr, a tile t of its element
 * type and rank, a 1-D tile of int indices, noff int offsets? */
int ir_tile_indexed_ok(Type arr, Type t, Type idx, const Type *off, int noff);

/* Is in a pure value: no effect, no memory read, no control?  An opcode
 * of class 0, or a builtin but an atomic (a call is not: what it does is
 * its callee's, ir/calls.c). */
static inline int ir_inst_pure(const Inst *in)
{
	return ir_ops[in->op].cls == 0 || (in->op == OP_BUILTIN && !ir_builtin_atomic(in->callee));
}

/* The effects of an instruction on memory, as flags: FX_READ, it reads
 * memory; FX_WRITE, it writes memory, or must keep its place among what
 * does (a print, the tape's operations); FX_ATOMIC, it uses an atomic;
 * FX_PRINT, it writes the log.  An atomic reads and writes, a print
 * writes; so FX_READ alone is a plain read. */
enum { FX_READ = 1, FX_WRITE = 2, FX_ATOMIC = 4, FX_PRINT = 8 };

/* in's own effects (FX_*); a call's are its callee's (ir/calls.c), none
 * here. */
static inline int ir_inst_fx(const Inst *in)
{
	int c = ir_ops[in->op].cls;
	if (in->op == OP_BUILTIN)
		return ir_builtin_atomic(in->callee) ? FX_READ | FX_WRITE | FX_ATOMIC : 0;
	if (in->op == OP_TILE_ATOMIC_ADD)
		return FX_READ | FX_WRITE | FX_ATOMIC;
	return (c & OC_READ ? FX_READ : 0) | (c & OC_WRITE ? FX_WRITE : 0) |
	       (c & OC_PRINT ? FX_WRITE | FX_PRINT : 0);
}

/* ---- building -------------------------------------------------------- */

Module *ir_module_new(void);
void ir_module_free(Module *m);
/* A function's kind: a func, a kernel, or a kernel's backward. */
enum { FN_FUNC, FN_KERNEL, FN_BACKWARD };
/* A new function of kind FN_* at the end of m, its name in m->fnarena
 * when set, else in m's arena. */
Func *ir_func_new(Module *m, const char *name, int kind, Loc loc);
/* Name function nfn of kind FN_* without making it yet (fn[i] NULL), and
 * make function i once it comes (its name and kind as declared). */
void ir_func_declare(Module *m, const char *name, int kind);
Func *ir_func_make(Module *m, int i);
/* Free function i's Func, keeping its name and kind: a kernel nothing
 * will call (the arena that holds its body is the caller's). */
void ir_func_forget(Module *m, int i);
/* Declare struct type t in m (once; a struct its fields hold must be
 * declared first); its index in m->st, or -1 when m does not declare it. */
void ir_struct_add(Module *m, Type t);
int ir_struct_index(const Module *m, Type t);
/* The func or kernel NAME (backward kernels have a namespace of their own:
 * `backward @k` is the backward of `kernel @k`): index or -1. */
int ir_func_find(const Module *m, const char *name);
int ir_backward_find(const Module *m, const char *name);

int ir_param(Module *m, Func *f, const char *name, Type ty);
/* A new variable; callers keep their own name tables and never add a name
 * twice. */
int ir_var(Module *m, Func *f, const char *name, Type ty);
int ir_temp(Module *m, Func *f, Type ty);
int ir_const_int(Module *m, Func *f, int32_t v);
int ir_const_bool(Module *m, Func *f, int v);
int ir_const_float(Module *m, Func *f, float v);
/* A constant of any scalar type: ints and bool from i (kept as the type
 * keeps it: truncated to its width), floats from x (rounded to its
 * width). */
int ir_const(Module *m, Func *f, Type ty, int64_t i, double x);
/* A constant as IR text: "true", "-3", "0.5", "7:uint32", "0.1:float64". */
void ir_const_text(char *out, size_t n, const Value *v);
/* Append an instruction to b; res and arg are copied.  The pointer stays
 * valid until the next ir_emit into the same block. */
Inst *ir_emit(Module *m, Block *b, int op, const int32_t *res, int nres, const int32_t *arg, int narg, Loc loc);
void ir_set_ret(Module *m, Func *f, const Type *ret, int nret);
/* One conversion of a printf format: its class ('i' a signed int, 'u' an
 * unsigned one, 'c' a char, 'f' a float) and its length modifier ("",
 * "hh", "h", "l", "ll"). */
typedef struct IrConv {
	char cls;
	char len[3];
} IrConv;
/* The conversions of a printf format (%% is none), at most max of them:
 * the count, or -1 when one is not taken (%s %p %n, a '*' width or
 * precision, another length modifier, an unknown letter, a lone '%'),
 * *bad then its offset in fmt. */
int ir_printf_convs(const char *fmt, IrConv *cv, int max, int *bad);
/* The index of string s (NUL-terminated) in m->str, added if new. */
int ir_string(Module *m, const char *s);
/* Copy what calls to f need (its name, parameters and results; a
 * kernel's name) to m->fnarena and forget f's body (ir/file.c). */
void ir_keep_signature(Module *m, Func *f);

/* Make every call in b (nested blocks included) to function i a call to
 * to[i]. */
void ir_remap_calls(Block *b, const int32_t *to);
/* Move function i of m to index to[i] (a permutation), with its name and
 * kind, and every call after it. */
void ir_reorder(Module *m, const int32_t *to);

/* ---- text ------------------------------------------------------------- */

/* Print the module in canonical form (temps renumbered in order). */
void ir_print(FILE *out, const Module *m);
/* The same, in pieces: the head, then each function (preceded by its
 * blank line). */
void ir_print_head(FILE *out, const Module *m);
void ir_print_func(FILE *out, const Module *m, const Func *f);
/* Reading IR text (ir/file.c): the head, then a function at a time, each
 * whole once read since a call names a function above it.  Errors are
 * located in the text (FILE:LINE:COL).  ir_file_open opens path ("-":
 * standard input) and reads the head into a new module; ir_file_next reads
 * the next function into it, with its body in an arena of its own, and
 * returns its index (-1 at the end); ir_file_drop frees that body and
 * keeps what calls to the function need; r->src is the function's text,
 * for located errors.  ir_file_close frees the module too. */
typedef struct IrPiece {
	long off;  /* where its text starts */
	int line0; /* its first line */
	int fn;    /* the function it defines, or -1 (no name) */
} IrPiece;
typedef struct IrFile {
	Module *m;
	Lines in;
	int whole;      /* bodies stay in the module's arena (ir_read) */
	IrPiece *piece; /* the functions' texts, then the end of the text */
	int npiece, next;
	uint8_t *called; /* per function: does a body name it? */
	Buf name_buf;
	Src src;    /* the piece at hand */
	Arena keep; /* the module's arena while a body is read */
	int reading;
} IrFile;
Module *ir_file_open(IrFile *r, const char *path);
int ir_file_next(IrFile *r);
void ir_file_drop(IrFile *r, int fi);
void ir_file_close(IrFile *r);
/* A whole text into a new module, every body kept; ir_read_into fills a
 * module the caller made, so that a caller recovering from errors
 * (ks_recover) can still free it. */
Module *ir_read(const Src *s);
void ir_read_into(Module *m, const Src *s);
/* The pieces: the head (version, source and structs), and one function's
 * text (Src.line0 its first line) into m->fn[index], which the first pass
 * made under its name (-1: the text names none, an error). */
void ir_read_head(Module *m, const Src *s);
void ir_read_func(Module *m, const Src *s, int index);

/* Verify types, scoping and control flow.  Errors are reported at the IR
 * text position (use_src = 0) or, with the source as src, at the kernel
 * source position (use_src = 1, for the front end). */
void ir_verify(const Module *m, const Src *src, int use_src);
/* Verify function fi alone (the functions it calls are above it); a name
 * defined twice is the reader's to find. */
void ir_verify_func(const Module *m, const Src *src, int use_src, int fi);

/* Is parameter i of f an array passed as a view (ks_array_<elem>: its
 * data and its shape) rather than a pointer to its elements: one of 2 to 4
 * dimensions, or a 1-D one whose shape f reads (a.shape[0], len(a)) or
 * passes on to a function that reads it.  Worked out from the body once
 * and kept with the parameter (so in a signature ir_keep_signature
 * keeps); m may be NULL when that is done (ir_mark_views). */
int ir_param_view(const Module *m, const Func *f, int i);
/* Work it out for every parameter of every function of m. */
void ir_mark_views(const Module *m);

/* The type of a backward kernel's adjoint parameter for a float-valued
 * parameter of type t: an array's own type (the seed and gradient of each
 * element), else a 1-element array of t (the gradient summed over the
 * threads). */
Type ir_adjoint_type(Type t);

/* A kernel's launch rank: the most indices a wp.tid() in it gives (i, j
 * = wp.tid(): 2), and 1 where there is none. */
int ir_kernel_rank(const Func *f);
/* Does f work on tiles (a value of a tile type)?  Its launch is then
 * tiled: the threads of a block compute its tiles together. */
int ir_func_tiled(const Func *f);
/* Give f's tiles of the block's extent (wp.tile(x)) block elements there
 * (ty_at_block), as the emitters do for the block they write code for:
 * f's value types as they were (malloc'd), for ir_func_types_back, or
 * NULL where f has no such tile.  A tile that would be over KS_MAX_TILE
 * elements is fatal, naming the kernel. */
Type *ir_func_at_block(Func *f, int block);
void ir_func_types_back(Func *f, Type *kept);
/* Is in, an instruction of f, a mapped call (wp.tile_map of a wp.func):
 * a call with tile operands, its callee applied to their elements? */
int ir_call_mapped(const Func *f, const Inst *in);
/* Does f open the tape (tape_open at its top: a backward kernel whose
 * loops keep values for their reverse)? */
int ir_opens_tape(const Func *f);

/* Which parameters of kernel f (arrays, and structs holding arrays) may
 * end up depending on the order its threads run in: one that takes a
 * value an atomic returned, or atomic_exch's or atomic_cas's store
 * (ir/order.c).  dep[i] for each parameter; returns how many. */
int ir_order_dependent(const Module *m, const Func *f, uint8_t *dep);

/* Structural hash of one function: independent of value names, temp
 * numbering and locations. */
uint64_t ir_hash_func(const Module *m, const Func *f);

#endif
