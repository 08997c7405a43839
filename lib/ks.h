/*
 * ks.h: the support code every ksynth tool links — arena allocation, a
 * growable byte buffer, whole-file input, atomic output files and located
 * diagnostics.
 *
 * Errors never return.  By default an error prints
 *     FILE:LINE:COL: error: message
 * followed by the source line and a caret, removes any half-written output
 * file and exits with status 1.  A caller that must survive errors (a fuzz
 * harness, a test driver) points ks_recover at a jmp_buf: the error then
 * longjmps there instead of exiting.  Front-end and IR data live in arenas,
 * so a longjmp leaks nothing once the arena is freed.
 */
#ifndef KS_H
#define KS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
#define KS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define KS_NORETURN __attribute__((noreturn))
#define KS_SENTINEL __attribute__((sentinel))
#else
#define KS_PRINTF(a, b)
#define KS_NORETURN
#define KS_SENTINEL
#endif

#define KS_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The index of the lowest set bit of X (X != 0). */
static inline int ks_ctz64(uint64_t x)
{
#if defined(__GNUC__) && !defined(__TINYC__)
	return __builtin_ctzll(x);
#else
	int n = 0;
	for (; !(x & 1); x >>= 1)
		n++;
	return n;
#endif
}

/* ---- allocation ---------------------------------------------------- */

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
	ArenaChunk *head;
	size_t used; /* bytes handed out, for statistics */
} Arena;

void *arena_alloc(Arena *a, size_t n); /* zeroed, 16-byte aligned */
void *arena_take(Arena *a, size_t n);  /* the same, not zeroed */
char *arena_strndup(Arena *a, const char *s, size_t n);
/* A copy of p[0 .. n) in the arena. */
void *arena_dup(Arena *a, const void *p, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* Grow an arena-backed array *p of *cap elements of size elem to hold need. */
void arena_grow(Arena *a, void **p, int *cap, int need, size_t elem);
/* The same for an array filled as it grows: the new elements are not
 * zeroed. */
void arena_extend(Arena *a, void **p, int *cap, int need, size_t elem);
void arena_free(Arena *a);

/* ---- buffers ------------------------------------------------------- */

typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;

/* Make room in b for n more bytes and the NUL. */
void buf_reserve(Buf *b, size_t n);
/* Append s[0 .. n), a string, a byte; inline, since code is written a few
 * bytes at a time. */
static inline void buf_put(Buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap)
		buf_reserve(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}
static inline void buf_puts(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }
static inline void buf_putc(Buf *b, int c)
{
	if (b->n + 2 > b->cap)
		buf_reserve(b, 1);
	b->p[b->n++] = (char)c;
	b->p[b->n] = 0;
}
/* v in decimal, as %lld writes it (printf costs more than what it prints) */
void buf_int(Buf *b, long long v);
/* u (v) in decimal, written so that it ends just before END, without a
 * NUL; returns where it starts (at most 20 bytes before END). */
static inline char *ks_udec(char *end, unsigned long long u)
{
	do
		*--end = (char)('0' + u % 10);
	while (u /= 10);
	return end;
}
static inline char *ks_dec(char *end, long long v)
{
	char *p = ks_udec(end, v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v);
	if (v < 0)
		*--p = '-';
	return p;
}
void buf_printf(Buf *b, const char *fmt, ...) KS_PRINTF(2, 3);
/* Append the strings given, up to a NULL: the names code is made of,
 * joined without printf's cost. */
void buf_cat(Buf *b, ...) KS_SENTINEL;
void buf_free(Buf *b);
/* Append the first non-blank line of P[0 .. N) to B, control characters
 * as spaces, or "failed" when there is none: a failed run's reason in a
 * status line (krun --batch, a tool's --each). */
void buf_first_line(Buf *b, const char *p, size_t n);
/* S[0 .. N) as a C string literal, quotes included (lib/cstr.c). */
void buf_cstring(Buf *b, const char *s, size_t n);
/* Read a literal buf_cstring wrote, from p (its opening quote) before end,
 * appending its bytes to out: where it ends (after the closing quote), or
 * NULL when it is not one. */
const char *ks_cstring_read(const char *p, const char *end, Buf *out);

/* ---- sources and diagnostics --------------------------------------- */

/* A source text.  text[len] is always '\0'; the text itself may contain
 * NUL bytes, which the lexers report.  line0 is the number of its first
 * line in the file it was read from (a piece of a larger text), 0 or 1 for
 * the whole file; an error on a line outside the piece shows that line
 * from lines, the whole text, when the piece has it.  text may be NULL: an
 * error's excerpt is then read from the file name names, when it is a
 * regular file. */
typedef struct Lines Lines;
typedef struct Src {
	const char *name;
	const char *text;
	size_t len;
	int line0;
	Lines *lines;
} Src;

extern const char *ks_prog;    /* tool name, for unlocated messages */
extern jmp_buf *ks_recover;    /* when set, errors longjmp here */
extern int ks_quiet;           /* when set, errors print nothing */
extern char ks_errmsg[512];    /* the last error's message */
extern const char *ks_errwhat; /* when set, put before each located error's message */

/* Read a whole file ("-" is stdin) into a malloc'd Src. */
void src_read(Src *s, const char *path);
/* Read f from where it stands to its end into a malloc'd Src named name. */
void src_read_file(Src *s, FILE *f, const char *name);
/* Wrap a buffer that the caller owns (len bytes; need not end in NUL). */
void src_from_mem(Src *s, const char *name, const char *text, size_t len);
void src_free(Src *s);

/* A text read twice, line by line and then by byte ranges (lines.c):
 * lines_open reads path ("-": standard input, copied as it is read when it
 * cannot be read again), lines_mem a buffer; lines_next makes the next
 * line p[0 .. n), at offset off, and returns 0 at the end; lines_range
 * gives bytes [from, to) NUL-terminated, valid until the next call;
 * lines_line appends line LINE (without its newline) to b and returns 0
 * when there is none. */
struct Lines {
	const char *name;
	FILE *f, *copy;
	const char *mem;
	size_t mlen, mpos;
	char *lbuf;
	size_t lcap;
	const char *p;
	size_t n;
	long off;
	Buf range;
};
void lines_open(Lines *l, const char *path);
void lines_mem(Lines *l, const char *name, const char *text, size_t len);
int lines_next(Lines *l);
const char *lines_range(Lines *l, long from, long to, size_t *len);
int lines_line(Lines *l, int line, Buf *b);
void lines_close(Lines *l);

/* FILE:LINE:COL: error: msg, the line and a caret; then exit 1 or longjmp. */
KS_NORETURN void ks_error_at(const Src *s, int line, int col, const char *fmt, ...) KS_PRINTF(4, 5);
KS_NORETURN void ks_verror_at(const Src *s, int line, int col, const char *fmt, va_list ap);
/* prog: msg (a trailing ':' appends strerror(errno)); exit 1. */
KS_NORETURN void ks_fatal(const char *fmt, ...) KS_PRINTF(1, 2);

/* ---- output --------------------------------------------------------- */

/* Open the output: stdout for NULL or "-", PATH itself when it exists and
 * is not a regular file (/dev/null, a FIFO), else PATH.tmp.PID which
 * out_commit() renames to PATH.  An error or exit before the commit removes
 * the temporary file, so no partial output is ever left behind. */
FILE *out_open(const char *path);
/* The same, except that the output to stdout or to a device goes first to
 * a temporary file that out_commit() copies there: a tool that writes as
 * it reads leaves nothing there when it fails half-way. */
FILE *out_open_spool(const char *path);
void out_commit(void);
/* Remove the unfinished output file, if any (errors call this). */
void out_abort(void);
/* Write P[0 .. N) to PATH whole: to PATH.tmp.PID, then renamed over it
 * (removed on an error or a signal).  Beside out_open()'s output. */
void out_write_whole(const char *path, const void *p, size_t n);

/* ---- command lines ------------------------------------------------------ */

/* Parse `TOOL [flags] [-o OUT] [FILE | -]` (args.c); flag(arg, ctx) takes the
 * tool's own flags and returns 1 for those it knows. */
void ks_args(int argc, char **argv, const char *usage, int (*flag)(const char *arg, void *ctx), void *ctx,
	     const char **in, const char **out);

/* ---- small helpers ---------------------------------------------------- */

uint64_t ks_hash64(const void *p, size_t n, uint64_t seed); /* FNV-1a based */
/* The strings given, up to a NULL, joined into out (n > 0 bytes, cut to
 * fit, NUL-terminated); returns out. */
char *ks_join(char *out, size_t n, ...) KS_SENTINEL;
/* Shortest decimal text that reads back as the same float; always has a '.'
 * or an exponent so it reads as a float literal. */
void ks_fmt_float(char *out, size_t n, float f);
/* The same for a double, and for a float16 (its bits). */
void ks_fmt_double(char *out, size_t n, double f);
void ks_fmt_half(char *out, size_t n, uint16_t h);
/* IEEE half precision: the nearest half (ties to even; overflow to
 * infinity, NaN kept) of a float, and a half's value. */
uint16_t ks_half_from_float(float f);
float ks_half_to_float(uint16_t h);

#endif
