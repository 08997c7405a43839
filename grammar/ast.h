/*
 * ast.h: the syntax tree the parser builds and the checker (sema.h) lowers
 * to IR.  It is a plain Python-shaped tree: the parser checks syntax and
 * rejects what the subset never allows (strings, lists, lambdas, classes,
 * ...); names, types and Warp's rules are sema's business.
 *
 * Every node lives in the parse's arena.  Children are in kid[0..nkid).
 */
#ifndef KS_AST_H
#define KS_AST_H

#include <stdint.h>

#include "../lib/ks.h"

enum NodeKind {
	/* expressions */
	N_INT,     /* ival (>= 0; a leading '-' is N_UNARY) */
	N_FLOAT,   /* fval (the literal as a double, >= 0) */
	N_BOOL,    /* ival 0 or 1: False, True */
	N_NAME,    /* name */
	N_ATTR,    /* kid[0].name: e.g. wp.sin, v.x */
	N_CALL,    /* kid[0] callee, kid[1..] arguments (N_KWARG for k=v) */
	N_KWARG,   /* name=kid[0] */
	N_INDEX,   /* kid[0][kid[1], ...] */
	N_UNARY,   /* op ('-', '+' or '~'), kid[0] */
	N_NOT,     /* not kid[0] */
	N_BINARY,  /* kid[0] op kid[1]; op is a BinOp */
	N_COMPARE, /* kid[0] op kid[1]; op is a CmpOp */
	N_AND,     /* kid[0] and kid[1] */
	N_OR,      /* kid[0] or kid[1] */
	N_IFEXP,   /* kid[0] if kid[1] else kid[2] */
	N_TUPLE,   /* kid[0], kid[1], ... (unparenthesized or parenthesized) */
	N_STRING,  /* a string literal: only legal as a docstring statement */

	/* statements */
	N_EXPR,      /* kid[0] as a statement */
	N_ASSIGN,    /* kid[0] = kid[1]  (target: NAME, INDEX, ATTR, TUPLE) */
	N_ANNASSIGN, /* kid[0]: kid[1] = kid[2]   (kid[2] may be NULL) */
	N_AUGASSIGN, /* kid[0] op= kid[1]; op is a BinOp */
	N_IF,        /* if kid[0]: kid[1] else kid[2]; kid[2] is NULL, a
	                N_BLOCK, or (elif) a N_BLOCK holding one N_IF */
	N_FOR,       /* for kid[0] in kid[1]: kid[2] */
	N_WHILE,     /* while kid[0]: kid[1] */
	N_BREAK,
	N_CONTINUE,
	N_RETURN, /* kid[0] or NULL; several values are an N_TUPLE */
	N_PASS,
	N_ASSERT, /* assert kid[0], kid[1]: the message, or NULL */
	N_BLOCK,  /* the statements of a suite */

	/* top level */
	N_IMPORT,     /* import name [as kid-less alias in str2] */
	N_FROMIMPORT, /* from name import a, b as c: an N_NAME per name */
	N_DICT,       /* {k: v, ...} (in a decorator): keys and values in turn */
	N_LIST,       /* [a, b, ...] (at the module level) */
	N_ELLIPSIS,   /* ... */
	N_PARAM,      /* name, kid[0] annotation or NULL, kid[1] the default
	                 value (absent when there is none) */
	N_DEF,        /* name; kid[0] decorators (N_BLOCK of expressions),
	                 kid[1] params (N_BLOCK of N_PARAM),
	                 kid[2] return annotation or NULL, kid[3] body */
	N_CLASS,      /* name; kid[0] decorators (N_BLOCK of expressions),
	                 kid[1] body (N_BLOCK) */
	N_MODULE,     /* top-level statements */
	N_COUNT
};

enum BinOp {
	B_ADD,
	B_SUB,
	B_MUL,
	B_DIV,
	B_FLOORDIV,
	B_MOD,
	B_POW,
	B_MATMUL,
	B_BITAND,
	B_BITOR,
	B_BITXOR,
	B_SHL,
	B_SHR
};
enum CmpOp { C_LT, C_LE, C_GT, C_GE, C_EQ, C_NE, C_IS, C_ISNOT, C_IN, C_NOTIN };

typedef struct Node Node;
struct Node {
	uint8_t kind;
	uint8_t op;
	uint8_t paren;    /* expression was written in parentheses */
	int line, col;    /* 1-based position of the node's first token */
	const char *name; /* N_NAME, N_ATTR, N_KWARG, N_PARAM, N_DEF, N_IMPORT */
	const char *str2; /* N_IMPORT: the 'as' alias or NULL */
	int64_t ival;
	double fval;
	int nkid, capkid;
	Node **kid;
};

/* What the parser hands to sema. */
typedef struct Parse {
	int displays; /* set by the caller: a piece of the module level, where
	               * list and dict displays are read (wp.overload) */
	const Src *src;
	Arena *arena;
	Node *module;
} Parse;

/* Lex and parse s, a file or a piece of one whose first line is
 * s->line0, into p->module (allocated in arena).  Errors are reported
 * through ks_error_at (and so exit or longjmp). */
void ks_parse(Parse *p, const Src *s, Arena *arena);

/* The front end (sema_module.c), one path for a file and for a text in
 * memory: a first pass over the pieces of pieces.c reads the module level
 * (imports, constants, structs) and notes each def, its calls and where
 * it is; then the defs are parsed again, lowered, verified and handed on
 * one at a time, callees first.  Host Python around the kernels is
 * skipped.  ks_frontend_file writes the IR of the file at path ("-":
 * standard input) to outpath, each def's body freed once printed; with
 * keep_going, a def that does not compile is reported and left out, and
 * it returns how many were.  ks_frontend returns the module of a text in
 * memory: with kernel, of that kernel and the funcs it calls alone (the
 * other kernels read, and left out where they do not compile). */
struct Module;
int ks_frontend_file(const char *path, const char *outpath, int keep_going, const char *const *dirs, int ndirs);
struct Module *ks_frontend(const Src *s, const char *kernel);

/* A Warp module in pieces (pieces.c): a piece is a top-level statement
 * (a def or class with its decorators, an import, an assignment, an if
 * with its else...), so that parsing the pieces one by one gives the
 * statements of the whole file, each at its own line.  pieces_scan is the
 * first pass over in: v[i] is where piece i starts, v[n] the end. */
typedef struct Piece {
	long off;
	int line0;
	int displays; /* not the kernel language: parsed with list and dict
	               * displays (Parse.displays; the first pass sets it) */
} Piece;
typedef struct Pieces {
	Piece *v;
	int n, cap;
	int rest; /* the piece that holds the rest of the file where the
		     scanner stopped following it, or -1 */
} Pieces;
void pieces_scan(Pieces *pc, Lines *in); /* pc->v malloc'd */

/* AST helpers (ast.c) */
Node *ast_new(Arena *a, int kind, int line, int col);
void ast_add(Arena *a, Node *parent, Node *kid);
Node *ast_copy(Arena *a, const Node *n);
const char *ast_kind_name(int kind);
/* Print the tree, one node per line, indented by depth (tests, -d). */
void ast_dump(FILE *f, const Node *n);

#endif
