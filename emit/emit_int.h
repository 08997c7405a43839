/*
 * emit_int.h: the emitter's internals, shared by its files; emit.h is the
 * interface the tools and krun call.  emit.c drives a module, one function
 * at a time; func.c runs a function's passes, in order those of live.c
 * (instruction ids and effects, then dead code), fold.c (temps folded
 * into expressions), names.c (C names) and decl.c (where variables are
 * declared), and prints its signature, its entry and its tape's helpers;
 * stmt.c prints statements and control flow (and the coverage sites),
 * expr.c expressions; type.c spells types in C.
 *
 * The state is one Emitter per module: the module's names and each
 * function's effects, and for the function at hand a VInfo per value and
 * an IInfo per instruction, instructions numbered in tree order
 * (number_insts, inst_id).
 */
#ifndef KS_EMIT_INT_H
#define KS_EMIT_INT_H

#include "emit/emit.h"
#include "ir/calls.h"
#include "ir/walk.h"

/* per value */
typedef struct VInfo {
	const char *name; /* C name: params, variables, named temps */
	int uses;         /* reads by live instructions */
	int def;          /* temps: defining instruction id, or -1 */
	/* variables: where to declare */
	int nfirst; /* length of the first occurrence's path, 0: none yet */
	const Block **fb;
	int *fi;
	int anchor; /* depth of the declaring block in that path */
	int in_for; /* every occurrence lies inside the first one's statement */
} VInfo;

/* per instruction */
typedef struct IInfo {
	const Inst *in;
	const Block *b;
	int idx; /* index in b */
	int sib; /* the id of the next instruction of b, or -1 */
	int fx;  /* its memory effects (inst_fx) */
	int dead;
	int sync;       /* CUDA: a barrier comes first (tile.c) */
	int sync_after; /* CUDA: a barrier follows it */
	int root;       /* folded into this instruction id, or -1 */
	unsigned mark;  /* fold_block: in the trees at hand when == Emitter.gen */
} IInfo;

/* A set of names (malloc'd strings it owns), hashed so that taking a name
 * costs the same whatever the number of names already taken. */
typedef struct NameSet {
	const char **slot;
	int n, cap;
	Arena text; /* the names' bytes */
} NameSet;

/* The checkpoint of a loop of the tape: word offsets of its slots. */
typedef struct TapeLayout {
	int nslot, width;
	int *off;
} TapeLayout;

/* A variable declared before statement idx of block b (decl.c), not at
 * its first assignment; line: the source line of its first occurrence. */
typedef struct Decl {
	const Block *b;
	int idx, val, line;
} Decl;

/* Emitter.st: what is done and needed for each struct (func.c) */
enum { ST_TAPED = 1, ST_GATHERED = 2, ST_TAPES = 4, ST_ADDS = 8 };

typedef struct Emitter {
	FILE *out;
	const Module *m;
	int target; /* EMIT_CPU or EMIT_CUDA (the checked mode: emit_checked) */
	/* per struct of the module (m->st): ST_TAPED, its tape functions
	 * written; ST_GATHERED, its ks_atomic_add_S; ST_TAPES and ST_ADDS, the
	 * function being emitted needs them */
	uint8_t *st;
	int *marked; /* the structs the function at hand marked */
	int nmarked, capmarked;
	const char **fname; /* C names of the module's functions (fn_name) */
	int named;          /* name_globals has named the functions below it */
	Buf scratch;        /* fn_name's */
	Buf spelling;       /* make_name's */
	const char **ebase; /* kernels: the base of their entries' names */
	IrEffects fx;       /* each function's effects (ir/calls.h), noted as it comes */
	uint8_t *called;    /* is the function called anywhere in the module? */
	/* the words of reserved[] and reserved_global[] */
	NameSet reserved, reserved_global;
	/* global names */
	NameSet gnames;
	NameSet bases; /* the bases of the entries' names taken */
	/* the function being emitted */
	const Func *f;
	int fi;
	VInfo *v;
	IInfo *ii;
	int ninst, capinst;
	unsigned gen;      /* fold_block's current IInfo.mark */
	int *tree, ntree;  /* fold_block: the nodes of the trees at hand */
	const Inst **hkey; /* Inst* -> id */
	int *hval;
	int hcap;
	NameSet lnames; /* local names taken */
	Decl *decl;
	int ndecl, capdecl;
	const char **retname; /* out parameters of a multi-result func */
	int rank;             /* a kernel's launch dimensions (ir_kernel_rank) */
	FILE *spool;          /* the entries, until the end */
	/* a backward kernel's tape: its local, per value the loop ID of a
	 * handle (-1: none), per loop ID its checkpoint's layout */
	const char *tapename;
	const char *threadname; /* a backward with a tape in an N-D launch: its row-major index */
	int *hid;
	TapeLayout *tl;
	int ntl;
	/* per backward kernel: which parameters its thread function leaves
	 * out (nothing there reads them; the entry still takes them) */
	uint8_t **unread;
	const char *tname[32]; /* tile.c's loop names, taken as first needed */
	int tiled;             /* the function at hand works on tiles */
} Emitter;

/* C's precedence levels, as put_expr's minprec asks and put_inst answers
 * (0: a mov, whatever its operand's) */
enum {
	P_COND = 3,
	P_OR = 4,
	P_AND = 5,
	P_BITOR = 6,
	P_BITXOR = 7,
	P_BITAND = 8,
	P_EQ = 9,
	P_REL = 10,
	P_SHIFT = 11,
	P_ADD = 12,
	P_MUL = 13,
	P_UNARY = 15,
	P_POSTFIX = 16,
};

static inline Type vty(const Emitter *e, int val) { return e->f->val[val].ty; }

/* A temp that stays a temp, named (names.c) where it is printed. */
static inline int is_named_temp(const Emitter *e, int val) { return e->f->val[val].kind == VK_TEMP; }

/* A loop handle of the tape is a ks_trips (ksynth.h), whatever its IR type. */
static inline int is_handle(const Emitter *e, int val)
{
	return e->hid && val >= 0 && val < e->f->nval && e->hid[val] >= 0;
}

/* ---- live.c: instruction ids, effects, dead code (pass 1) ---- */

int inst_fx(const Emitter *e, const Inst *in);
int inst_id(const Emitter *e, const Inst *in);
int multi_results(const Emitter *e, const Inst *in, Type *rt);
void number_insts(Emitter *e, const Func *f);
void drop_dead_code(Emitter *e, const Func *f);

/* ---- fold.c: temps folded into expressions (pass 2) ---- */

int assigns_in(const Block *b, int val);
void fold_temps(Emitter *e, const Func *f);

/* ---- names.c: C names (pass 3), the entries' names ---- */

void clear_names(NameSet *ns);
void free_names(NameSet *ns);
const char *make_name(Emitter *e, const char *s, int global);
/* The C name of function fi (a kernel's per-thread function made here
 * when it is NAME_thread; valid until the next call). */
const char *fn_name(Emitter *e, int fi);
void name_globals(Emitter *e);
void name_params(Emitter *e);
void name_locals(Emitter *e, const Func *f);

/* ---- decl.c: where variables are declared (pass 4) ---- */

int is_draw(const Inst *in);
const Inst *first_occ(const Emitter *e, int val);
int decl_inline(const Emitter *e, int val);
void place_decls(Emitter *e, const Func *f);

/* ---- type.c: types as C spells them ---- */

extern int emit_checked;
const char *scalar_ctype(Type t);
int param_view(const Module *m, const Func *f, int i);
int val_view(const Emitter *e, int val);
const char *ctype(Type t);
const char *local_ctype(Type t);
void put_decl(Buf *b, Type t, const char *name);
void param_ctype(Buf *b, const Module *m, const Func *f, int i);
const char *zero_of(const Emitter *e, Type t);

/* ---- tile.c: tiles ---- */

/* Is in an operation on tiles, a statement emit_tile prints? */
int tile_stmt(const Emitter *e, const Inst *in);
/* CUDA: mark (IInfo.sync) the instructions a barrier must come before. */

void tile_barriers(Emitter *e, const Func *f);
void tile_sync(Emitter *e, const Inst *in, int depth);
/* "__shared__ float a[8 * 8];" */
void tile_decl(Emitter *e, Buf *b, int val);
/* The row-major index of tile t's element at the operands idx, "i * 4 + j" */
void tile_flat(Emitter *e, Buf *b, Type t, const int32_t *idx);
void emit_tile(Emitter *e, const Inst *in, int depth);

/* ---- expr.c: expressions ---- */

/* The C function of builtin row for arguments of these types: the C
 * library's (sinf) or the runtime's (ks_min_float), in buf if need be. */
const char *builtin_fn(int row, const Type *args, char *buf, size_t cap);

void put_expr(Emitter *e, Buf *b, int val, int minprec);
int put_inst(Emitter *e, Buf *b, const Inst *in);
void put_elem(Emitter *e, Buf *b, const Inst *in);
void put_printf(Emitter *e, Buf *b, const Inst *in);

/* ---- stmt.c: statements, control flow, coverage ---- */

extern int emit_cover;
void emit_block(Emitter *e, const Block *b, int depth, int skip);

/* ---- func.c: functions, entries, the tape's layout ---- */

void emit_func(Emitter *e, int fi);
void emit_entry(Emitter *e, int fi);
void release(Emitter *e);

/* Text in a comment: control bytes and bytes past ASCII as '?', and no
 * end of a block comment. */
void put_comment_text(FILE *out, const char *s);

#endif
