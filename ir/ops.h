/*
 * ops.h: the IR's opcodes, one row each.  The reader, the printer, the
 * verifier, kdiff and both emitters all expand this one table:
 *
 *     OP(ENUM, "spelling", nargs, nres)
 *
 * nargs and nres are the exact operand and result counts, or -1 where they
 * vary (the verifier checks those by hand).  Builtins (sin, dot, atomic_add,
 * tid, ...) are not opcodes: they are rows of builtins.h and appear in the
 * IR under their own names as OP_BUILTIN.
 */
/* values */
OP(MOV, "mov", 1, 1)           /* %x = mov a             copy */
OP(NEG, "neg", 1, 1)           /* -a                      int float vec mat */
OP(ADD, "add", 2, 1)           /* a + b                   same type */
OP(SUB, "sub", 2, 1)
OP(MUL, "mul", 2, 1)           /* scalar, s*v, v*s, s*m, m*s, m*v, m*m */
OP(DIV, "div", 2, 1)           /* int truncates; v/s, m/s */
OP(FLOORDIV, "floordiv", 2, 1) /* floor(a/b), ints too (Warp's rule) */
OP(MOD, "mod", 2, 1)           /* int: C %; float: fmodf */
OP(LT, "lt", 2, 1)             /* comparisons give bool */
OP(LE, "le", 2, 1)
OP(GT, "gt", 2, 1)
OP(GE, "ge", 2, 1)
OP(EQ, "eq", 2, 1)
OP(NE, "ne", 2, 1)
OP(AND, "and", 2, 1)           /* bool, both sides evaluated */
OP(OR, "or", 2, 1)
OP(NOT, "not", 1, 1)
OP(BIT_AND, "bit_and", 2, 1)   /* a & b, ints of one type */
OP(BIT_OR, "bit_or", 2, 1)     /* a | b */
OP(BIT_XOR, "bit_xor", 2, 1)   /* a ^ b */
OP(LSHIFT, "lshift", 2, 1)     /* a << b, the count taken modulo the width */
OP(RSHIFT, "rshift", 2, 1)     /* a >> b (arithmetic on signed types), likewise */
OP(INVERT, "invert", 1, 1)     /* ~a */
OP(SELECT, "select", 3, 1)     /* select c, a, b: c ? a : b, both evaluated */
OP(CONV, "conv", 1, 1)         /* float(i), int(f) (toward zero, saturating), wp.float64(x),
                                * wp.vec3d(v): to the result's type */
OP(BITCAST, "bitcast", 1, 1)   /* wp.cast(x, T): x's bits as the result's type, of x's size */
OP(MAKE, "make", -1, 1)        /* a vector, matrix, quat or transform from 0, 1
                                * or all components (a transform: also p, q) */
OP(EXTRACT, "extract", -1, 1)  /* v[k], m[i] (a row), m[i, j] */
OP(INSERT, "insert", -1, 1)    /* v with [k] replaced, m with row/element */
OP(LOAD, "load", -1, 1)        /* a[i], a[i, j], ...: one index per dimension */
OP(STORE, "store", -1, 0)      /* a[i, ...] = v */
OP(SHAPE, "shape", 2, 1)       /* a.shape[k], k a constant */
OP(FIELD, "field", 1, 1)       /* %x = field %s, NAME: s.NAME (callee: the field's index) */
OP(SETFIELD, "setfield", 2, 1) /* %t = setfield %s, NAME, %x: s with s.NAME = x */
OP(CALL, "call", -1, -1)       /* %r... = call @f args */
OP(BUILTIN, "", -1, -1)        /* sin, dot, atomic_add, tid, ... */
OP(PRINTF, "printf", -1, 0)    /* printf "fmt", a, b: wp.printf and print, to the log (krun's
                                * stderr); the format is string `callee` of the module */
/* structured control flow */
OP(IF, "if", 1, 0)             /* if c { then } else { else } */
OP(FOR, "for", 3, 1)           /* for %j: int = lo, hi, step { body } */
OP(LOOP, "loop", 0, 0)         /* loop { body }, left by break or return */
OP(BREAK, "break", 0, 0)
OP(CONTINUE, "continue", 0, 0)
OP(RET, "ret", -1, 0)          /* ret, or ret a, b in a func */
/* the tape of a backward kernel (doc/autodiff.md): per thread, the states
 * its loops begin their trips with, as checkpoints */
OP(TAPE_OPEN, "tape_open", 1, 0)       /* tape_open %tape: this thread's part of the tape */
OP(TAPE_LOOP, "tape_loop", 1, 1)       /* %h: int = tape_loop ID: a run of loop ID keeps checkpoints */
OP(TAPE_KEEP, "tape_keep", 2, 1)       /* %k: bool = tape_keep %h, %trip: is trip's state kept? */
OP(TAPE_PUT, "tape_put", 3, 0)         /* tape_put %h, SLOT, %x: value SLOT of that state */
OP(TAPE_BACK, "tape_back", 2, 1)       /* %from: int = tape_back %h, %trip: trip's checkpoint */
OP(TAPE_GET, "tape_get", 3, 1)         /* %x: T = tape_get %h, SLOT, %start: value SLOT there */
OP(TAPE_COUNT, "tape_count", 1, 0)     /* tape_count ID: a trip of loop ID, only counted */
OP(TAPE_MEASURED, "tape_measured", 0, 1) /* %m: bool = tape_measured: only measuring? */
