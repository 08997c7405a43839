/*
 * ksynth.h: the runtime that code emitted by kemit-cpu and kemit-cu
 * includes, and the only header it includes.  One source of truth for the
 * CPU and for CUDA: the types, the operations on them, the math builtins
 * and the atomics are written once; `#if KS_CUDA` marks the few places
 * where the two must differ (function qualifiers, atomics, libc).
 *
 * The runtime itself is in the ks_*.h files beside this one, a concern
 * each, included below in an order where each uses only what the ones
 * before it define; none is meant to be included alone.
 *
 * "CUDA code" means compiled by nvcc or NVRTC (__CUDACC__) or by the host
 * C++ compiler through the simulator shim ksynth_sim.h (KS_CUDA_SIM).
 * NVRTC has no libc headers, so under __CUDACC_RTC__ nothing is included:
 * the CUDA math builtins (sinf, sqrtf, ...) are used directly and the
 * fixed-width ints are defined in ks_base.h.
 *
 * Semantics follow NVIDIA Warp (warp/native/builtin.h, vec.h, mat.h,
 * quat.h): min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b, clamp(x,
 * lo, hi) = min(max(lo, x), hi), sign(x) = x < 0 ? -1 : 1 (so sign(0) =
 * 1), normalize(0) = 0, inverse of a singular matrix = 0.  Every value is
 * computed in its own type: float16 is stored as 16 bits and each
 * operation on it is done in float32 and rounded back to float16 (to
 * nearest, ties to even), as Warp does.  Integer arithmetic wraps in its
 * width where Warp's does (the unsigned types; the 8- and 16-bit ones);
 * an integer division or remainder by zero gives 0, a float converted to
 * an int gives 0 when it is NaN or out of the int's range, and a shift by
 * a count outside [0, width) gives 0 (or -1: a negative signed value
 * shifted right), the same on every device.  Reductions (dot, mat * vec,
 * mat * mat) add left to right, products are never fused: FMA contraction
 * must be off (C: -std=c11 keeps GCC's -ffp-contract=off; CUDA:
 * --fmad=false), so the CPU and CUDA agree bit for bit wherever the
 * operations are correctly rounded.
 *
 * Names: ks_<op>_<type> (the IR's name of the first operand's type,
 * ir/types.h: float, float64, vec3d, mat33, quat, ...) for builtins (the
 * table in ir/builtins.h, spelled by ir_builtin_cname) and for operators
 * on what C has no operator for; ks_<op>_<type>_<type> where the two
 * operands' types differ (ks_mul_mat33_vec3, ks_mul_float_vec3d);
 * ks_to_<to>_<from> for conversions C does not do as Warp does.
 */
#ifndef KSYNTH_H
#define KSYNTH_H

#include "ks_base.h"    /* the target, fixed-width ints, double mode, float16 */
#include "ks_scalar.h"  /* scalar arithmetic, math builtins, conversions */
#include "ks_vec.h"     /* vectors */
#include "ks_mat.h"     /* matrices */
#include "ks_decomp.h"  /* svd3, svd2, qr3, eig3 and their adjoints */
#include "ks_quat.h"    /* quaternions */
#include "ks_xform.h"   /* transforms */
#include "ks_spatial.h" /* the spatial builtins */
#include "ks_convert.h" /* composites to another scalar type; bitcast */
#include "ks_array.h"   /* array views; checked indexing */
#include "ks_atomic.h"  /* atomics */
#include "ks_printf.h"  /* wp.printf's log */

/* Double mode (ks_base.h): from here on the emitted code's float is double
 * too, the random numbers' and the tape's as well. */
#if KS_DOUBLE_MODE
#define float double
#endif

#include "ks_rand.h"  /* Warp's random numbers */
#include "ks_noise.h" /* Warp's Perlin noise */
#include "ks_tape.h"  /* the tape of a backward kernel */

#endif
