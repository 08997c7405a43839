/*
 * stream.h: a module read function by function (stream.c), for tools
 * whose memory must not grow with the module.
 */
#ifndef KS_STREAM_H
#define KS_STREAM_H

#include "ir.h"

typedef struct IrStream {
	FILE *f;            /* the input, seekable (a copy of stdin) */
	const char *name;   /* as src_read names it */
	Module *m;
	long *off;          /* per function: where its text starts; off[nfn]: the end */
	int *line;          /* per function: its first line */
	uint8_t *called;    /* per function: does any call name it? */
	char *buf;          /* the piece of text being read */
	size_t cap;
	Src src;
	Arena keep;         /* the module's arena while a body is read */
	int reading;
} IrStream;

/* Open path ("-": stdin) and read its function names into m, an empty
 * module.  Returns 1, with the head read, when the module can be read
 * function by function: every call names a function above the caller.
 * Returns 0 when it must be read whole (ir_stream_src), malformed text
 * included.  Errors of the head are reported (or recovered) as usual. */
int ir_stream_open(IrStream *s, const char *path, Module *m);
/* Read function fi, in order, into m (its text, for located errors). */
const Src *ir_stream_read(IrStream *s, int fi);
/* Free fi's body, keeping what calls to it need. */
void ir_stream_drop(IrStream *s, int fi);
/* The whole input as a Src the caller frees (src_free). */
void ir_stream_src(IrStream *s, Src *src);
void ir_stream_close(IrStream *s);

/* A tool that works function by function: begin after the head is read,
 * each for every function in order (with its body; dropped after), end
 * at the end; free releases what begin made, even when begin or a
 * later step stopped half-way (ctx starts zeroed). */
typedef struct IrStreamTool {
	void (*begin)(void *ctx, FILE *out, Module *m, const IrStream *s);
	void (*each)(void *ctx, FILE *out, Module *m, int fi, const Src *src);
	void (*end)(void *ctx, FILE *out, Module *m);
	void (*free)(void *ctx);
} IrStreamTool;

/* Run t over the module at path, writing outpath (stdout for NULL or "-"),
 * and commit the output.  Returns 1 when done.  Returns 0, with nothing
 * written, when the module cannot stream or an error came up on the way:
 * *whole then holds the whole input, and the caller runs its
 * whole-module path on it, which reports the error as it always has. */
int ir_stream_run(const char *path, const char *outpath, const IrStreamTool *t, void *ctx, Src *whole);

#endif
