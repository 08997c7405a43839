/*
 * lex.h: the interface between the re2c lexer (lexer.re) and the lemon
 * parser (parser.y); private to grammar/.
 *
 * The lexer turns the source into Python's token stream: NEWLINE ends a
 * logical line, INDENT and DEDENT bracket a block, and nothing of the line
 * structure is visible inside brackets.  Token codes are the TK_ numbers
 * lemon assigns (parser.h); 0 is the end of input.  A token keeps a pointer
 * into the source text, so it costs nothing to copy; numbers carry their
 * converted value.  Errors go through ks_error_at and never return.
 */
#ifndef KS_LEX_H
#define KS_LEX_H

#include <stdint.h>

#include "ast.h"

/* Limits that keep every later recursive walk shallow. */
enum {
	KS_MAX_BRACKETS = 200, /* nesting of ( and [ */
	KS_MAX_INDENT = 100,   /* indentation levels, as CPython */
	KS_MAX_EXPR_DEPTH = 500,
	KS_MAX_STMT_DEPTH = 1000, /* nested blocks, each 'elif' counting one */
};

typedef struct Tok {
	const char *p; /* the token's text in the source */
	int len;
	int line, col; /* 1-based; col counts bytes */
	union {
		int64_t i; /* INT */
		double f;  /* FLOAT */
	} v;
} Tok;

typedef struct Lexer {
	const Src *src;
	Arena *arena;                   /* for the rare long float literal with underscores */
	const unsigned char *cur, *lim; /* lim points at the final NUL */
	const unsigned char *tok;       /* start of the token being scanned */
	const unsigned char *bol;       /* start of the current physical line */
	int line;
	int atbol;       /* at the start of a logical line: measure its indent */
	int midline;     /* the current logical line has produced a token */
	int pending;     /* DEDENTs still owed */
	int dline, dcol; /* where those DEDENTs are reported */
	int prev;        /* code of the last token returned */
	int decorator;   /* the logical line is a decorator (opens with '@'):
	                  * its options may hold a dict */
	int displays;    /* list and dict displays are read (Parse.displays) */
	int nindent;     /* indent[0] is always column 0 */
	int64_t indent[KS_MAX_INDENT + 1], altindent[KS_MAX_INDENT + 1];
	int nbrack;
	struct {
		char c;
		int line, col;
	} brack[KS_MAX_BRACKETS];
} Lexer;

void lex_init(Lexer *L, const Src *s, Arena *arena);
/* The next token's code (0 at the end, repeatedly), its text and place in
 * *t. */
int lex_next(Lexer *L, Tok *t);

#endif
