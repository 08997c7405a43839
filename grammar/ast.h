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
	N_EXPR,     /* kid[0] as a statement */
	N_ASSIGN,   /* kid[0] = kid[1]  (target: NAME, INDEX, ATTR, TUPLE) */
	N_ANNASSIGN,/* kid[0]: kid[1] = kid[2]   (kid[2] may be NULL) */
	N_AUGASSIGN,/* kid[0] op= kid[1]; op is a BinOp */
	N_IF,       /* if kid[0]: kid[1] else kid[2]; kid[2] is NULL, a
	               N_BLOCK, or (elif) a N_BLOCK holding one N_IF */
	N_FOR,      /* for kid[0] in kid[1]: kid[2] */
	N_WHILE,    /* while kid[0]: kid[1] */
	N_BREAK,
	N_CONTINUE,
	N_RETURN,   /* kid[0] or NULL; several values are an N_TUPLE */
	N_PASS,
	N_BLOCK,    /* the statements of a suite */

	/* top level */
	N_IMPORT,   /* import name [as kid-less alias in str2] */
	N_FROMIMPORT, /* from name import ... (always rejected by sema) */
	N_PARAM,    /* name, kid[0] annotation or NULL, kid[1] the default
	               value (absent when there is none) */
	N_DEF,      /* name; kid[0] decorators (N_BLOCK of expressions),
	               kid[1] params (N_BLOCK of N_PARAM),
	               kid[2] return annotation or NULL, kid[3] body */
	N_CLASS,    /* name; kid[0] decorators (N_BLOCK of expressions),
	               kid[1] body (N_BLOCK) */
	N_MODULE,   /* top-level statements */
	N_COUNT
};

enum BinOp { B_ADD, B_SUB, B_MUL, B_DIV, B_FLOORDIV, B_MOD, B_POW, B_MATMUL,
	     B_BITAND, B_BITOR, B_BITXOR, B_SHL, B_SHR };
enum CmpOp { C_LT, C_LE, C_GT, C_GE, C_EQ, C_NE, C_IS, C_ISNOT, C_IN, C_NOTIN };

typedef struct Node Node;
struct Node {
	uint8_t kind;
	uint8_t op;
	uint8_t paren;     /* expression was written in parentheses */
	int line, col;     /* 1-based position of the node's first token */
	const char *name;  /* N_NAME, N_ATTR, N_KWARG, N_PARAM, N_DEF, N_IMPORT */
	const char *str2;  /* N_IMPORT: the 'as' alias or NULL */
	int64_t ival;
	double fval;
	int nkid, capkid;
	Node **kid;
};

/* What the parser hands to sema. */
typedef struct Parse {
	const Src *src;
	Arena *arena;
	Node *module;
} Parse;

/* Lex and parse s into p->module (allocated in arena).  Errors are
 * reported through ks_error_at (and so exit or longjmp). */
void ks_parse(Parse *p, const Src *s, Arena *arena);
/* The same for a piece of a file whose first line is line line0. */
void ks_parse_at(Parse *p, const Src *s, Arena *arena, int line0);

/* Type-check and lower a parsed module to IR (sema_module.c), then verify it. */
struct Module;
struct Module *ks_lower(const Parse *p);

/* The whole front end: parse and lower. */
struct Module *ks_frontend(const Src *s, Arena *scratch);

/* The front end for a file read piece by piece (pieces.c): when every
 * call names a function defined above the caller, each definition is
 * parsed, lowered, verified and printed to outpath as it is read, and
 * only its signature is kept.  Returns 1 when done (output committed).
 * Returns 0, with nothing written, when the file cannot be read so or an
 * error came up: *whole then holds the whole text for ks_frontend, which
 * reports the error as it always has. */
int ks_frontend_stream(const char *path, const char *outpath, Src *whole);

/* A kernel source read one top-level definition at a time (pieces.c). */
typedef struct Pieces {
	FILE *f;             /* the input, or a copy that can be read again */
	const char *name;
	char *buf;           /* the piece */
	size_t len, cap;
	char *line;          /* the line read last */
	size_t linecap;
	long held;           /* its length, when it opens the next piece */
	int next_line;       /* the line number of the next line kept */
	int npiece, done;
	size_t total;
	int depth, str, triple, cont, prev_at; /* the scanner's state */
} Pieces;

/* Open path ("-": stdin); errors as src_read's. */
void pieces_open(Pieces *pc, const char *path);
/* The next piece, as a Src valid until the next call, and its first line
 * in *line0: 1, or 0 at the end, or -1 where the file must be read whole. */
int pieces_next(Pieces *pc, Src *piece, int *line0);
/* The whole text, named as src_read names it. */
void pieces_whole(Pieces *pc, Src *whole);
void pieces_close(Pieces *pc);

/* AST helpers (ast.c) */
Node *ast_new(Arena *a, int kind, int line, int col);
void ast_add(Arena *a, Node *parent, Node *kid);
const char *ast_kind_name(int kind);
/* Print the tree, one node per line, indented by depth (tests, -d). */
void ast_dump(FILE *f, const Node *n);

#endif
