/*
 * lexer.re: the tokenizer of the kernel language (re2c input; the
 * generated lexer.c is never edited).
 *
 * It produces Python's token stream, as CPython's tokenizer does.  The
 * source is in memory and ends in a NUL (the sentinel), so the scanner
 * needs no bounds checks: a NUL is the end if it sits at s->len and an
 * error otherwise.  Line structure is handled in C around the re2c block:
 * at the start of each logical line (outside brackets) indentation() skips
 * blank and comment-only lines and compares the indent with a stack,
 * producing INDENT or a count of DEDENTs that later calls hand out.  As in
 * CPython, the indent is measured with tabs as 8 columns and as 1, and the
 * two must agree.  NEWLINE ends a logical line; inside brackets newlines
 * are blanks.  Strings are skipped by hand-written loops (not decoded).
 *
 * Words Python reserves for features the subset never has (lambda, class,
 * try, ...) and tokens that only such features use ('{', ':=', ':' inside
 * '[', '[' that opens a list) are errors here, at the token.
 *
 * Every byte is looked at a bounded number of times and nothing recurses,
 * so lexing is linear whatever the input.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lex.h"
#include "parser.h"

typedef const unsigned char *Ptr;

static int col_of(const Lexer *L, Ptr p)
{
	return (int)(p - L->bol) + 1;
}

KS_NORETURN KS_PRINTF(3, 4) static void error_at(const Lexer *L, Ptr p,
						 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ks_verror_at(L->src, L->line, col_of(L, p), fmt, ap);
}

/* A byte as an error message shows it. */
static const char *show_byte(char *buf, size_t n, unsigned char c)
{
	if (c > ' ' && c < 127)
		snprintf(buf, n, "%c", c);
	else
		snprintf(buf, n, "\\x%02x", c);
	return buf;
}

KS_NORETURN static void invalid_char(const Lexer *L, Ptr p)
{
	char b[8];
	if (*p >= 0x80)
		error_at(L, p,
			 "invalid character '%s' in source (only ASCII is "
			 "allowed outside strings and comments)",
			 show_byte(b, sizeof b, *p));
	error_at(L, p, "invalid character '%s' in source",
		 show_byte(b, sizeof b, *p));
}

/* A NUL at p: the end of the source, or an error. */
static void check_nul(const Lexer *L, Ptr p)
{
	if (p != L->lim)
		error_at(L, p, "null byte in source");
}

void lex_init(Lexer *L, const Src *s, Arena *arena)
{
	memset(L, 0, sizeof *L);
	if (s->len > INT_MAX)
		ks_error_at(s, 1, 1, "source too large (more than %d bytes)",
			    INT_MAX);
	L->src = s;
	L->arena = arena;
	L->cur = L->bol = (Ptr)s->text;
	L->lim = L->cur + s->len;
	L->line = 1;
	L->atbol = 1;
	L->prev = TK_NEWLINE;
	/* A UTF-8 byte order mark is allowed, as in Python. */
	if (s->len >= 3 && !memcmp(s->text, "\xEF\xBB\xBF", 3))
		L->cur += 3;
}

static int emit(Lexer *L, Tok *t, int code, Ptr start, int line, int col)
{
	*t = (Tok){(const char *)start, (int)(L->cur - start), line, col, {0}};
	L->prev = code;
	return code;
}

/* A token from L->tok to L->cur on the current line. */
static int token(Lexer *L, Tok *t, int code)
{
	L->midline = 1;
	return emit(L, t, code, L->tok, L->line, col_of(L, L->tok));
}

static void newline_at(Lexer *L, Ptr next)
{
	L->line++;
	L->bol = next;
}

/* A backslash-newline at p must not end the source. */
static void continuation(const Lexer *L, Ptr p)
{
	Ptr next = p + (p[1] == '\n' ? 2 : 3);
	if (next == L->lim)
		error_at(L, p, "unexpected end of file after line continuation "
			 "character");
}

/* At the start of a logical line: skip blank and comment-only lines, then
 * compare the indent of the first non-blank one with the stack.  Returns
 * INDENT or DEDENT (further DEDENTs are left in L->pending), or -1 when
 * the indent is unchanged or the source ends. */
static int indentation(Lexer *L, Tok *t)
{
	Ptr p;
	/* 64 bits: a tab counts 8, so a 2 GiB line could measure more than
	 * INT_MAX columns. */
	int64_t col, alt, ccol;
	for (;;) {
		p = L->cur;
		col = alt = ccol = 0;
		for (;; p++) {
			if (*p == ' ') {
				col++, alt++;
			} else if (*p == '\t') {
				col = (col / 8 + 1) * 8, alt++;
			} else if (*p == '\f') {
				col = alt = 0;
			} else if (*p == '\\' &&
				   (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
				/* A backslash-newline in the indent: the
				 * line goes on, and (CPython's rule, quirks
				 * included) the first one past column 0
				 * fixes both measures of the indent. */
				if (!ccol)
					ccol = col;
				continuation(L, p);
				p += p[1] == '\n' ? 1 : 2;
				newline_at(L, p + 1);
			} else {
				break;
			}
		}
		if (ccol)
			col = alt = ccol;
		if (*p == '#')
			while (*p != '\n' && *p != 0)
				p++;
		if (*p == '\r' && p[1] == '\n')
			p++;
		if (*p != '\n')
			break;
		L->cur = p + 1;
		newline_at(L, L->cur);
	}
	L->cur = p;
	if (*p == 0) {
		check_nul(L, p);
		return -1; /* the end: the main scanner owes NEWLINE, DEDENTs */
	}
	L->atbol = 0;
	int n = L->nindent, c = col_of(L, p);
	if (col == L->indent[n]) {
		if (alt != L->altindent[n])
			goto inconsistent;
		return -1;
	}
	if (col > L->indent[n]) {
		if (alt <= L->altindent[n])
			goto inconsistent;
		if (n + 1 > KS_MAX_INDENT)
			error_at(L, p, "too many levels of indentation");
		L->nindent = ++n;
		L->indent[n] = col;
		L->altindent[n] = alt;
		return emit(L, t, TK_INDENT, p, L->line, c);
	}
	while (n > 0 && col < L->indent[n])
		n--, L->pending++;
	if (col != L->indent[n])
		error_at(L, p,
			 "unindent does not match any outer indentation "
			 "level");
	if (alt != L->altindent[n])
		goto inconsistent;
	L->nindent = n;
	L->dline = L->line;
	L->dcol = c;
	L->pending--;
	return emit(L, t, TK_DEDENT, p, L->line, c);
inconsistent:
	error_at(L, p, "inconsistent use of tabs and spaces in indentation");
}

/* The end of the source: close the last line and every block. */
static int at_end(Lexer *L, Tok *t)
{
	int line = L->line, col = col_of(L, L->cur);
	if (L->nbrack > 0) {
		int i = L->nbrack - 1;
		char b[2] = {L->brack[i].c, 0};
		ks_error_at(L->src, L->brack[i].line, L->brack[i].col,
			    "'%s' was never closed", b);
	}
	if (L->midline) {
		L->midline = 0;
		return emit(L, t, TK_NEWLINE, L->cur, line, col);
	}
	if (L->nindent > 0) {
		L->pending = L->nindent - 1;
		L->nindent = 0;
		L->dline = line;
		L->dcol = col;
		return emit(L, t, TK_DEDENT, L->cur, line, col);
	}
	return emit(L, t, 0, L->cur, line, col);
}

/* The rest of a string literal; L->cur is just past its opening quote(s).
 * Escapes are skipped, not decoded; a backslash-newline continues a
 * single-quoted string. */
static void string_body(Lexer *L, unsigned char q, int triple, int line,
			int col)
{
	Ptr p = L->cur;
	const char *what = triple ? "unterminated triple-quoted string literal"
				  : "unterminated string literal";
	for (;;) {
		unsigned char c = *p;
		if (c == q) {
			if (!triple) {
				p++;
				break;
			}
			if (p[1] == q && p[2] == q) {
				p += 3;
				break;
			}
			p++;
			continue;
		}
		if (c == '\\') {
			c = *++p;
			if (c == 0)
				goto nul;
			if (c == '\r' && p[1] == '\n')
				p++, c = '\n';
			p++;
			if (c == '\n')
				newline_at(L, p);
			continue;
		}
		if (c == '\n') {
			if (!triple)
				goto unterminated;
			newline_at(L, ++p);
			continue;
		}
		if (c == 0)
			goto nul;
		p++;
	}
	L->cur = p;
	return;
nul:
	check_nul(L, p);
unterminated:
	ks_error_at(L->src, line, col, "%s", what);
}

/* The value of an integer literal in base 2, 8, 10 or 16 (prefix and
 * underscores skipped). */
static int64_t int_value(const Lexer *L, Ptr p, Ptr e, int base)
{
	uint64_t v = 0;
	if (base != 10)
		p += 2;
	for (; p < e; p++) {
		unsigned d;
		if (*p == '_')
			continue;
		if (*p <= '9')
			d = *p - '0';
		else
			d = (*p | 0x20) - 'a' + 10;
		if (v > ((uint64_t)INT64_MAX - d) / (unsigned)base)
			error_at(L, L->tok, "integer literal too large");
		v = v * (unsigned)base + d;
	}
	return (int64_t)v;
}

static double float_value(Lexer *L, Ptr p, Ptr e)
{
	char small[64], *buf = small, *o;
	if (!memchr(p, '_', (size_t)(e - p)))
		return strtod((const char *)p, NULL); /* stops at e */
	if ((size_t)(e - p) >= sizeof small)
		buf = arena_alloc(L->arena, (size_t)(e - p) + 1);
	for (o = buf; p < e; p++)
		if (*p != '_')
			*o++ = (char)*p;
	*o = 0;
	return strtod(buf, NULL);
}

/* A number must not run into a name: 1abc, 0x1g, 1_, 0x. */
static void number_end(Lexer *L, const char *kind)
{
	unsigned char c = *L->cur, lc = c | 0x20;
	if (c != '_' && !(c >= '0' && c <= '9') && !(lc >= 'a' && lc <= 'z'))
		return;
	if (L->cur - L->tok == 1 && *L->tok == '0')
		kind = lc == 'x'   ? "hexadecimal"
		       : lc == 'o' ? "octal"
		       : lc == 'b' ? "binary"
				   : kind;
	error_at(L, L->tok, "invalid %s literal", kind);
}

/* Brackets: an opening one is pushed, a closing one must match. */
static void open_bracket(Lexer *L, char c)
{
	if (L->nbrack >= KS_MAX_BRACKETS)
		error_at(L, L->tok, "too many nested parentheses");
	L->brack[L->nbrack].c = c;
	L->brack[L->nbrack].line = L->line;
	L->brack[L->nbrack].col = col_of(L, L->tok);
	L->nbrack++;
}

static void close_bracket(Lexer *L, char c)
{
	char open = c == ')' ? '(' : c == ']' ? '[' : '{';
	if (L->nbrack == 0)
		ks_error_at(L->src, L->line, col_of(L, L->tok), "unmatched '%c'",
			    c);
	char top = L->brack[L->nbrack - 1].c;
	if (top != open)
		ks_error_at(L->src, L->line, col_of(L, L->tok),
			    "closing '%c' does not match opening '%c'", c, top);
	L->nbrack--;
}

/* Can the last token end an expression?  Then '[' subscripts it;
 * otherwise '[' opens a list display. */
static int ends_expr(int code)
{
	switch (code) {
	case TK_NAME: case TK_INT: case TK_FLOAT: case TK_STRING:
	case TK_RPAREN: case TK_RBRACKET: case TK_RBRACE: case TK_TRUE: case TK_FALSE:
		return 1;
	}
	return 0;
}

/*!re2c
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = "L->cur";
	re2c:define:YYMARKER = "mar";
	re2c:yyfill:enable = 0;

	nl = "\r"? "\n";
	name = [a-zA-Z_] [a-zA-Z0-9_]*;
	dig = [0-9];
	digitpart = dig ("_"? dig)*;
	hexint = "0" [xX] ("_"? [0-9a-fA-F])+;
	octint = "0" [oO] ("_"? [0-7])+;
	binint = "0" [bB] ("_"? [01])+;
	fraction = "." digitpart;
	exponent = [eE] [+-]? digitpart;
	pointfloat = digitpart? fraction | digitpart ".";
	floatnum = pointfloat | (digitpart | pointfloat) exponent;
	imagnum = (floatnum | digitpart) [jJ];
	sprefix = [rRuUbBfF] | [rR] [bBfF] | [bBfF] [rR];
*/

int lex_next(Lexer *L, Tok *t)
{
	Ptr mar;
	for (;;) { /* an action that produces no token continues here */
		if (L->pending > 0) {
			L->pending--;
			return emit(L, t, TK_DEDENT, L->cur, L->dline, L->dcol);
		}
		if (L->atbol) {
			int code = indentation(L, t);
			if (code >= 0)
				return code;
		}
		L->tok = L->cur;
		/*!re2c
		[\x00] {
			L->cur = L->tok;
			check_nul(L, L->cur);
			return at_end(L, t);
		}
		[ \t\f]+ { continue; }
		"#" [^\n\x00]* { continue; }
		"\\" nl {
			continuation(L, L->tok);
			newline_at(L, L->cur);
			continue;
		}
		"\\" {
			if (*L->cur == 0 && L->cur == L->lim)
				error_at(L, L->cur, "unexpected end of file "
					 "after line continuation character");
			error_at(L, L->tok, "unexpected character after line "
				 "continuation character");
		}
		nl {
			int line = L->line, col = col_of(L, L->tok);
			newline_at(L, L->cur);
			if (L->nbrack > 0)
				continue;
			L->atbol = 1;
			L->decorator = 0;
			if (!L->midline)
				continue; /* nothing on the line: a blank one */
			L->midline = 0;
			return emit(L, t, TK_NEWLINE, L->tok, line, col);
		}

		"and" { return token(L, t, TK_AND); }
		"or" { return token(L, t, TK_OR); }
		"not" { return token(L, t, TK_NOT); }
		"in" { return token(L, t, TK_IN); }
		"is" { return token(L, t, TK_IS); }
		"if" { return token(L, t, TK_IF); }
		"elif" { return token(L, t, TK_ELIF); }
		"else" { return token(L, t, TK_ELSE); }
		"for" { return token(L, t, TK_FOR); }
		"while" { return token(L, t, TK_WHILE); }
		"def" { return token(L, t, TK_DEF); }
		"return" { return token(L, t, TK_RETURN); }
		"pass" { return token(L, t, TK_PASS); }
		"assert" { return token(L, t, TK_ASSERT); }
		"break" { return token(L, t, TK_BREAK); }
		"continue" { return token(L, t, TK_CONTINUE); }
		"import" { return token(L, t, TK_IMPORT); }
		"from" { return token(L, t, TK_FROM); }
		"as" { return token(L, t, TK_AS); }
		"True" { return token(L, t, TK_TRUE); }
		"False" { return token(L, t, TK_FALSE); }

		/* Python keywords of features kernels never have. */
		"lambda" {
			error_at(L, L->tok, "lambda expressions are not supported "
				 "in kernels; define a @wp.func instead");
		}
		"class" { return token(L, t, TK_CLASS); }
		"with" {
			error_at(L, L->tok, "'with' statements are not supported "
				 "in kernels");
		}
		"try" | "except" | "finally" | "raise" {
			error_at(L, L->tok, "exceptions are not supported in "
				 "kernels ('%.*s')", (int)(L->cur - L->tok), L->tok);
		}
		"global" | "nonlocal" {
			error_at(L, L->tok, "'%.*s' declarations are not supported "
				 "in kernels", (int)(L->cur - L->tok), L->tok);
		}
		"yield" {
			error_at(L, L->tok, "generators ('yield') are not supported "
				 "in kernels");
		}
		"async" | "await" {
			error_at(L, L->tok, "coroutines ('%.*s') are not supported "
				 "in kernels", (int)(L->cur - L->tok), L->tok);
		}
		"del" {
			error_at(L, L->tok, "'del' is not supported in kernels");
		}
		"None" {
			error_at(L, L->tok, "None is not supported in kernels");
		}

		name { return token(L, t, TK_NAME); }

		digitpart {
			number_end(L, "decimal");
			Ptr p = L->tok;
			while (p < L->cur && (*p == '0' || *p == '_'))
				p++;
			if (*L->tok == '0' && p < L->cur)
				error_at(L, L->tok, "leading zeros in decimal "
					 "integer literals are not permitted; use "
					 "an 0o prefix for octal integers");
			int64_t v = int_value(L, L->tok, L->cur, 10);
			token(L, t, TK_INT);
			t->v.i = v;
			return TK_INT;
		}
		hexint | octint | binint {
			unsigned char k = L->tok[1] | 0x20;
			number_end(L, k == 'x' ? "hexadecimal"
				      : k == 'o' ? "octal" : "binary");
			int64_t v = int_value(L, L->tok, L->cur,
					      k == 'x' ? 16 : k == 'o' ? 8 : 2);
			token(L, t, TK_INT);
			t->v.i = v;
			return TK_INT;
		}
		floatnum {
			number_end(L, "decimal");
			double v = float_value(L, L->tok, L->cur);
			token(L, t, TK_FLOAT);
			t->v.f = v;
			return TK_FLOAT;
		}
		imagnum {
			error_at(L, L->tok, "complex numbers are not supported");
		}

		sprefix? ['"] {
			int line = L->line, col = col_of(L, L->tok);
			string_body(L, L->cur[-1], 0, line, col);
			L->midline = 1;
			return emit(L, t, TK_STRING, L->tok, line, col);
		}
		sprefix? (['] ['] ['] | ["] ["] ["]) {
			int line = L->line, col = col_of(L, L->tok);
			string_body(L, L->cur[-1], 1, line, col);
			L->midline = 1;
			return emit(L, t, TK_STRING, L->tok, line, col);
		}

		"(" {
			open_bracket(L, '(');
			return token(L, t, TK_LPAREN);
		}
		"[" {
			int list = !ends_expr(L->prev);
			if (list && !L->displays)
				error_at(L, L->tok, "lists are not supported in "
					 "kernels");
			open_bracket(L, '[');
			return token(L, t, list ? TK_LIST : TK_LBRACKET);
		}
		"{" {
			if (!L->decorator && !L->displays)
				error_at(L, L->tok, "dicts and sets are not supported "
					 "in kernels");
			open_bracket(L, '{');
			return token(L, t, TK_LBRACE);
		}
		")" {
			close_bracket(L, ')');
			return token(L, t, TK_RPAREN);
		}
		"]" {
			close_bracket(L, ']');
			return token(L, t, TK_RBRACKET);
		}
		"}" {
			close_bracket(L, '}');
			if (!L->decorator && !L->displays)
				error_at(L, L->tok, "invalid syntax");
			return token(L, t, TK_RBRACE);
		}
		":" {
			if (L->nbrack > 0 && L->brack[L->nbrack - 1].c == '[')
				error_at(L, L->tok, "slicing is not supported");
			return token(L, t, TK_COLON);
		}
		":=" {
			error_at(L, L->tok, "assignment expressions (:=) are "
				 "not supported");
		}
		"," { return token(L, t, TK_COMMA); }
		"." { return token(L, t, TK_DOT); }
		"..." { return token(L, t, TK_ELLIPSIS); }
		";" { return token(L, t, TK_SEMI); }
		"->" { return token(L, t, TK_ARROW); }
		"=" { return token(L, t, TK_EQ); }
		"+=" { return token(L, t, TK_PLUSEQ); }
		"-=" { return token(L, t, TK_MINUSEQ); }
		"*=" { return token(L, t, TK_STAREQ); }
		"/=" { return token(L, t, TK_SLASHEQ); }
		"//=" { return token(L, t, TK_DSLASHEQ); }
		"%=" { return token(L, t, TK_PERCENTEQ); }
		"**=" { return token(L, t, TK_POWEQ); }
		"@=" { return token(L, t, TK_ATEQ); }
		"&=" { return token(L, t, TK_ANDEQ); }
		"|=" { return token(L, t, TK_OREQ); }
		"^=" { return token(L, t, TK_XOREQ); }
		"<<=" { return token(L, t, TK_SHLEQ); }
		">>=" { return token(L, t, TK_SHREQ); }
		"+" { return token(L, t, TK_PLUS); }
		"-" { return token(L, t, TK_MINUS); }
		"*" { return token(L, t, TK_STAR); }
		"/" { return token(L, t, TK_SLASH); }
		"//" { return token(L, t, TK_DSLASH); }
		"%" { return token(L, t, TK_PERCENT); }
		"**" { return token(L, t, TK_POW); }
		"@" {
			L->decorator = !L->midline;
			return token(L, t, TK_AT);
		}
		"&" { return token(L, t, TK_BITAND); }
		"|" { return token(L, t, TK_BITOR); }
		"^" { return token(L, t, TK_BITXOR); }
		"~" { return token(L, t, TK_TILDE); }
		"<<" { return token(L, t, TK_SHL); }
		">>" { return token(L, t, TK_SHR); }
		"<" { return token(L, t, TK_LT); }
		">" { return token(L, t, TK_GT); }
		"<=" { return token(L, t, TK_LE); }
		">=" { return token(L, t, TK_GE); }
		"==" { return token(L, t, TK_EQEQ); }
		"!=" { return token(L, t, TK_NE); }
		"<>" {
			error_at(L, L->tok, "'<>' is not Python 3; use '!='");
		}

		* {
			invalid_char(L, L->tok);
		}
		*/
	}
}
