# wp.funcs of one name are its overloads: a call takes the first, in
# source order, whose parameters take the arguments' types exactly
# (defaults and keywords included); a later def of the same signature
# replaces an earlier one; an overload may call another of its name.
import warp as wp


@wp.func
def mix(a: float, b: float, t: float = 0.5):
    return a * (1.0 - t) + b * t


@wp.func
def mix(a: wp.vec3, b: wp.vec3, t: float = 0.5):
    return a * (1.0 - t) + b * t


@wp.func
def mix(a: wp.vec3, b: float):
    return a * mix(b, 1.0)


@wp.func
def twice(x: float):
    return 2.0 * x


@wp.func
def twice(x: float):
    return 3.0 * x


@wp.kernel
def blend(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float),
          vout: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = mix(x[i], 2.0 * x[i]) + mix(x[i], 1.0, t=0.25) + twice(x[i])
    vout[i] = mix(v[i], wp.vec3(1.0, 2.0, 3.0), x[i]) + mix(v[i], x[i])
