import warp as wp

# Vector and matrix helpers on a small grid: semi-Lagrangian advection by
# bilinear lerp, the strain of a deformation gradient built from its
# columns, and the closest axis of a direction.


@wp.func
def sample(f: wp.array2d(dtype=wp.vec2), x: float, y: float):
    lx = wp.clamp(int(wp.floor(x)), 0, 6)
    ly = wp.clamp(int(wp.floor(y)), 0, 6)
    tx = wp.clamp(x - float(lx), 0.0, 1.0)
    ty = wp.clamp(y - float(ly), 0.0, 1.0)
    s0 = wp.lerp(f[lx, ly], f[lx + 1, ly], tx)
    s1 = wp.lerp(f[lx, ly + 1], f[lx + 1, ly + 1], tx)
    return wp.lerp(s0, s1, ty)


@wp.kernel
def advect(u0: wp.array2d(dtype=wp.vec2), u1: wp.array2d(dtype=wp.vec2), dt: float):
    i, j = wp.tid()
    p = wp.vec2(float(i), float(j)) - u0[i, j] * dt
    u1[i, j] = sample(u0, p[0], p[1])


@wp.kernel
def strain_energy(
    dx: wp.array(dtype=wp.vec3),
    dy: wp.array(dtype=wp.vec3),
    dz: wp.array(dtype=wp.vec3),
    stiffness: wp.array(dtype=wp.vec3),
    energy: wp.array(dtype=float),
    stretch: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    F = wp.matrix_from_cols(dx[i], dy[i], dz[i]) + wp.identity(n=3, dtype=float)
    E = 0.5 * (wp.transpose(F) * F - wp.identity(n=3, dtype=float))
    S = wp.cw_mul(wp.diag(stiffness[i]), E) + 0.1 * wp.trace(E) * wp.identity(n=3, dtype=float)
    energy[i] = wp.ddot(S, E)
    stretch[i] = wp.get_diag(E) + wp.cw_div(dx[i], wp.vec3(2.0) + wp.abs(dy[i]))


@wp.kernel
def spin(w: wp.array(dtype=wp.vec3), r: wp.array(dtype=wp.vec3), dt: float, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    R = wp.diag(wp.vec3(1.0)) + wp.skew(w[i]) * dt
    out[i] = R * r[i]


@wp.kernel
def closest_axis(d: wp.array(dtype=wp.vec3), axis: wp.array(dtype=int), spread: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.abs(d[i])
    axis[i] = int(wp.argmax(a))
    spread[i] = wp.max(a) - wp.min(a)


@wp.kernel
def cell_bits(cell: wp.array(dtype=wp.vec3i), wrapped: wp.array(dtype=wp.vec3i), bits: wp.array(dtype=int)):
    i = wp.tid()
    c = cell[i]
    wrapped[i] = wp.mod(c, wp.vec3i(4, 4, 4)) + wp.invert(c)
    bits[i] = wp.bit_count(c[0]) + wp.invert(c[1]) + wp.mod(c[2], 5)


@wp.kernel
def mirror_cells(cell: wp.array(dtype=wp.vec3i), folded: wp.array(dtype=wp.vec3i)):
    # ~c is -c - 1 for an int vector too: a cell below 0 folds back onto
    # the grid (-1 to 0, -2 to 1)
    i = wp.tid()
    c = cell[i] - wp.vec3i(8, 8, 8)
    folded[i] = wp.max(c, ~c)
