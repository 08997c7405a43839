# Two overload sets, the second annotated with an unknown module name:
# the locals of the function lowered before must not be in sight
# (they lived in an arena freed since, and crashed the lookup).
import warp as wp
@wp.func
def lerp3(a: wp.vec3, b: wp.vec3, t: float) -> wp.vec3:
    return (1.0 - t) * a + t * b
@wp.func
def bezier(p0: wp.vec3, p1: winp.vec3, p2: wp.vec3, t: float) -> wp.vec3:
    return lerp3(lerp3(p0, p1, t), lerp3(p1, p2, t), t)
@wp.func
def lerp3(a: wp.vec3, b: wp.vec3, t: float) -> wp.vec3:
    return (1.0 - t) * a + t * b
@wp.func
def bezier(p0: wp.vec3, p1: wp.vec3, p2: wp.vec3, t: float) -> wp.vec3:
    return lerp
