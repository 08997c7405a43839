/*
 * alloc.c: checked malloc and the arena.  An arena is a list of chunks that
 * is freed at once; everything a front end or IR reader builds lives in one,
 * so an error that longjmps out of deep recursion leaks nothing.  Freed
 * chunks of the usual size are kept (up to 2 MB) for the next arena.
 */
#include <stdlib.h>
#include <string.h>

#include "ks.h"

struct ArenaChunk {
	ArenaChunk *next;
	size_t size, off;
	_Alignas(16) unsigned char data[];
};

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		ks_fatal("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		ks_fatal("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

/* The chunks of the usual size that arenas freed, kept for the next ones:
 * a tool that frees a function's arena after each function would
 * otherwise give the pages back and fault them in again every time. */
enum { CHUNK = 65536, SPARE_MAX = 32 };
static ArenaChunk *spare;
static int nspare;

void *arena_take(Arena *a, size_t n)
{
	ArenaChunk *c = a->head;
	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->off < n) {
		size_t size = n > CHUNK - sizeof *c ? n : CHUNK - sizeof *c;
		if (size == CHUNK - sizeof *c && spare) {
			c = spare;
			spare = c->next;
			nspare--;
		} else {
			c = xmalloc(sizeof *c + size);
			c->size = size;
		}
		c->next = a->head;
		c->off = 0;
		a->head = c;
	}
	void *p = c->data + c->off;
	c->off += n;
	a->used += n;
	return p;
}

void *arena_alloc(Arena *a, size_t n)
{
	void *p = arena_take(a, n);
	memset(p, 0, n);
	return p;
}

void *arena_dup(Arena *a, const void *p, size_t n) { return memcpy(arena_take(a, n), p, n); }

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void arena_extend(Arena *a, void **p, int *cap, int need, size_t elem)
{
	if (need <= *cap)
		return;
	int ncap = *cap ? *cap : 4;
	while (ncap < need) {
		if (ncap > (1 << 28))
			ks_fatal("array too large");
		ncap *= 2;
	}
	char *np = arena_take(a, (size_t)ncap * elem);
	if (*cap)
		memcpy(np, *p, (size_t)*cap * elem);
	*p = np;
	*cap = ncap;
}

void arena_grow(Arena *a, void **p, int *cap, int need, size_t elem)
{
	int old = *cap;
	arena_extend(a, p, cap, need, elem);
	/* the new elements zeroed */
	if (*cap > old)
		memset((char *)*p + (size_t)old * elem, 0, (size_t)(*cap - old) * elem);
}

void arena_free(Arena *a)
{
	ArenaChunk *c = a->head;
	while (c) {
		ArenaChunk *next = c->next;
		if (c->size == CHUNK - sizeof *c && nspare < SPARE_MAX) {
			c->next = spare;
			spare = c;
			nspare++;
		} else {
			free(c);
		}
		c = next;
	}
	a->head = NULL;
	a->used = 0;
}
