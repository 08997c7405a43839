/*
 * hash.c: the structural hash of a function, used to deduplicate kernels.
 * Two functions hash alike when they differ only in names (of the function,
 * its parameters and variables), temp numbering and source locations: the
 * hash covers opcodes, types, constants, the shape of the control flow and
 * which operand is which, with values numbered by first appearance.  A call
 * hashes its callee's structure, not its name.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct Hasher {
	const Module *m;
	const Func *f;
	Buf b;
	int32_t *canon; /* value id -> order of first appearance, -1 unseen */
	int next;
} Hasher;

static void put32(Hasher *h, uint32_t x) { buf_put(&h->b, (const char *)&x, sizeof x); }

/* A type by its name: Type numbers of arrays depend on the order they
 * were first met. */
static void put_type(Hasher *h, Type t) { put32(h, (uint32_t)ks_hash64(ty_name(t), strlen(ty_name(t)), 0)); }

static void put_value(Hasher *h, int id)
{
	const Value *v = &h->f->val[id];
	put32(h, v->kind == VK_CONST ? 0xC0u : 0x70u);
	put_type(h, v->ty);
	if (v->kind == VK_CONST) {
		uint64_t bits;
		memcpy(&bits, &v->k, sizeof bits);
		put32(h, (uint32_t)bits);
		put32(h, (uint32_t)(bits >> 32));
		return;
	}
	if (h->canon[id] < 0)
		h->canon[id] = h->next++;
	put32(h, (uint32_t)h->canon[id]);
}

static void hash_block(Hasher *h, const Block *b)
{
	put32(h, 0xB10C0000u | (uint32_t)b->n);
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		put32(h, in->op);
		if (in->op == OP_BUILTIN || in->op == OP_FIELD || in->op == OP_SETFIELD)
			put32(h, (uint32_t)in->callee);
		else if (in->op == OP_PRINTF)
			for (const char *c = h->m->str[in->callee]; *c; c++)
				put32(h, (unsigned char)*c);
		else if (in->op == OP_CALL) {
			const Func *g = h->m->fn[in->callee];
			uint64_t c = g->hashed ? g->hash : ir_hash_func(h->m, g);
			put32(h, (uint32_t)c);
			put32(h, (uint32_t)(c >> 32));
		}
		put32(h, (uint32_t)in->narg << 8 | in->nres);
		for (int j = 0; j < in->narg; j++)
			put_value(h, in->arg[j]);
		for (int j = 0; j < in->nres; j++)
			put_value(h, in->res[j]);
		if (ir_op_blocks(in->op))
			hash_block(h, &in->body);
		if (in->op == OP_IF)
			hash_block(h, &in->els);
	}
}

uint64_t ir_hash_func(const Module *m, const Func *f)
{
	Hasher h = {m, f, {0}, xmalloc(((size_t)f->nval + 1) * sizeof(int32_t)), 0};
	for (int i = 0; i < f->nval; i++)
		h.canon[i] = -1;
	put32(&h, (uint32_t)f->is_kernel | (uint32_t)f->backward << 1 | (uint32_t)f->no_backward << 2);
	const KernelOpts *o = &f->opts;
	if (o->max_threads || o->max_registers || o->cluster_dim || o->lean || o->smem_spilling) {
		put32(&h, (uint32_t)o->max_threads | (uint32_t)o->min_blocks << 16);
		put32(&h, (uint32_t)o->max_registers | (uint32_t)o->cluster_dim << 16);
		put32(&h, (uint32_t)o->lean | (uint32_t)o->smem_spilling << 1);
	}
	put32(&h, (uint32_t)f->nparam);
	for (int i = 0; i < f->nparam; i++)
		put_value(&h, f->param[i]);
	for (int i = 0; i < f->nret; i++)
		put_type(&h, f->ret[i]);
	hash_block(&h, &f->body);
	uint64_t r = ks_hash64(h.b.p, h.b.n, 0x6b73796e7468ULL);
	buf_free(&h.b);
	free(h.canon);
	return r;
}
