/*
 * ops.h: the IR's opcodes, one row each.  The reader, the printer, the
 * verifier, kdiff and both emitters all expand this one table:
 *
 *     OP(ENUM, "spelling", nargs, nres, class)
 *
 * nargs and nres are the exact operand and result counts, or -1 where they
 * vary (the verifier checks those by hand).  class says what the opcode
 * is, as flags (OC_* in ir.h, read through the predicates there): 0 a pure
 * value, no effect and no memory read; OC_READ and OC_WRITE, it reads or
 * writes memory; OC_PRINT, it writes the log; OC_CALL, what it does is its
 * callee's (a function's, or a builtin row's: BF_ATOMIC); OC_BLOCK, it
 * holds blocks, OC_LOOP as a loop; OC_JUMP, it leaves its block; OC_TAPE,
 * it acts on a backward kernel's tape.  Builtins (sin, dot, atomic_add,
 * tid, ...) are not opcodes: they are rows of builtins.h and appear in the
 * IR under their own names as OP_BUILTIN.
 */
/* clang-format off */
/* values */
OP(MOV, "mov", 1, 1, 0)               /* %x = mov a             copy */
OP(NEG, "neg", 1, 1, 0)               /* -a                      int float vec mat */
OP(ADD, "add", 2, 1, 0)               /* a + b                   same type */
OP(SUB, "sub", 2, 1, 0)
OP(MUL, "mul", 2, 1, 0)               /* scalar, s*v, v*s, s*m, m*s, m*v, m*m */
OP(DIV, "div", 2, 1, 0)               /* int truncates; v/s, m/s */
OP(FLOORDIV, "floordiv", 2, 1, 0)     /* floor(a/b), ints too (Warp's rule) */
OP(MOD, "mod", 2, 1, 0)               /* int: C %; float: fmodf */
OP(LT, "lt", 2, 1, 0)                 /* comparisons give bool */
OP(LE, "le", 2, 1, 0)
OP(GT, "gt", 2, 1, 0)
OP(GE, "ge", 2, 1, 0)
OP(EQ, "eq", 2, 1, 0)
OP(NE, "ne", 2, 1, 0)
OP(AND, "and", 2, 1, 0)               /* bool, both sides evaluated */
OP(OR, "or", 2, 1, 0)
OP(NOT, "not", 1, 1, 0)
OP(BIT_AND, "bit_and", 2, 1, 0)       /* a & b, ints of one type */
OP(BIT_OR, "bit_or", 2, 1, 0)         /* a | b */
OP(BIT_XOR, "bit_xor", 2, 1, 0)       /* a ^ b */
OP(LSHIFT, "lshift", 2, 1, 0)         /* a << b, the count taken modulo the width */
OP(RSHIFT, "rshift", 2, 1, 0)         /* a >> b (arithmetic on signed types), likewise */
OP(INVERT, "invert", 1, 1, 0)         /* ~a */
OP(SELECT, "select", 3, 1, 0)         /* select c, a, b: c ? a : b, both evaluated */
OP(CONV, "conv", 1, 1, 0)             /* float(i), int(f) (toward zero, saturating), wp.float64(x),
                                       * wp.vec3d(v): to the result's type */
OP(BITCAST, "bitcast", 1, 1, 0)       /* wp.cast(x, T): x's bits as the result's type, of x's size */
OP(MAKE, "make", -1, 1, 0)            /* a vector, matrix, quat or transform from 0, 1
                                       * or all components (a transform: also p, q) */
OP(EXTRACT, "extract", -1, 1, 0)      /* v[k], m[i] (a row), m[i, j] */
OP(INSERT, "insert", -1, 1, 0)        /* v with [k] replaced, m with row/element */
OP(LOAD, "load", -1, 1, OC_READ)      /* a[i], a[i, j], ...: one index per dimension */
OP(STORE, "store", -1, 0, OC_WRITE)   /* a[i, ...] = v */
OP(STORE_COMP, "store_comp", -1, 0, OC_WRITE) /* a[i, ...][k] = x, a[i, ...][r, c] = x: one component of
                                       * an element (of a vector, quaternion, transform; an
                                       * element of a matrix), the others untouched */
OP(SHAPE, "shape", 2, 1, 0)           /* a.shape[k], k a constant (the shape is the view's) */
OP(FIELD, "field", 1, 1, 0)           /* %x = field %s, NAME: s.NAME (callee: the field's index) */
OP(SETFIELD, "setfield", 2, 1, 0)     /* %t = setfield %s, NAME, %x: s with s.NAME = x */
OP(CALL, "call", -1, -1, OC_CALL)     /* %r... = call @f args */
OP(BUILTIN, "", -1, -1, OC_CALL)      /* sin, dot, atomic_add, tid, ... */
OP(PRINTF, "printf", -1, 0, OC_PRINT) /* printf "fmt", a, b: wp.printf and print, to the log (krun's
                                       * stderr); the format is string `callee` of the module */
/* structured control flow */
OP(IF, "if", 1, 0, OC_BLOCK)                   /* if c { then } else { else } */
OP(FOR, "for", 3, 1, OC_BLOCK | OC_LOOP)       /* for %j: int = lo, hi, step { body } */
OP(LOOP, "loop", 0, 0, OC_BLOCK | OC_LOOP)     /* loop { body }, left by break or return */
OP(BREAK, "break", 0, 0, OC_JUMP)
OP(CONTINUE, "continue", 0, 0, OC_JUMP)
OP(RET, "ret", -1, 0, OC_JUMP)                 /* ret, or ret a, b in a func */
/* the tape of a backward kernel (doc/autodiff.md): per thread, the states
 * its loops begin their trips with, as checkpoints; each operation reads
 * and moves the thread's place on it, but tape_get, which only reads */
#define OC_TAPE_RW (OC_TAPE | OC_READ | OC_WRITE)
OP(TAPE_OPEN, "tape_open", 1, 0, OC_TAPE_RW)         /* tape_open %tape: this thread's part of the tape */
OP(TAPE_LOOP, "tape_loop", 1, 1, OC_TAPE_RW)         /* %h: int = tape_loop ID: a run of loop ID keeps checkpoints */
OP(TAPE_KEEP, "tape_keep", 2, 1, OC_TAPE_RW)         /* %k: bool = tape_keep %h, %trip: is trip's state kept? */
OP(TAPE_PUT, "tape_put", 3, 0, OC_TAPE_RW)           /* tape_put %h, SLOT, %x: value SLOT of that state */
OP(TAPE_BACK, "tape_back", 2, 1, OC_TAPE_RW)         /* %from: int = tape_back %h, %trip: trip's checkpoint */
OP(TAPE_GET, "tape_get", 3, 1, OC_TAPE | OC_READ)    /* %x: T = tape_get %h, SLOT, %start: value SLOT there */
OP(TAPE_COUNT, "tape_count", 1, 0, OC_TAPE_RW)       /* tape_count ID: a trip of loop ID, only counted */
OP(TAPE_MEASURED, "tape_measured", 0, 1, OC_TAPE_RW) /* %m: bool = tape_measured: only measuring? */
#undef OC_TAPE_RW
/* tiles (doc/ir.md): a block's threads reach each of these together */
OP(TILE_LOAD, "tile_load", -1, 1, OC_READ)    /* %t: tile(float,M,N) = tile_load %a, %i, %j: the elements of a
                                               * from [i, j] on, 0 past a's end */
OP(TILE_STORE, "tile_store", -1, 0, OC_WRITE) /* tile_store %a, %t, %i, %j: t's elements into a from [i, j]
                                               * on, those past a's end left out */
OP(TILE_ATOMIC_ADD, "tile_atomic_add", -1, 0, OC_READ | OC_WRITE) /* tile_atomic_add %a, %t, %i, %j: t's elements
                                               * added into a's from [i, j] on, atomically */
OP(TILE_ARANGE, "tile_arange", 2, 1, 0)       /* %t: tile(float,N) = tile_arange %start, %step: element k
                                               * is start + step * k */
OP(TILE_RAND, "tile_rand", -1, 1, 0)         /* %t: tile(float,M,N) = tile_rand %rng (, %min, %max): random
                                               * draws, of wp.randf (wp.randi for ints) from the state
                                               * pcg(lane + rng): lane the element's thread (0 on the
                                               * CPU, k % blockDim.x in CUDA), each of its elements in
                                               * turn; rng itself unchanged */
OP(TILE_BROADCAST, "tile_broadcast", 1, 1, 0) /* %b: tile(float,M,N) = tile_broadcast %a: a's elements
                                               * repeated along its extents of 1 (numpy's rule, from
                                               * the right) */
OP(TILE_SUM_TO, "tile_sum_to", 1, 1, 0)       /* %s: tile(float,M,1) = tile_sum_to %g: g summed over the
                                               * extents that a broadcast to g's shape repeats */
OP(TILE_RESHAPE, "tile_reshape", 1, 1, 0)     /* %r: tile(float,8) = tile_reshape %a: the elements in
                                               * order, another shape */
OP(TILE_ADD_AT, "tile_add_at", -1, 1, 0)      /* %t = tile_add_at %t, %i, %j, %x: t with element [i, j]
                                               * increased by the x of every thread of the block */
OP(TILE_VIEW, "tile_view", -1, 1, 0)          /* %v: tile(float,4) = tile_view %t, %i, %j: the elements of t
                                               * from [i, j] on in v's shape, its extents t's last
                                               * (0 past t's end; a copy) */
OP(TILE_ASSIGN, "tile_assign", -1, 1, 0)      /* %t = tile_assign %t, %s, %i, %j: t with s's elements from
                                               * [i, j] on, s's extents t's last (those past t's end
                                               * left out) */
OP(TILE_COMP, "tile_comp", 2, 1, 0)           /* %c: tile(vec2,M,N) = tile_comp %g, K: components K, K+1
                                               * of each element of a tile of vectors (a number: K
                                               * alone), K constant (kdiff's gradients of a mapped call) */
OP(TILE_LOAD_INDEXED, "tile_load_indexed", -1, 1, OC_READ) /* %t: tile(float,M,N) = tile_load_indexed %a, %idx,
                                               * AXIS, %i, %j: tile_load's elements, but along AXIS
                                               * (constant) from [i + idx[c]]: idx a 1-D tile of ints */
OP(TILE_STORE_INDEXED, "tile_store_indexed", -1, 0, OC_WRITE) /* tile_store_indexed %a, %t, %idx, AXIS, %i,
                                               * %j: t's elements into a, along AXIS at i + idx[c];
                                               * those outside a (an index of -1) left out */
OP(TILE_ATOMIC_ADD_INDEXED, "tile_atomic_add_indexed", -1, 0, OC_READ | OC_WRITE) /* the same, added in
                                               * atomically */
/* clang-format on */
