/*
 * func.c: a function from its IR to its C.  analyse lays out its tape, if
 * it keeps one (per loop of the tape the words of its checkpoint, one per
 * int, bool or float component, in slot order), then runs the four passes
 * emit.c describes: liveness (live.c), folding (fold.c), naming (names.c),
 * declarations (decl.c).  emit_func prints, before the function, the tape
 * and atomic-add helpers of the structs it needs that no function before
 * it did, then the function: its signature (a kernel's thread function
 * takes its indices first; a backward kernel's, only the parameters it
 * reads), a (void) for what it leaves unread, its body (stmt.c).
 * emit_entry prints a kernel's launch entry, NAME_cpu_forward or
 * NAME_cuda_forward (or _backward): a loop over the threads on the CPU, a
 * grid-stride loop in CUDA.
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_int.h"

static void alloc_values(Emitter *e, const Func *f, int fi)
{
	e->f = f;
	e->fi = fi;
	e->v = xmalloc((size_t)(f->nval + 1) * sizeof *e->v);
	memset(e->v, 0, (size_t)(f->nval + 1) * sizeof *e->v);
	for (int i = 0; i < f->nval; i++)
		e->v[i].def = -1;
}

static int words_of(Type t)
{
	if (ty_is_struct(t)) {
		/* its fields', a struct's arrays none (a checkpoint keeps them
		 * from the loop's entry) */
		int n = 0;
		for (int k = 0; k < ty_nfield(t); k++)
			if (!ty_is_array(ty_field(t, k)->ty))
				n += words_of(ty_field(t, k)->ty);
		return n;
	}
	return ty_is_composite(t) ? ty_ncomp(t) : 1;
}

/* Mark the struct u and each struct it holds (nested too) with flag. */
static void mark_held(Emitter *e, Type u, uint8_t flag)
{
	if (!ty_is_struct(u))
		return;
	int i = ir_struct_index(e->m, u);
	if (i >= 0) {
		if (!(e->st[i] & (ST_TAPES | ST_ADDS))) {
			if (e->nmarked == e->capmarked) {
				e->capmarked = e->capmarked ? 2 * e->capmarked : 16;
				e->marked = xrealloc(e->marked, (size_t)e->capmarked * sizeof *e->marked);
			}
			e->marked[e->nmarked++] = i;
		}
		e->st[i] |= flag;
	}
	for (int k = 0; k < ty_nfield(u); k++)
		mark_held(e, ty_field(u, k)->ty, flag);
}

typedef struct Marks {
	Emitter *e;
	const Func *f;
} Marks;

/* Mark each struct in keeps on the tape (ST_TAPES) or adds into an array
 * of structs, a gather of an adjoint (ST_ADDS), with the structs they
 * hold: one walk of a function's body for all the module's structs. */
static int mark_structs(void *ctx, const Inst *in)
{
	Marks *mk = ctx;
	if (in->op == OP_TAPE_PUT)
		mark_held(mk->e, mk->f->val[in->arg[2]].ty, ST_TAPES);
	if (in->op == OP_BUILTIN && in->callee == BI_ATOMIC_ADD)
		mark_held(mk->e, mk->f->val[in->arg[in->narg - 1]].ty, ST_ADDS);
	return 0;
}

/* ks_atomic_add_S for a struct S f adds into an array of structs (kdiff's
 * gather of an adjoint), before f, once: each float field atomically */
static void put_struct_add(Emitter *e, int i)
{
	Type t = e->m->st[i];
	const char *s = ty_name(t);
	if ((e->st[i] & (ST_ADDS | ST_GATHERED)) != ST_ADDS)
		return;
	e->st[i] |= ST_GATHERED;
	fprintf(e->out,
		"// adds v's float fields into *p, each atomically\n"
		"KS_FUNC void ks_atomic_add_%s(%s *p, %s v)\n{\n",
		s, s, s);
	for (int k = 0; k < ty_nfield(t); k++) {
		const Field *fd = ty_field(t, k);
		if (!ty_is_array(fd->ty) && ty_has_float(fd->ty))
			fprintf(e->out, "    ks_atomic_add_%s(&p->%s, v.%s);\n", ty_name(fd->ty), fd->name,
				fd->name);
	}
	fputs("}\n\n", e->out);
}

/* ks_tape_put_S and ks_tape_get_S for a struct S a loop of f keeps on
 * the tape, before f, once: its fields one after the other, as the
 * runtime keeps a vector */
static void put_struct_tape(Emitter *e, int i)
{
	Type t = e->m->st[i];
	FILE *out = e->out;
	if ((e->st[i] & (ST_TAPES | ST_TAPED)) != ST_TAPES)
		return;
	e->st[i] |= ST_TAPED;
	const char *s = ty_name(t);
	fprintf(out, "\n// a %s kept on the tape: its fields' words in order (its arrays stay)\n", s);
	fprintf(out, "KS_FUNC void ks_tape_put_%s(ks_tape *t, %s x)\n{\n", s, s);
	for (int k = 0; k < ty_nfield(t); k++) {
		const Field *fd = ty_field(t, k);
		if (!ty_is_array(fd->ty))
			fprintf(out, "    ks_tape_put_%s(t, x.%s);\n", ty_name(fd->ty), fd->name);
	}
	fprintf(out, "}\n\nKS_FUNC %s ks_tape_get_%s(ks_tape *t, const ks_trips *L, int off, %s x0)\n{\n", s, s, s);
	int off = 0;
	for (int k = 0; k < ty_nfield(t); k++) {
		const Field *fd = ty_field(t, k);
		if (ty_is_array(fd->ty))
			continue;
		if (off)
			fprintf(out, "    x0.%s = ks_tape_get_%s(t, L, off + %d, x0.%s);\n", fd->name,
				ty_name(fd->ty), off, fd->name);
		else
			fprintf(out, "    x0.%s = ks_tape_get_%s(t, L, off, x0.%s);\n", fd->name, ty_name(fd->ty),
				fd->name);
		off += words_of(fd->ty);
	}
	fputs("    return x0;\n}\n\n", out);
}

/* The tape's loop handles (the first walk) and the layout of each loop's
 * checkpoint (the second): the values tape_put stores, in slot order, one
 * word per int, bool or float component. */
static int tape_handles(void *ctx, const Inst *in)
{
	Emitter *e = ctx;
	if (in->op == OP_TAPE_LOOP) {
		int id = e->f->val[in->arg[0]].k.i;
		e->hid[in->res[0]] = id;
		if (id >= e->ntl) {
			e->tl = xrealloc(e->tl, (size_t)(id + 1) * sizeof *e->tl);
			memset(e->tl + e->ntl, 0, (size_t)(id + 1 - e->ntl) * sizeof *e->tl);
			e->ntl = id + 1;
		}
	}
	return 0;
}

static int tape_slots(void *ctx, const Inst *in)
{
	Emitter *e = ctx;
	if (in->op == OP_TAPE_PUT && is_handle(e, in->arg[0])) {
		TapeLayout *l = &e->tl[e->hid[in->arg[0]]];
		int slot = e->f->val[in->arg[1]].k.i;
		if (slot >= l->nslot) {
			l->off = xrealloc(l->off, (size_t)(slot + 1) * sizeof *l->off);
			for (int k = l->nslot; k <= slot; k++)
				l->off[k] = 0;
			l->nslot = slot + 1;
		}
		l->off[slot] = words_of(vty(e, in->arg[2])); /* sizes, then offsets */
	}
	return 0;
}

static void tape_layouts(Emitter *e, const Func *f)
{
	e->hid = xmalloc((size_t)(f->nval + 1) * sizeof *e->hid);
	for (int i = 0; i <= f->nval; i++)
		e->hid[i] = -1;
	e->ntl = 0;
	e->tl = NULL;
	ir_walk_const(&f->body, tape_handles, e);
	ir_walk_const(&f->body, tape_slots, e);
	for (int id = 0; id < e->ntl; id++) {
		TapeLayout *l = &e->tl[id];
		int off = 0;
		for (int k = 0; k < l->nslot; k++) {
			int w = l->off[k];
			l->off[k] = off;
			off += w;
		}
		l->width = off;
	}
}

static void analyse(Emitter *e, const Func *f, int fi)
{
	alloc_values(e, f, fi);
	e->rank = f->is_kernel ? ir_kernel_rank(f) : 1;
	tape_layouts(e, f);
	number_insts(e, f);
	drop_dead_code(e, f);
	fold_temps(e, f);
	name_locals(e, f);
	place_decls(e, f);
	tile_barriers(e, f);
}

/* Free what analyse made for the function at hand. */
void release(Emitter *e)
{
	for (int i = 0; i < e->f->nval; i++) {
		free(e->v[i].fb);
		free(e->v[i].fi);
	}
	clear_names(&e->lnames);
	memset(e->tname, 0, sizeof e->tname);
	free(e->retname);
	e->retname = NULL;
	e->tapename = NULL;
	for (int id = 0; id < e->ntl; id++)
		free(e->tl[id].off);
	free(e->tl);
	e->tl = NULL;
	e->ntl = 0;
	free(e->hid);
	e->hid = NULL;
	free(e->v);
	free(e->hkey);
	free(e->hval);
	e->v = NULL;
	e->hkey = NULL;
	e->hval = NULL;
}

/* The unused-parameter warning of -Wextra: "(void)p;" for each param that
 * nothing reads. */
static void emit_unused_params(Emitter *e)
{
	for (int i = 0; i < e->f->nparam; i++) {
		int p = e->f->param[i];
		if (!e->v[p].uses) {
			fprintf(e->out, "    (void)%s;  // line %d: not used\n", e->v[p].name, e->f->loc.line);
		}
	}
}

typedef struct TidUse {
	const Emitter *e;
	int n;
} TidUse;

/* How many of the thread's indices a live instruction reads (a dead
 * one holds only dead ones: drop_dead_code), at least t->n. */
static int tid_use(void *ctx, const Inst *in)
{
	TidUse *t = ctx;
	if (t->e->ii[inst_id(t->e, in)].dead)
		return 0;
	if (in->op == OP_BUILTIN && in->callee == BI_TID && in->nres > t->n)
		t->n = in->nres;
	/* the tape of a 1-D launch is the thread's at tid; of an N-D
	 * one, at the thread's row-major index (a parameter of its own) */
	if (in->op == OP_TAPE_OPEN && !t->e->threadname && t->n < 1)
		t->n = 1;
	return 0;
}

/* How many of the thread's indices live instructions of b read. */
static int uses_tid(const Emitter *e, const Block *b)
{
	TidUse t = {e, 0};
	ir_walk_const(b, tid_use, &t);
	return t.n;
}

/* "int tid" in a 1-D launch, "int tid0, int tid1" in a 2-D one */
static void put_tid_params(Buf *b, int rank)
{
	if (rank == 1)
		buf_puts(b, "int tid");
	for (int k = 0; rank > 1 && k < rank; k++)
		buf_printf(b, "%sint tid%d", k ? ", " : "", k);
}

/* The parameters, but those skip marks. */
static void param_list_but(Emitter *e, Buf *b, const uint8_t *skip)
{
	int n = 0;
	for (int i = 0; i < e->f->nparam; i++) {
		int p = e->f->param[i];
		if (skip && skip[i])
			continue;
		if (n++)
			buf_puts(b, ", ");
		param_ctype(b, e->m, e->f, i);
		if (b->n && b->p[b->n - 1] != '*')
			buf_putc(b, ' ');
		buf_puts(b, e->v[p].name);
	}
}

static void param_list(Emitter *e, Buf *b) { param_list_but(e, b, NULL); }

static int cmp_index(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* "line N", or "FILE line N" for a function of a module imported. */
static void put_source_line(Emitter *e, const Func *f)
{
	if (f->file) {
		put_comment_text(e->out, f->file);
		fputc(' ', e->out);
	}
	fprintf(e->out, "line %d", f->loc.line);
}

/* Function fi: its structs' helpers, in the module's order, then its
 * code. */
void emit_func(Emitter *e, int fi)
{
	const Func *f = e->m->fn[fi];
	int cuda = e->target == EMIT_CUDA;
	Marks mk = {e, f};
	ir_walk_const(&f->body, mark_structs, &mk);
	if (e->nmarked > 1)
		qsort(e->marked, (size_t)e->nmarked, sizeof *e->marked, cmp_index);
	for (int k = 0; k < e->nmarked; k++) {
		int i = e->marked[k];
		put_struct_tape(e, i);
		put_struct_add(e, i);
		e->st[i] &= ST_TAPED | ST_GATHERED;
	}
	e->nmarked = 0;
	analyse(e, f, fi);
	Buf b = {0};
	if (f->is_kernel) {
		fprintf(e->out, "// %s@wp.kernel %s, ", f->backward ? "backward (adjoint) of " : "", f->name);
		put_source_line(e, f);
		fputs(": the body of one thread\n", e->out);
		buf_printf(&b, "%s %s(", cuda ? "static __device__ void" : "static void", fn_name(e, fi));
		put_tid_params(&b, e->rank);
		if (e->threadname)
			buf_printf(&b, ", int %s", e->threadname);
	} else {
		fprintf(e->out, "// @wp.func %s, ", f->name);
		put_source_line(e, f);
		fputc('\n', e->out);
		/* nvcc and NVRTC warn about a static function nobody calls (an
		 * adjoint kdiff appends for completeness, say); C compilers do
		 * not, for static inline */
		const char *q = !cuda           ? "static inline"
				: e->called[fi] ? "static __device__ inline"
						: "[[maybe_unused]] static __device__ inline";
		if (f->nret == 1)
			buf_printf(&b, "%s %s %s(", q, ctype(f->ret[0]), fn_name(e, fi));
		else
			buf_printf(&b, "%s void %s(", q, fn_name(e, fi));
	}
	/* a backward kernel's thread function takes what it reads: the
	 * parameters of the forward kernel its adjoint has no use for stay
	 * in the entry */
	uint8_t *skip = NULL;
	if (f->backward) {
		skip = xmalloc((size_t)f->nparam + 1);
		for (int i = 0; i < f->nparam; i++)
			skip[i] = !e->v[f->param[i]].uses;
		free(e->unread[fi]);
		e->unread[fi] = skip;
	}
	int shown = 0;
	for (int i = 0; i < f->nparam; i++)
		shown += !(skip && skip[i]);
	if (f->is_kernel && shown)
		buf_puts(&b, ", ");
	else if (f->is_kernel && b.n >= 2 && !strcmp(b.p + b.n - 2, ", "))
		b.n -= 2, b.p[b.n] = 0;
	param_list_but(e, &b, skip);
	if (f->nret > 1)
		for (int k = 0; k < f->nret; k++)
			buf_printf(&b, "%s%s *%s", f->nparam || k ? ", " : "", ctype(f->ret[k]), e->retname[k]);
	if (!f->is_kernel && !f->nparam && f->nret <= 1)
		buf_puts(&b, "void");
	fprintf(e->out, "%s)\n{\n", b.p);
	buf_free(&b);
	for (int k = f->is_kernel ? uses_tid(e, &f->body) : e->rank; k < e->rank; k++)
		fprintf(e->out, "    (void)tid%s;  // line %d: not used\n",
			e->rank == 1 ? "" : (const char *[]){"0", "1", "2", "3"}[k], f->loc.line);
	if (!f->backward)
		emit_unused_params(e);
	emit_block(e, &f->body, 1, -1);
	fputs("}\n", e->out);
}

/* (void)p; in an entry for the parameters its thread function leaves out */
static void entry_unread(Emitter *e, const Func *f, const uint8_t *skip)
{
	for (int i = 0; skip && i < f->nparam; i++)
		if (skip[i])
			fprintf(e->out, "    (void)%s;  // the adjoint does not read it\n", e->v[f->param[i]].name);
}

/* A CUDA entry's attributes from the kernel's options (KernelOpts), each
 * followed by a space: __launch_bounds__, and the runtime's macros for
 * what only some toolkits and architectures have (ks_base.h). */
static void entry_attributes(Emitter *e, const KernelOpts *o)
{
	if (o->max_threads && o->min_blocks)
		fprintf(e->out, "__launch_bounds__(%d, %d) ", o->max_threads, o->min_blocks);
	else if (o->max_threads)
		fprintf(e->out, "__launch_bounds__(%d) ", o->max_threads);
	if (o->max_registers)
		fprintf(e->out, "KS_MAXNREG(%d) ", o->max_registers);
	if (o->cluster_dim)
		fprintf(e->out, "KS_CLUSTER_DIMS(%d) ", o->cluster_dim);
}

/* An entry's parameters, in b, and the arguments it passes its thread
 * function, in a (", x, y"); what the thread function leaves out. */
static const uint8_t *entry_params(Emitter *e, int fi, Buf *b, Buf *a)
{
	const Func *f = e->m->fn[fi];
	alloc_values(e, f, fi);
	name_params(e);
	param_list(e, b);
	const uint8_t *skip = f->backward ? e->unread[fi] : NULL;
	for (int i = 0; i < f->nparam; i++)
		if (!(skip && skip[i]))
			buf_cat(a, ", ", e->v[f->param[i]].name, NULL);
	return skip;
}

/* The entry of a kernel on tiles, whose launch has dimensions past the
 * r indices it reads (wp.launch_tiled's block_dim, at least): dim0 ..
 * dimr-1 are the launch's first r, dimr the product of the rest.  On the
 * CPU each thread is a block of its own (as Warp runs tiles there); in
 * CUDA the grid-stride loop takes whole blocks, whose threads run each
 * trip together (they share its tiles), a barrier ending it. */
static void emit_tiled_entry(Emitter *e, int fi, int r)
{
	const Func *f = e->m->fn[fi];
	int cuda = e->target == EMIT_CUDA, n = r + 1;
	Buf b = {0}, a = {0}, d = {0}, t = {0};
	const uint8_t *skip = entry_params(e, fi, &b, &a);
	for (int k = 0; k < n; k++)
		buf_printf(&d, "%sint dim%d", k ? ", " : "", k);
	const char *dir = f->backward ? "backward" : "forward";
	fprintf(e->out, "// launch %s%s: a block of threads at each index of dim0",
		f->backward ? "the backward of " : "", f->name);
	for (int k = 1; k < r; k++)
		fprintf(e->out, " x dim%d", k);
	fprintf(e->out, ", dim%d threads to an index (the launch's extent past the indices the kernel reads)\n", r);
	if (cuda) {
		fputs("extern \"C\" __global__ void ", e->out);
		entry_attributes(e, &f->opts);
		fprintf(e->out, "%s_cuda_%s(%s%s%s)\n{\n", e->ebase[fi], dir, d.p, f->nparam ? ", " : "",
			b.n ? b.p : "");
		entry_unread(e, f, skip);
		fputs("    /* whole blocks: a block's threads take each trip together, as they share its tiles */\n",
		      e->out);
		fputs("    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid - (int)threadIdx.x < dim0",
		      e->out);
		for (int k = 1; k < n; k++)
			fprintf(e->out, " * dim%d", k);
		fputs("; tid += blockDim.x * gridDim.x) {\n", e->out);
		for (int k = 0; k < r; k++) {
			/* tid / (dim1 * dim2) % dim0 */
			buf_printf(&t, "%stid / ", k ? ", " : "");
			if (k + 2 < n)
				buf_putc(&t, '(');
			for (int j = k + 1; j < n; j++)
				buf_printf(&t, "%sdim%d", j > k + 1 ? " * " : "", j);
			if (k + 2 < n)
				buf_putc(&t, ')');
			if (k > 0)
				buf_printf(&t, " %% dim%d", k);
		}
		if (ir_opens_tape(f))
			buf_puts(&t, ", tid"); /* the thread's part of the tape */
		fprintf(e->out, "        %s(%s%s);\n        __syncthreads();\n    }\n}\n", fn_name(e, fi), t.p,
			a.n ? a.p : "");
	} else {
		fprintf(e->out, "void %s_cpu_%s(%s%s%s)\n{\n", e->ebase[fi], dir, d.p, f->nparam ? ", " : "",
			b.n ? b.p : "");
		entry_unread(e, f, skip);
		for (int k = 0; k < n; k++) {
			fprintf(e->out, "%*s    for (int tid%d = 0; tid%d < dim%d; tid%d++)\n", 4 * k, "", k, k, k,
				k);
			if (k < r)
				buf_printf(&t, "%stid%d", k ? ", " : "", k);
		}
		if (ir_opens_tape(f)) {
			/* the thread's row-major index, where its part of the tape lies */
			buf_puts(&t, ", ");
			for (int k = 1; k < n; k++)
				buf_putc(&t, '(');
			buf_puts(&t, "tid0");
			for (int k = 1; k < n; k++)
				buf_printf(&t, " * dim%d + tid%d)", k, k);
		}
		fprintf(e->out, "%*s        %s%s(%s%s);\n}\n", 4 * r, "", emit_cover ? "KS_COVER(-1, 0), " : "",
			fn_name(e, fi), t.p, a.n ? a.p : "");
	}
	buf_free(&a);
	buf_free(&b);
	buf_free(&d);
	buf_free(&t);
}

/* The kernel's launch entry: NAME_cpu_forward / NAME_cuda_forward.  A
 * launch of R dimensions takes them as dim0 .. dimR-1 (a 1-D launch: dim)
 * and runs the thread function at every index, row-major: on the CPU in
 * nested loops, on the GPU a grid-stride loop over their product (a
 * kernel built with grid_stride=False: a thread per index, the grid
 * covering them).  A backward with a tape gets, after the indices, the
 * thread's row-major index, where its part of the tape lies. */
void emit_entry(Emitter *e, int fi)
{
	const Func *f = e->m->fn[fi];
	int cuda = e->target == EMIT_CUDA, r = ir_kernel_rank(f), tiled = ir_func_tiled(f);
	if (tiled) {
		emit_tiled_entry(e, fi, r);
		return;
	}
	Buf b = {0}, a = {0}, d = {0}, t = {0};
	const uint8_t *skip = entry_params(e, fi, &b, &a);
	const char *dir = f->backward ? "backward" : "forward";
	if (r == 1) {
		buf_puts(&d, "int dim");
	} else {
		for (int k = 0; k < r; k++)
			buf_printf(&d, "%sint dim%d", k ? ", " : "", k);
	}
	if (r == 1)
		fprintf(e->out, "// launch %s%s: threads 0 .. dim-1\n", f->backward ? "the backward of " : "",
			f->name);
	else
		fprintf(e->out, "// launch %s%s: a thread at each index of %s\n",
			f->backward ? "the backward of " : "", f->name,
			(const char *[]){"", "", "dim0 x dim1", "dim0 x dim1 x dim2",
					 "dim0 x dim1 x dim2 x dim3"}[r]);
	if (cuda) {
		const KernelOpts *o = &f->opts;
		fputs("extern \"C\" __global__ void ", e->out);
		entry_attributes(e, o);
		fprintf(e->out, "%s_cuda_%s(%s%s%s)\n{\n", e->ebase[fi], dir, d.p, f->nparam ? ", " : "",
			b.n ? b.p : "");
		entry_unread(e, f, skip);
		if (o->smem_spilling)
			fputs("    KS_SMEM_SPILLING();\n", e->out);
		if (o->lean)
			fputs("    int tid = blockIdx.x * blockDim.x + threadIdx.x;\n    if (tid < dim", e->out);
		else
			fputs("    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < dim", e->out);
		for (int k = 0; r > 1 && k < r; k++)
			fprintf(e->out, "%s%d", k ? " * dim" : "", k);
		fputs(o->lean ? ")\n" : "; tid += blockDim.x * gridDim.x)\n", e->out);
		if (r == 1) {
			buf_puts(&t, "tid");
		} else {
			/* the index of thread tid along each dimension */
			for (int k = 0; k < r; k++) {
				/* tid / (dim1 * dim2) % dim0: the product in parentheses */
				buf_printf(&t, "%stid", k ? ", " : "");
				if (k + 1 < r)
					buf_puts(&t, k + 2 < r ? " / (" : " / ");
				for (int j = k + 1; j < r; j++)
					buf_printf(&t, "%sdim%d", j > k + 1 ? " * " : "", j);
				if (k + 2 < r)
					buf_putc(&t, ')');
				if (k > 0)
					buf_printf(&t, " %% dim%d", k);
			}
		}
	} else {
		fprintf(e->out, "void %s_cpu_%s(%s%s%s)\n{\n", e->ebase[fi], dir, d.p, f->nparam ? ", " : "",
			b.n ? b.p : "");
		entry_unread(e, f, skip);
		if (r == 1) {
			fputs("    for (int tid = 0; tid < dim; tid++)\n", e->out);
			buf_puts(&t, "tid");
		}
		for (int k = 0; r > 1 && k < r; k++) {
			fprintf(e->out, "%*s    for (int tid%d = 0; tid%d < dim%d; tid%d++)\n", 4 * k, "", k, k, k,
				k);
			buf_printf(&t, "%stid%d", k ? ", " : "", k);
		}
	}
	if (r > 1 && ir_opens_tape(f)) {
		/* the thread's row-major index: tid on the GPU, from the
		 * indices on the CPU */
		if (cuda) {
			buf_puts(&t, ", tid");
		} else {
			buf_puts(&t, ", ");
			for (int k = 1; k + 1 < r; k++)
				buf_putc(&t, '(');
			buf_puts(&t, "tid0");
			for (int k = 1; k < r; k++)
				buf_printf(&t, " * dim%d + tid%d%s", k, k, k + 1 < r ? ")" : "");
		}
	}
	fprintf(e->out, "%*s        %s%s(%s%s);\n}\n", r > 1 && !cuda ? 4 * (r - 1) : 0, "",
		emit_cover ? "KS_COVER(-1, 0), " : "", fn_name(e, fi), t.p, a.n ? a.p : "");
	buf_free(&a);
	buf_free(&b);
	buf_free(&d);
	buf_free(&t);
}
