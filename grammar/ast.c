/*
 * ast.c: building and printing the syntax tree of ast.h.
 *
 * Nodes and their kid arrays live in the parse's arena; ast_add doubles a
 * kid array with arena_grow, so building a list of n kids costs O(n).
 * ast_copy copies a tree into another arena (a def's default values,
 * which outlive the piece of text they were parsed from).
 * ast_dump prints one node per line, indented by depth, for tests and
 * debugging (the parser bounds the depth, so the recursion is safe).
 */
#include <stdio.h>
#include <string.h>

#include "ast.h"

Node *ast_new(Arena *a, int kind, int line, int col)
{
	Node *n = arena_alloc(a, sizeof *n);
	n->kind = (uint8_t)kind;
	n->line = line;
	n->col = col;
	return n;
}

void ast_add(Arena *a, Node *parent, Node *kid)
{
	arena_grow(a, (void **)&parent->kid, &parent->capkid, parent->nkid + 1, sizeof *parent->kid);
	parent->kid[parent->nkid++] = kid;
}

Node *ast_copy(Arena *a, const Node *n)
{
	if (!n)
		return NULL;
	Node *c = arena_alloc(a, sizeof *c);
	*c = *n;
	c->name = n->name ? arena_strdup(a, n->name) : NULL;
	c->str2 = n->str2 ? arena_strdup(a, n->str2) : NULL;
	c->kid = NULL;
	c->nkid = c->capkid = 0;
	for (int i = 0; i < n->nkid; i++)
		ast_add(a, c, ast_copy(a, n->kid[i]));
	return c;
}

/* clang-format off */
static const char *const kind_names[N_COUNT] = {
	[N_INT] = "INT",         [N_FLOAT] = "FLOAT",
	[N_BOOL] = "BOOL",       [N_NAME] = "NAME",
	[N_ATTR] = "ATTR",       [N_CALL] = "CALL",
	[N_KWARG] = "KWARG",     [N_INDEX] = "INDEX",
	[N_UNARY] = "UNARY",     [N_NOT] = "NOT",
	[N_BINARY] = "BINARY",   [N_COMPARE] = "COMPARE",
	[N_AND] = "AND",         [N_OR] = "OR",
	[N_IFEXP] = "IFEXP",     [N_TUPLE] = "TUPLE",
	[N_STRING] = "STRING",   [N_EXPR] = "EXPR",
	[N_ASSIGN] = "ASSIGN",   [N_ANNASSIGN] = "ANNASSIGN",
	[N_AUGASSIGN] = "AUGASSIGN", [N_IF] = "IF",
	[N_FOR] = "FOR",         [N_WHILE] = "WHILE",
	[N_BREAK] = "BREAK",     [N_CONTINUE] = "CONTINUE",
	[N_RETURN] = "RETURN",   [N_PASS] = "PASS",
	[N_ASSERT] = "ASSERT",
	[N_BLOCK] = "BLOCK",     [N_IMPORT] = "IMPORT",
	[N_FROMIMPORT] = "FROMIMPORT", [N_DICT] = "DICT", [N_LIST] = "LIST", [N_ELLIPSIS] = "ELLIPSIS", [N_PARAM] = "PARAM",
	[N_DEF] = "DEF", [N_CLASS] = "CLASS",         [N_MODULE] = "MODULE",
};
/* clang-format on */

const char *ast_kind_name(int kind)
{
	if (kind < 0 || kind >= N_COUNT || !kind_names[kind])
		return "?";
	return kind_names[kind];
}

/* clang-format off */
static const char *const binop_names[] = {
	[B_ADD] = "+", [B_SUB] = "-", [B_MUL] = "*", [B_DIV] = "/",
	[B_FLOORDIV] = "//", [B_MOD] = "%", [B_POW] = "**", [B_MATMUL] = "@",
	[B_BITAND] = "&", [B_BITOR] = "|", [B_BITXOR] = "^", [B_SHL] = "<<",
	[B_SHR] = ">>",
};
/* clang-format on */

/* clang-format off */
static const char *const cmpop_names[] = {
	[C_LT] = "<", [C_LE] = "<=", [C_GT] = ">", [C_GE] = ">=",
	[C_EQ] = "==", [C_NE] = "!=", [C_IS] = "is", [C_ISNOT] = "is not",
	[C_IN] = "in", [C_NOTIN] = "not in",
};
/* clang-format on */

static void dump(FILE *f, const Node *n, int depth)
{
	fprintf(f, "%*s", 2 * depth, "");
	if (!n) {
		fputs("-\n", f);
		return;
	}
	fprintf(f, "%s %d:%d", ast_kind_name(n->kind), n->line, n->col);
	switch (n->kind) {
	case N_INT:
		fprintf(f, " %lld", (long long)n->ival);
		break;
	case N_FLOAT:
		fprintf(f, " %.17g", n->fval);
		break;
	case N_BOOL:
		fputs(n->ival ? " True" : " False", f);
		break;
	case N_UNARY:
		fprintf(f, " '%c'", n->op);
		break;
	case N_BINARY:
	case N_AUGASSIGN:
		if (n->op < KS_NELEM(binop_names))
			fprintf(f, " '%s'", binop_names[n->op]);
		break;
	case N_COMPARE:
		if (n->op < KS_NELEM(cmpop_names))
			fprintf(f, " '%s'", cmpop_names[n->op]);
		break;
	}
	if (n->name) {
		if (n->kind == N_STRING) {
			/* a short, printable excerpt of the literal */
			size_t len = strlen(n->name);
			fputc(' ', f);
			for (size_t i = 0; i < len && i < 60; i++) {
				unsigned char c = (unsigned char)n->name[i];
				fputc(c >= ' ' && c < 127 ? c : '?', f);
			}
			if (len > 60)
				fputs("...", f);
		} else
			fprintf(f, " %s", n->name);
	}
	if (n->str2)
		fprintf(f, " as %s", n->str2);
	if (n->paren)
		fputs(" (paren)", f);
	fputc('\n', f);
	for (int i = 0; i < n->nkid; i++)
		dump(f, n->kid[i], depth + 1);
}

void ast_dump(FILE *f, const Node *n) { dump(f, n, 0); }
