/*
 * parser.y: the grammar of the kernel language, a subset of Python.
 *
 * This file is lemon input; lemon generates $(O)/gen/parser.c and parser.h
 * from it, and the generated C is never edited.  The statement rules follow
 * CPython's grammar (Grammar/python.gram), and each group names the Python
 * rule it parses.  Python's dozen expression levels are one nonterminal
 * ordered by precedence declarations (fewer reductions per operand), with
 * checks for the few things precedence would accept and Python does not.
 * Actions build the ast.h tree in the parse's arena, nodes placed as
 * Python's ast places them.
 *
 * Three things keep the tree safe for the recursive walkers after us:
 *   - every expression nonterminal carries its depth (Ex.d), and a tree
 *     deeper than KS_MAX_EXPR_DEPTH is an error; left-deep chains such as
 *     1+1+...+1 are built without growing the parser stack, so only this
 *     check stops them;
 *   - statement nonterminals carry their nesting the same way (an 'elif'
 *     nests an N_IF one level deeper), bounded by KS_MAX_STMT_DEPTH;
 *   - the parser stack has a fixed size; right-recursive chains such as
 *     -----x or 'not not ... x' overflow it and report an error.  Code
 *     within the limits above (and 200 brackets, 100 indents) needs at
 *     most about 3500 of its 5000 entries.
 *
 * What Python has but the subset never allows is rejected here, or in the
 * lexer when a token alone says it (lambda, class, '{', ':=', ...), with a
 * message naming the feature.  Some rules exist only to do that: they end
 * in the offending token, so lemon reduces them, and reports, as soon as
 * that token is shifted.  Names, types and Warp's rules are sema's job.
 *
 * ks_parse, at the end, drives the lexer and the parser and detects what is
 * easier to see in the token stream than in a parser state: a missing
 * indented block, a missing ':'.
 */

%include {
/* lemon's template asserts its own table invariants and has tracing
 * hooks; both cost time on every token and neither checks our input. */
#ifndef NDEBUG
#define NDEBUG 1
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lex.h"

/* The parse's state, lemon's %extra_context. */
typedef struct PState {
	const Src *src;
	Arena *arena;
	Lexer *lex;
	Node *module;
	Tok cur;        /* the token being parsed */
	int prev;       /* the code of the one before */
	int kw, kwline; /* first token of the current logical line */
	int colon;      /* that line has had a ':' outside brackets */
} PState;

/* A node and its depth: expression levels for expressions, block levels
 * for statements and blocks.  line:col is where the construct starts:
 * the node's own place, or the '(' before a parenthesized expression
 * (nodes are placed as in Python's ast: a + b at a, (a + b) * c at '('). */
typedef struct Ex {
	Node *n;
	int d;
	int line, col;
} Ex;

/* An if/elif chain under construction: the outer N_IF, the innermost one
 * (whose else-branch an 'elif' or 'else' fills) and the elif count. */
typedef struct Chain {
	Node *head, *last;
	int d, k;
} Chain;

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static Node *mk(PState *ps, int kind, int line, int col)
{
	return ast_new(ps->arena, kind, line, col);
}

static Ex mkex(Node *n, int d)
{
	return (Ex){n, d, n ? n->line : 0, n ? n->col : 0};
}

static const char *text(PState *ps, Tok t)
{
	return arena_strndup(ps->arena, t.p, (size_t)t.len);
}

/* An expression node of depth d; too deep is an error at token at. */
static Ex ex(PState *ps, Node *n, int d, Tok at)
{
	if (d > KS_MAX_EXPR_DEPTH)
		ks_error_at(ps->src, at.line, at.col,
			    "expression too complex (nested more than %d levels)",
			    KS_MAX_EXPR_DEPTH);
	return mkex(n, d);
}

/* Reject, as operand of an operator of kind, what Python's grammar only
 * allows there in parentheses: 'not x' below a comparison or arithmetic,
 * a conditional expression as the condition of another. */
static void operand(PState *ps, Ex a, int kind)
{
	if (a.n->paren)
		return;
	if (a.n->kind == N_NOT && kind != N_AND && kind != N_OR &&
	    kind != N_NOT && kind != N_IFEXP)
		ks_error_at(ps->src, a.line, a.col,
			    "invalid syntax: 'not' needs parentheses here");
	if (a.n->kind == N_IFEXP && kind == N_IFEXP)
		ks_error_at(ps->src, a.line, a.col,
			    "invalid syntax: a conditional expression as a "
			    "condition needs parentheses");
}

/* op a: N_UNARY or N_NOT at the operator. */
static Ex unary(PState *ps, int kind, int op, Tok at, Ex a)
{
	operand(ps, a, kind);
	Node *n = mk(ps, kind, at.line, at.col);
	n->op = (uint8_t)op;
	ast_add(ps->arena, n, a.n);
	return ex(ps, n, a.d + 1, at);
}

/* a op b: N_BINARY, N_COMPARE, N_AND, N_OR at the left operand. */
static Ex binary(PState *ps, int kind, int op, Ex a, Tok at, Ex b)
{
	operand(ps, b, kind);
	Node *n = mk(ps, kind, a.line, a.col);
	n->op = (uint8_t)op;
	ast_add(ps->arena, n, a.n);
	ast_add(ps->arena, n, b.n);
	return ex(ps, n, imax(a.d, b.d) + 1, at);
}

/* A leaf at token t. */
static Ex leaf(PState *ps, int kind, Tok t)
{
	return mkex(mk(ps, kind, t.line, t.col), 1);
}

/* Append b to the list a (a tuple, call, block) and update its depth. */
static void append(PState *ps, Ex *a, Ex b)
{
	ast_add(ps->arena, a->n, b.n);
	a->d = imax(a->d, b.d + 1);
}

/* Append the statements of the block b to the block a. */
static void append_all(PState *ps, Ex *a, Ex b)
{
	for (int i = 0; i < b.n->nkid; i++)
		ast_add(ps->arena, a->n, b.n->kid[i]);
	a->d = imax(a->d, b.d);
}

/* A compound statement one level above its blocks' depth d. */
static Ex stmt(PState *ps, Node *n, int d, Tok at)
{
	if (d + 1 > KS_MAX_STMT_DEPTH)
		ks_error_at(ps->src, at.line, at.col,
			    "too many nested blocks (more than %d levels, "
			    "each 'elif' counting as one)",
			    KS_MAX_STMT_DEPTH);
	return mkex(n, d + 1);
}

/* A simple statement starting where at starts, with kids a (and b). */
static Ex simple(PState *ps, int kind, Ex at, Node *a, Node *b)
{
	Node *n = mk(ps, kind, at.line, at.col);
	ast_add(ps->arena, n, a);
	if (b)
		ast_add(ps->arena, n, b);
	return mkex(n, 1);
}

static Node *empty_block(PState *ps, int line, int col)
{
	return mk(ps, N_BLOCK, line, col);
}

static void error_at(PState *ps, Tok t, const char *msg)
{
	ks_error_at(ps->src, t.line, t.col, "%s", msg);
}

static const char *what(const Node *n)
{
	switch (n->kind) {
	case N_CALL: return "function call";
	case N_INT: case N_FLOAT: case N_BOOL: case N_STRING: return "literal";
	case N_COMPARE: return "comparison";
	case N_IFEXP: return "conditional expression";
	case N_TUPLE: return "tuple";
	case N_KWARG: return "keyword argument";
	default: return "expression";
	}
}

/* Check an assignment target: NAME, a[i], v.x or (plain assignment only)
 * a tuple of those.  Tuples nest at most KS_MAX_EXPR_DEPTH deep, so the
 * recursion is bounded. */
enum { T_ASSIGN, T_ANNOTATED, T_AUGMENTED };
static void check_target(PState *ps, const Node *t, int ctx)
{
	switch (t->kind) {
	case N_NAME: case N_INDEX: case N_ATTR:
		return;
	case N_TUPLE:
		if (ctx == T_ASSIGN) {
			for (int i = 0; i < t->nkid; i++)
				check_target(ps, t->kid[i], ctx);
			return;
		}
		ks_error_at(ps->src, t->line, t->col, "%s",
			    ctx == T_AUGMENTED
				    ? "a tuple cannot be the target of an "
				      "augmented assignment"
				    : "only a single target (not a tuple) can "
				      "be annotated");
	default:
		ks_error_at(ps->src, t->line, t->col, "cannot assign to %s",
			    what(t));
	}
}

/* The name a dotted span (a.b.c, possibly with blanks or backslash
 * continuations between the parts) stands for. */
static const char *dotted_name(PState *ps, Tok t)
{
	char *s = arena_alloc(ps->arena, (size_t)t.len + 1), *o = s;
	for (int i = 0; i < t.len; i++) {
		char c = t.p[i];
		if (c == '.' || c == '_' || (c >= '0' && c <= '9') ||
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			*o++ = c;
	}
	*o = 0;
	return s;
}

/* The span from a's start to b's end. */
static Tok span(Tok a, Tok b)
{
	a.len = (int)(b.p + b.len - a.p);
	return a;
}

static void syntax_error(PState *ps, void *parser, int major,
			 const Tok *t);
}

%name ksPy
%token_prefix TK_
%token_type {Tok}
%default_type {Ex}
%extra_context {PState *ps}
%start_symbol module
/* See the head comment.  Valid code needs at most about 3500 entries: an
 * a-if-b-else chain costs 5 per level up to the 500-level depth limit, a
 * bracket about 3 more, an indentation level (100 at most) about 5. */
%stack_size 5000

/* Nothing to free (the tree is in the arena); this only tells the compiler
 * that lemon's destructor hook uses the context. */
%default_destructor { (void)ps; }

%syntax_error {
	syntax_error(ps, yypParser, yymajor, &TOKEN);
}
%stack_overflow {
	ks_error_at(ps->src, ps->cur.line, ps->cur.col,
		    "expression nested too deeply");
}

/* The tokens, in the order they get their codes. */
%token NEWLINE INDENT DEDENT NAME INT FLOAT STRING TRUE FALSE ELLIPSIS.
%token AND OR NOT IN IS IF ELIF ELSE FOR WHILE DEF RETURN PASS BREAK CONTINUE
       IMPORT FROM AS ASSERT.
%token LPAREN RPAREN LBRACKET RBRACKET LIST LBRACE RBRACE COMMA COLON DOT SEMI ARROW.
%token EQ PLUSEQ MINUSEQ STAREQ SLASHEQ DSLASHEQ PERCENTEQ POWEQ ATEQ ANDEQ
       OREQ XOREQ SHLEQ SHREQ.
%token LT GT LE GE EQEQ NE.
%token CLASS.

/* Operator precedence of Python's expression levels, lowest first.
 * UNARY is the precedence of unary - + ~: above * but below **, so -x**2
 * is -(x**2) and 2**-1 is 2**(-1). */
%right IF ELSE.
%left OR.
%left AND.
%right NOT.
%left LT GT LE GE EQEQ NE IN IS.
%left BITOR.
%left BITXOR.
%left BITAND.
%left SHL SHR.
%left PLUS MINUS.
%left STAR SLASH DSLASH PERCENT AT.
%right UNARY TILDE.
%right POW.

%type augop {int}
%type compop {Tok}
%type dotted {Tok}
%type strings {Tok}
%type from_mod {Tok}
%type from_dots {Tok}
%type if_chain {Chain}

/* ================================================================ */
/* Statements                                                       */
/* ================================================================ */

/* file: [statements] ENDMARKER */
module ::= . {
	ps->module = mk(ps, N_MODULE, 1, 1);
}
module ::= stmts(A). {
	A.n->kind = N_MODULE;
	A.n->line = A.n->col = 1;
	ps->module = A.n;
}

/* statements: statement+
 * statement: compound_stmt | simple_stmts */
stmts(A) ::= compound_stmt(B). {
	A = mkex(mk(ps, N_BLOCK, B.line, B.col), B.d);
	ast_add(ps->arena, A.n, B.n);
}
stmts(A) ::= simple_stmts(A).
stmts(A) ::= stmts(A) compound_stmt(B). {
	ast_add(ps->arena, A.n, B.n);
	A.d = imax(A.d, B.d);
}
stmts(A) ::= stmts(A) simple_stmts(B). {
	append_all(ps, &A, B);
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
 * An N_BLOCK of the statements (an import of several modules gives
 * several). */
simple_stmts(A) ::= small_list(A) NEWLINE.
simple_stmts(A) ::= small_list(A) SEMI NEWLINE.

small_list(A) ::= small_stmt(B). {
	A = mkex(mk(ps, N_BLOCK, B.line, B.col), 1);
	ast_add(ps->arena, A.n, B.n);
}
small_list(A) ::= import_names(A).
small_list(A) ::= small_list(A) SEMI small_stmt(B). {
	ast_add(ps->arena, A.n, B.n);
}
small_list(A) ::= small_list(A) SEMI import_names(B). {
	append_all(ps, &A, B);
}

/* block: NEWLINE INDENT statements DEDENT | simple_stmts */
suite(A) ::= simple_stmts(A).
suite(A) ::= NEWLINE INDENT stmts(B) DEDENT. { A = B; }

/* ---- simple statements ------------------------------------------ */

/* star_expressions (an expression statement) */
small_stmt(A) ::= testlist(B). {
	A = simple(ps, N_EXPR, B, B.n, NULL);
}

/* assignment: (star_targets '=') star_expressions
 * Only one target: a = b = c is rejected. */
small_stmt(A) ::= testlist(B) EQ testlist(C). {
	check_target(ps, B.n, T_ASSIGN);
	A = simple(ps, N_ASSIGN, B, B.n, C.n);
}
small_stmt ::= testlist EQ testlist EQ(E). {
	error_at(ps, E, "chained assignment is not supported; "
			"assign each variable separately");
}

/* assignment: NAME ':' expression ['=' annotated_rhs] */
small_stmt(A) ::= expr(B) COLON expr(C). {
	check_target(ps, B.n, T_ANNOTATED);
	A = simple(ps, N_ANNASSIGN, B, B.n, C.n);
	ast_add(ps->arena, A.n, NULL);
}
small_stmt(A) ::= expr(B) COLON expr(C) EQ testlist(D). {
	check_target(ps, B.n, T_ANNOTATED);
	A = simple(ps, N_ANNASSIGN, B, B.n, C.n);
	ast_add(ps->arena, A.n, D.n);
}

/* assignment: single_target augassign star_expressions */
small_stmt(A) ::= testlist(B) augop(O) testlist(C). {
	check_target(ps, B.n, T_AUGMENTED);
	A = simple(ps, N_AUGASSIGN, B, B.n, C.n);
	A.n->op = (uint8_t)O;
}

/* augassign: '+=' | '-=' | ... */
augop(A) ::= PLUSEQ.    { A = B_ADD; }
augop(A) ::= MINUSEQ.   { A = B_SUB; }
augop(A) ::= STAREQ.    { A = B_MUL; }
augop(A) ::= SLASHEQ.   { A = B_DIV; }
augop(A) ::= DSLASHEQ.  { A = B_FLOORDIV; }
augop(A) ::= PERCENTEQ. { A = B_MOD; }
augop(A) ::= POWEQ.     { A = B_POW; }
augop(A) ::= ATEQ.      { A = B_MATMUL; }
augop(A) ::= ANDEQ.     { A = B_BITAND; }
augop(A) ::= OREQ.      { A = B_BITOR; }
augop(A) ::= XOREQ.     { A = B_BITXOR; }
augop(A) ::= SHLEQ.     { A = B_SHL; }
augop(A) ::= SHREQ.     { A = B_SHR; }

/* 'pass' | 'break' | 'continue' */
small_stmt(A) ::= PASS(K).     { A = leaf(ps, N_PASS, K); }
small_stmt(A) ::= BREAK(K).    { A = leaf(ps, N_BREAK, K); }
small_stmt(A) ::= CONTINUE(K). { A = leaf(ps, N_CONTINUE, K); }

/* return_stmt: 'return' [star_expressions] */
small_stmt(A) ::= RETURN(K). {
	A = leaf(ps, N_RETURN, K);
	ast_add(ps->arena, A.n, NULL);
}
small_stmt(A) ::= RETURN(K) testlist(B). {
	A = leaf(ps, N_RETURN, K);
	ast_add(ps->arena, A.n, B.n);
}

/* assert_stmt: 'assert' expression [',' expression] */
small_stmt(A) ::= ASSERT(K) expr(B). {
	A = leaf(ps, N_ASSERT, K);
	ast_add(ps->arena, A.n, B.n);
	ast_add(ps->arena, A.n, NULL);
}
small_stmt(A) ::= ASSERT(K) expr(B) COMMA expr(C). {
	A = leaf(ps, N_ASSERT, K);
	ast_add(ps->arena, A.n, B.n);
	ast_add(ps->arena, A.n, C.n);
}

/* import_name: 'import' dotted_as_names
 * One N_IMPORT per module, in an N_BLOCK that the statement list
 * flattens. */
import_names(A) ::= IMPORT(K) dotted_as(B). {
	A = mkex(mk(ps, N_BLOCK, K.line, K.col), 1);
	B.n->line = K.line;
	B.n->col = K.col;
	ast_add(ps->arena, A.n, B.n);
}
import_names(A) ::= import_names(A) COMMA dotted_as(B). {
	ast_add(ps->arena, A.n, B.n);
}

/* dotted_as_name: dotted_name ['as' NAME] */
dotted_as(A) ::= dotted(D). {
	A = leaf(ps, N_IMPORT, D);
	A.n->name = dotted_name(ps, D);
}
dotted_as(A) ::= dotted(D) AS NAME(N). {
	A = leaf(ps, N_IMPORT, D);
	A.n->name = dotted_name(ps, D);
	A.n->str2 = text(ps, N);
}

/* dotted_name: dotted_name '.' NAME | NAME */
dotted(A) ::= NAME(A).
dotted(A) ::= dotted(A) DOT NAME(N). { A = span(A, N); }

/* import_from: 'from' ('.' | '...')* dotted_name 'import' import_from_targets
 *            | 'from' ('.' | '...')+ 'import' import_from_targets
 * An N_FROMIMPORT named by the module as written (leading dots kept),
 * with an N_NAME per name imported (str2: its 'as' name), or one named
 * '*'. */
small_stmt(A) ::= FROM(K) from_mod(M) IMPORT from_targets(T). {
	A = T;
	A.n->kind = N_FROMIMPORT;
	A.n->line = K.line;
	A.n->col = K.col;
	A.n->name = dotted_name(ps, M);
}
from_mod(A) ::= dotted(A).
from_mod(A) ::= from_dots(A).
from_mod(A) ::= from_dots(A) dotted(D). { A = span(A, D); }
from_dots(A) ::= DOT(A).
from_dots(A) ::= ELLIPSIS(A).
from_dots(A) ::= from_dots(A) DOT(D). { A = span(A, D); }
from_dots(A) ::= from_dots(A) ELLIPSIS(D). { A = span(A, D); }

/* import_from_targets: '(' import_from_as_names [','] ')'
 *                    | import_from_as_names | '*' */
from_targets(A) ::= STAR(K). {
	A = leaf(ps, N_BLOCK, K);
	Ex x = leaf(ps, N_NAME, K);
	x.n->name = "*";
	append(ps, &A, x);
}
from_targets(A) ::= from_names(A).
from_targets(A) ::= LPAREN from_names(B) RPAREN. { A = B; }
from_targets(A) ::= LPAREN from_names(B) COMMA RPAREN. { A = B; }
from_names(A) ::= from_name(B). {
	A = leaf(ps, N_BLOCK, (Tok){0});
	A.n->line = B.n->line;
	A.n->col = B.n->col;
	append(ps, &A, B);
}
from_names(A) ::= from_names(A) COMMA from_name(B). { append(ps, &A, B); }
from_name(A) ::= NAME(N). {
	A = leaf(ps, N_NAME, N);
	A.n->name = text(ps, N);
}
from_name(A) ::= NAME(N) AS NAME(B). {
	A = leaf(ps, N_NAME, N);
	A.n->name = text(ps, N);
	A.n->str2 = text(ps, B);
}

/* ---- compound statements ---------------------------------------- */

/* if_stmt: 'if' named_expression ':' block (elif_stmt | [else_block])
 * elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block])
 * The chain is built left to right (no stack growth for long chains); an
 * elif becomes an N_IF alone in the else-block of the one before. */
compound_stmt(A) ::= if_chain(C). {
	A = mkex(C.head, C.d);
}
compound_stmt(A) ::= if_chain(C) ELSE(K) COLON suite(B). {
	C.last->kid[2] = B.n;
	A = stmt(ps, C.head, imax(C.d - 1, C.k + B.d), K);
}
if_chain(A) ::= IF(K) expr(C) COLON suite(B). {
	Node *n = mk(ps, N_IF, K.line, K.col);
	ast_add(ps->arena, n, C.n);
	ast_add(ps->arena, n, B.n);
	ast_add(ps->arena, n, NULL);
	Ex s = stmt(ps, n, B.d, K);
	A.head = A.last = n;
	A.d = s.d;
	A.k = 0;
}
if_chain(A) ::= if_chain(A) ELIF(K) expr(C) COLON suite(B). {
	Node *n = mk(ps, N_IF, K.line, K.col);
	ast_add(ps->arena, n, C.n);
	ast_add(ps->arena, n, B.n);
	ast_add(ps->arena, n, NULL);
	Node *blk = mk(ps, N_BLOCK, K.line, K.col);
	ast_add(ps->arena, blk, n);
	A.last->kid[2] = blk;
	A.last = n;
	A.k++;
	A.d = stmt(ps, n, imax(A.d - 1, A.k + B.d), K).d;
}

/* while_stmt: 'while' named_expression ':' block [else_block] */
compound_stmt(A) ::= WHILE(K) expr(C) COLON suite(B). {
	Node *n = mk(ps, N_WHILE, K.line, K.col);
	ast_add(ps->arena, n, C.n);
	ast_add(ps->arena, n, B.n);
	A = stmt(ps, n, B.d, K);
}
compound_stmt ::= WHILE expr COLON suite ELSE(E). {
	error_at(ps, E, "'while ... else' is not supported");
}

/* for_stmt: 'for' star_targets 'in' star_expressions ':' block
 *           [else_block]
 * The target is one name. */
compound_stmt(A) ::= FOR(K) for_target(T) IN testlist(I) COLON suite(B). {
	Node *n = mk(ps, N_FOR, K.line, K.col);
	ast_add(ps->arena, n, T.n);
	ast_add(ps->arena, n, I.n);
	ast_add(ps->arena, n, B.n);
	A = stmt(ps, n, B.d, K);
}
compound_stmt ::= FOR for_target IN testlist COLON suite ELSE(E). {
	error_at(ps, E, "'for ... else' is not supported");
}
for_target(A) ::= NAME(N). {
	A = leaf(ps, N_NAME, N);
	A.n->name = text(ps, N);
}
for_target ::= NAME COMMA(E). {
	error_at(ps, E, "a for-loop target must be a single name "
			"(tuple unpacking is not supported)");
}
for_target ::= LPAREN(E). {
	error_at(ps, E, "a for-loop target must be a single name");
}
for_target ::= NAME LBRACKET(E). {
	error_at(ps, E, "a for-loop target must be a single name");
}
for_target ::= NAME DOT(E). {
	error_at(ps, E, "a for-loop target must be a single name");
}

/* function_def: decorators function_def_raw | function_def_raw
 * decorators: ('@' named_expression NEWLINE)+ */
compound_stmt(A) ::= decorators(D) funcdef(F). {
	F.n->kid[0] = D.n;
	A = F;
}
compound_stmt(A) ::= funcdef(A).

decorators(A) ::= AT(K) expr(E) NEWLINE. {
	A = mkex(mk(ps, N_BLOCK, K.line, K.col), 0);
	ast_add(ps->arena, A.n, E.n);
}
decorators(A) ::= decorators(A) AT expr(E) NEWLINE. {
	ast_add(ps->arena, A.n, E.n);
}

/* class_def: decorators class_def_raw | class_def_raw
 * class_def_raw: 'class' NAME ['(' ')'] ':' block
 * (sema takes a @wp.struct class of annotated fields, nothing else) */
compound_stmt(A) ::= decorators(D) classdef(C). {
	C.n->kid[0] = D.n;
	A = C;
}
compound_stmt(A) ::= classdef(A).
classdef(A) ::= CLASS(K) NAME(N) COLON suite(B). {
	Node *n = mk(ps, N_CLASS, K.line, K.col);
	n->name = text(ps, N);
	ast_add(ps->arena, n, empty_block(ps, K.line, K.col));
	ast_add(ps->arena, n, B.n);
	A = stmt(ps, n, B.d, K);
}
classdef(A) ::= CLASS(K) NAME(N) LPAREN RPAREN COLON suite(B). {
	Node *n = mk(ps, N_CLASS, K.line, K.col);
	n->name = text(ps, N);
	ast_add(ps->arena, n, empty_block(ps, K.line, K.col));
	ast_add(ps->arena, n, B.n);
	A = stmt(ps, n, B.d, K);
}

/* function_def_raw: 'def' NAME '(' [params] ')' ['->' expression] ':'
 *                   block */
funcdef(A) ::= DEF(K) NAME(N) LPAREN params(P) RPAREN ret(R) COLON suite(B). {
	Node *n = mk(ps, N_DEF, K.line, K.col);
	n->name = text(ps, N);
	ast_add(ps->arena, n, empty_block(ps, K.line, K.col));
	ast_add(ps->arena, n, P.n);
	ast_add(ps->arena, n, R.n);
	ast_add(ps->arena, n, B.n);
	A = stmt(ps, n, B.d, K);
}
ret(A) ::= . { A = mkex(NULL, 0); }
ret(A) ::= ARROW expr(B). { A = B; }

/* parameters: param (',' param)* [','], with no '*', no '/' */
params(A) ::= . {
	A = mkex(empty_block(ps, ps->cur.line, ps->cur.col), 0);
}
params(A) ::= param_list(A).
params(A) ::= param_list(A) COMMA.
param_list(A) ::= param(B). {
	A = mkex(empty_block(ps, B.line, B.col), 0);
	ast_add(ps->arena, A.n, B.n);
}
param_list(A) ::= param_list(A) COMMA param(B). {
	ast_add(ps->arena, A.n, B.n);
}

/* param: NAME [':' expression ['=' expression]]; kid[1] is the default */
param(A) ::= NAME(N). {
	A = leaf(ps, N_PARAM, N);
	A.n->name = text(ps, N);
	ast_add(ps->arena, A.n, NULL);
}
param(A) ::= NAME(N) COLON expr(T). {
	A = leaf(ps, N_PARAM, N);
	A.n->name = text(ps, N);
	ast_add(ps->arena, A.n, T.n);
}
param(A) ::= NAME(N) COLON expr(T) EQ expr(D). {
	A = leaf(ps, N_PARAM, N);
	A.n->name = text(ps, N);
	ast_add(ps->arena, A.n, T.n);
	ast_add(ps->arena, A.n, D.n);
}
param ::= NAME EQ(E). {
	error_at(ps, E, "a parameter with a default value needs a type annotation: "
			"'name: T = value'");
}
param ::= STAR(E). {
	error_at(ps, E, "variadic parameters (*args, **kwargs) are not supported");
}
param ::= POW(E). {
	error_at(ps, E, "variadic parameters (*args, **kwargs) are not supported");
}
param ::= SLASH(E). {
	error_at(ps, E, "positional-only parameters ('/') are not supported");
}

/* ================================================================ */
/* Expressions                                                      */
/* ================================================================ */

/* star_expressions: expression (',' expression)* [','] | expression
 * A tuple when there is a comma; sema decides where one is allowed. */
testlist(A) ::= expr(A).
testlist(A) ::= expr(B) COMMA(K). {
	Node *n = mk(ps, N_TUPLE, B.line, B.col);
	ast_add(ps->arena, n, B.n);
	A = ex(ps, n, B.d + 1, K);
}
testlist(A) ::= tuple(A).
testlist(A) ::= tuple(A) COMMA.
tuple(A) ::= expr(B) COMMA(O) expr(C). {
	Node *n = mk(ps, N_TUPLE, B.line, B.col);
	ast_add(ps->arena, n, B.n);
	ast_add(ps->arena, n, C.n);
	A = ex(ps, n, imax(B.d, C.d) + 1, O);
}
tuple(A) ::= tuple(A) COMMA expr(C). {
	append(ps, &A, C);
}

/* expression, disjunction, conjunction, inversion, comparison, bitwise_or,
 * bitwise_xor, bitwise_and, shift_expr, sum, term, factor, power:
 * Python's levels are one nonterminal here, ordered by the precedence
 * declarations above; a leaf then takes 2 reductions to become an
 * expression instead of 12.  Precedence alone would also accept what
 * Python's grammar does not ('a == not b', 'a if b if c else d else e');
 * operand() rejects those. */

/* expression: disjunction 'if' disjunction 'else' expression
 * N_IFEXP kids: then, cond, else. */
expr(A) ::= expr(B) IF(K) expr(C) ELSE expr(D). {
	operand(ps, C, N_IFEXP);
	Node *n = mk(ps, N_IFEXP, B.line, B.col);
	ast_add(ps->arena, n, B.n);
	ast_add(ps->arena, n, C.n);
	ast_add(ps->arena, n, D.n);
	A = ex(ps, n, imax(imax(B.d, C.d), D.d) + 1, K);
}

/* disjunction: conjunction ('or' conjunction)+ */
expr(A) ::= expr(B) OR(K) expr(C). {
	A = binary(ps, N_OR, 0, B, K, C);
}

/* conjunction: inversion ('and' inversion)+ */
expr(A) ::= expr(B) AND(K) expr(C). {
	A = binary(ps, N_AND, 0, B, K, C);
}

/* inversion: 'not' inversion */
expr(A) ::= NOT(K) expr(B). {
	A = unary(ps, N_NOT, 0, K, B);
}

/* comparison: bitwise_or compare_op_bitwise_or_pair+
 * A chain a < b < c is built left-deep; sema rejects it (paren tells
 * (a < b) < c apart). */
expr(A) ::= expr(B) compop(O) expr(C). [LT] {
	A = binary(ps, N_COMPARE, (int)O.v.i, B, O, C);
}
compop(A) ::= LT(A). { A.v.i = C_LT; }
compop(A) ::= LE(A). { A.v.i = C_LE; }
compop(A) ::= GT(A). { A.v.i = C_GT; }
compop(A) ::= GE(A). { A.v.i = C_GE; }
compop(A) ::= EQEQ(A). { A.v.i = C_EQ; }
compop(A) ::= NE(A). { A.v.i = C_NE; }
compop(A) ::= IN(A). { A.v.i = C_IN; }
compop(A) ::= NOT(A) IN. { A.v.i = C_NOTIN; }
/* 'is' before 'not' is always 'is not' (the [OR] makes the shift win) */
compop(A) ::= IS(A). [OR] { A.v.i = C_IS; }
compop(A) ::= IS(A) NOT. { A.v.i = C_ISNOT; }

/* bitwise_or, bitwise_xor, bitwise_and, shift_expr, sum, term:
 *     left-associative binary operators */
expr(A) ::= expr(B) BITOR(K) expr(C).   { A = binary(ps, N_BINARY, B_BITOR, B, K, C); }
expr(A) ::= expr(B) BITXOR(K) expr(C).  { A = binary(ps, N_BINARY, B_BITXOR, B, K, C); }
expr(A) ::= expr(B) BITAND(K) expr(C).  { A = binary(ps, N_BINARY, B_BITAND, B, K, C); }
expr(A) ::= expr(B) SHL(K) expr(C).     { A = binary(ps, N_BINARY, B_SHL, B, K, C); }
expr(A) ::= expr(B) SHR(K) expr(C).     { A = binary(ps, N_BINARY, B_SHR, B, K, C); }
expr(A) ::= expr(B) PLUS(K) expr(C).    { A = binary(ps, N_BINARY, B_ADD, B, K, C); }
expr(A) ::= expr(B) MINUS(K) expr(C).   { A = binary(ps, N_BINARY, B_SUB, B, K, C); }
expr(A) ::= expr(B) STAR(K) expr(C).    { A = binary(ps, N_BINARY, B_MUL, B, K, C); }
expr(A) ::= expr(B) SLASH(K) expr(C).   { A = binary(ps, N_BINARY, B_DIV, B, K, C); }
expr(A) ::= expr(B) DSLASH(K) expr(C).  { A = binary(ps, N_BINARY, B_FLOORDIV, B, K, C); }
expr(A) ::= expr(B) PERCENT(K) expr(C). { A = binary(ps, N_BINARY, B_MOD, B, K, C); }
expr(A) ::= expr(B) AT(K) expr(C).      { A = binary(ps, N_BINARY, B_MATMUL, B, K, C); }

/* factor: '+' factor | '-' factor | '~' factor | power */
expr(A) ::= MINUS(K) expr(B). [UNARY] { A = unary(ps, N_UNARY, '-', K, B); }
expr(A) ::= PLUS(K) expr(B). [UNARY]  { A = unary(ps, N_UNARY, '+', K, B); }
expr(A) ::= TILDE(K) expr(B). [UNARY] { A = unary(ps, N_UNARY, '~', K, B); }

/* power: await_primary '**' factor | await_primary */
expr(A) ::= expr(B) POW(K) expr(C). { A = binary(ps, N_BINARY, B_POW, B, K, C); }
expr(A) ::= primary(A).

/* primary: primary '.' NAME | primary '(' [arguments] ')'
 *        | primary '[' slices ']' | atom */
primary(A) ::= primary(B) DOT NAME(N). {
	Node *n = mk(ps, N_ATTR, B.line, B.col);
	n->name = text(ps, N);
	ast_add(ps->arena, n, B.n);
	A = ex(ps, n, B.d + 1, N);
}
primary(A) ::= primary(B) LPAREN(K) RPAREN. {
	Node *n = mk(ps, N_CALL, B.line, B.col);
	ast_add(ps->arena, n, B.n);
	A = ex(ps, n, B.d + 1, K);
}
primary(A) ::= args(A) RPAREN.
primary(A) ::= args(A) COMMA RPAREN.

/* slices: expression (',' expression)* [',']; no slice syntax (the
 * lexer rejects ':' inside '[').  The indices are kids 1..n. */
primary(A) ::= primary(B) LBRACKET(K) testlist(C) RBRACKET. {
	Node *n = mk(ps, N_INDEX, B.line, B.col);
	ast_add(ps->arena, n, B.n);
	int d = B.d + 1;
	if (C.n->kind == N_TUPLE && !C.n->paren) {
		for (int i = 0; i < C.n->nkid; i++)
			ast_add(ps->arena, n, C.n->kid[i]);
		d = imax(d, C.d);
	} else {
		ast_add(ps->arena, n, C.n);
		d = imax(d, C.d + 1);
	}
	A = ex(ps, n, d, K);
}

/* arguments: (expression | NAME '=' expression) (',' ...)* [','] */
args(A) ::= primary(B) LPAREN(K) arg(C). {
	Node *n = mk(ps, N_CALL, B.line, B.col);
	ast_add(ps->arena, n, B.n);
	ast_add(ps->arena, n, C.n);
	A = ex(ps, n, imax(B.d, C.d) + 1, K);
}
args(A) ::= args(A) COMMA(K) arg(C). {
	if (C.n->kind != N_KWARG && A.n->kid[A.n->nkid - 1]->kind == N_KWARG)
		ks_error_at(ps->src, C.n->line, C.n->col,
			    "positional argument follows keyword argument");
	append(ps, &A, C);
	A = ex(ps, A.n, A.d, K);
}
arg(A) ::= expr(A).
arg(A) ::= NAME(N) EQ expr(B). {
	Node *n = mk(ps, N_KWARG, N.line, N.col);
	n->name = text(ps, N);
	ast_add(ps->arena, n, B.n);
	A = ex(ps, n, B.d + 1, N);
}
arg ::= STAR(E). {
	error_at(ps, E, "argument unpacking (*args, **kwargs) is not supported");
}
arg ::= POW(E). {
	error_at(ps, E, "argument unpacking (*args, **kwargs) is not supported");
}

/* atom: NAME | 'True' | 'False' | strings | NUMBER | tuple | group
 * (a primary here, to save a reduction; 'None', lists, and dicts and sets
 * but in decorators, are rejected by the lexer.) */
primary(A) ::= NAME(N). {
	A = leaf(ps, N_NAME, N);
	A.n->name = text(ps, N);
}
primary(A) ::= INT(N). {
	A = leaf(ps, N_INT, N);
	A.n->ival = N.v.i;
}
primary(A) ::= FLOAT(N). {
	A = leaf(ps, N_FLOAT, N);
	A.n->fval = N.v.f;
}
primary(A) ::= TRUE(N). {
	A = leaf(ps, N_BOOL, N);
	A.n->ival = 1;
}
primary(A) ::= FALSE(N). {
	A = leaf(ps, N_BOOL, N);
	A.n->ival = 0;
}
/* strings: STRING+ (adjacent literals are one; name holds their source
 * text, quotes and prefixes included) */
primary(A) ::= strings(S). {
	A = leaf(ps, N_STRING, S);
	A.n->name = text(ps, S);
}
strings(A) ::= STRING(A).
strings(A) ::= strings(A) STRING(B). { A = span(A, B); }

/* group: '(' expression ')'; tuple: '(' [star_expressions] ')' */
primary(A) ::= LPAREN(K) RPAREN. {
	A = leaf(ps, N_TUPLE, K);
	A.n->paren = 1;
}
primary(A) ::= LPAREN(K) testlist(B) RPAREN. {
	A = B;
	A.n->paren = 1;
	if (A.n->kind == N_TUPLE) {
		A.n->line = K.line;
		A.n->col = K.col;
	}
	A.line = K.line;
	A.col = K.col;
}
primary(A) ::= ELLIPSIS(E). {
	A = leaf(ps, N_ELLIPSIS, E); /* an @wp.overload stub's body; sema refuses it elsewhere */
}

/* list: '[' [testlist] ']' (LIST: a '[' that opens one), an N_LIST of its
 * items; dict: '{' [key ':' value {',' key ':' value} [',']] '}', an
 * N_DICT of its keys and values in turn.  The lexer lets them through at
 * the module level (wp.overload(k, [T, ...])) and dicts in a decorator
 * (@wp.kernel(module_options={...})); sema refuses them elsewhere. */
primary(A) ::= LIST(K) RBRACKET. {
	A = leaf(ps, N_LIST, K);
}
primary(A) ::= LIST(K) testlist(B) RBRACKET. {
	if (B.n->kind == N_TUPLE && !B.n->paren) {
		A = B;
		A.n->kind = N_LIST;
	} else {
		A = leaf(ps, N_LIST, K);
		append(ps, &A, B);
	}
	A.n->line = K.line;
	A.n->col = K.col;
	A.line = K.line;
	A.col = K.col;
}
primary(A) ::= LBRACE(K) RBRACE. {
	A = leaf(ps, N_DICT, K);
}
primary(A) ::= LBRACE(K) dict_items(B) RBRACE. {
	A = B;
	A.n->line = K.line;
	A.n->col = K.col;
	A.line = K.line;
	A.col = K.col;
}
primary(A) ::= LBRACE(K) dict_items(B) COMMA RBRACE. {
	A = B;
	A.n->line = K.line;
	A.n->col = K.col;
	A.line = K.line;
	A.col = K.col;
}
dict_items(A) ::= expr(B) COLON expr(C). {
	A = leaf(ps, N_DICT, (Tok){0});
	A.n->line = B.n->line;
	A.n->col = B.n->col;
	append(ps, &A, B);
	append(ps, &A, C);
}
dict_items(A) ::= dict_items(A) COMMA expr(B) COLON expr(C). {
	append(ps, &A, B);
	append(ps, &A, C);
}

%code {

/* How a token reads in "unexpected ..." messages. */
static void describe(char *buf, size_t n, int major, const Tok *t)
{
	switch (major) {
	case 0:
		snprintf(buf, n, "end of file");
		return;
	case TK_NEWLINE:
		snprintf(buf, n, "end of line");
		return;
	case TK_INDENT:
		snprintf(buf, n, "indent");
		return;
	case TK_DEDENT:
		snprintf(buf, n, "unindent");
		return;
	case TK_STRING:
		snprintf(buf, n, "string literal");
		return;
	}
	const char *kind = major == TK_NAME ? "name "
			   : major == TK_INT || major == TK_FLOAT ? "number "
								  : "";
	if (t->len > 40)
		snprintf(buf, n, "%s'%.40s...'", kind, t->p);
	else
		snprintf(buf, n, "%s'%.*s'", kind, t->len, t->p);
}

static const char *block_owner(int kw)
{
	switch (kw) {
	case TK_IF: return "'if' statement";
	case TK_ELIF: return "'elif' statement";
	case TK_ELSE: return "'else' statement";
	case TK_FOR: return "'for' statement";
	case TK_WHILE: return "'while' statement";
	case TK_DEF: return "function definition";
	case TK_CLASS: return "class definition";
	}
	return NULL;
}

/* Would the parser, in its present state, accept token tok?  Runs the
 * automaton on a copy of the state stack: reductions until a shift (yes)
 * or an error (no).  Only used to word syntax errors. */
static int accepts(PState *ps, yyParser *p, int tok)
{
	int n = (int)(p->yytos - p->yystack) + 1, cap = n + 64, top = n - 1;
	YYACTIONTYPE *st = arena_alloc(ps->arena, (size_t)cap * sizeof *st);
	for (int i = 0; i < n; i++)
		st[i] = p->yystack[i].stateno;
	for (;;) {
		YYACTIONTYPE act = yy_find_shift_action((YYCODETYPE)tok, st[top]);
		if (act < YY_MIN_REDUCE || act > YY_MAX_REDUCE)
			return act != YY_ERROR_ACTION && act != YY_NO_ACTION;
		int rule = act - YY_MIN_REDUCE;
		top += yyRuleInfoNRhs[rule];
		if (top < 0 || top + 1 >= cap)
			return 0;
		st[top + 1] = yy_find_reduce_action(st[top], yyRuleInfoLhs[rule]);
		top++;
	}
}

static int starts_operand(int code)
{
	return code == TK_NAME || code == TK_INT || code == TK_FLOAT ||
	       code == TK_STRING || code == TK_TRUE || code == TK_FALSE;
}

static int ends_operand(int code)
{
	return starts_operand(code) || code == TK_RPAREN ||
	       code == TK_RBRACKET;
}

static void syntax_error(PState *ps, void *parser, int major, const Tok *t)
{
	yyParser *p = parser;
	char what[80];
	if (major == TK_INDENT)
		ks_error_at(ps->src, t->line, t->col, "unexpected indent");
	if (major == TK_FOR && ps->lex->nbrack > 0)
		ks_error_at(ps->src, t->line, t->col,
			    "comprehensions and generator expressions are not "
			    "supported in kernels");
	if (major == TK_NEWLINE && accepts(ps, p, TK_COLON))
		ks_error_at(ps->src, t->line, t->col, "expected ':'");
	/* '=' in a condition, or in brackets (not a keyword argument) */
	if (major == TK_EQ &&
	    (ps->lex->nbrack > 0 ||
	     ((ps->kw == TK_IF || ps->kw == TK_ELIF || ps->kw == TK_WHILE) &&
	      !ps->colon)))
		ks_error_at(ps->src, t->line, t->col,
			    "invalid syntax: '=' assigns; maybe you meant '=='?");
	describe(what, sizeof what, major, t);
	/* two operands in a row inside brackets: f(a b) */
	if (starts_operand(major) && ends_operand(ps->prev) &&
	    ps->lex->nbrack > 0)
		ks_error_at(ps->src, t->line, t->col,
			    "invalid syntax: unexpected %s; perhaps you forgot "
			    "a comma?",
			    what);
	ks_error_at(ps->src, t->line, t->col, "invalid syntax: unexpected %s",
		    what);
}

void ks_parse(Parse *p, const Src *s, Arena *arena)
{
	Lexer *L = arena_alloc(arena, sizeof *L);
	PState *ps = arena_alloc(arena, sizeof *ps);
	/* the automaton's stack is large and ksPyInit sets what it reads */
	yyParser *pp = arena_take(arena, sizeof *pp);
	ps->src = s;
	ps->arena = arena;
	ps->lex = L;
	lex_init(L, s, arena);
	L->displays = p->displays;
	L->line = s->line0 > 1 ? s->line0 : 1;
	ksPyInit(pp, ps);
	int prev2 = 0, code;
	ps->prev = TK_NEWLINE;
	do {
		Tok t;
		code = lex_next(L, &t);
		/* ':' NEWLINE must open an indented block. */
		if (ps->prev == TK_NEWLINE && prev2 == TK_COLON &&
		    code != TK_INDENT) {
			const char *owner = block_owner(ps->kw);
			if (owner)
				ks_error_at(s, t.line, t.col,
					    "expected an indented block after "
					    "%s on line %d",
					    owner, ps->kwline);
			ks_error_at(s, t.line, t.col,
				    "expected an indented block");
		}
		if ((ps->prev == TK_NEWLINE || ps->prev == TK_INDENT ||
		     ps->prev == TK_DEDENT) &&
		    code != TK_INDENT && code != TK_DEDENT) {
			ps->kw = code;
			ps->kwline = t.line;
			ps->colon = 0;
		}
		if (code == TK_COLON && L->nbrack == 0)
			ps->colon = 1;
		ps->cur = t;
		ksPy(pp, code, t);
		prev2 = ps->prev;
		ps->prev = code;
	} while (code != 0);
	ksPyFinalize(pp);
	p->src = s;
	p->arena = arena;
	p->module = ps->module;
}

}
