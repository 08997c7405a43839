import warp as wp

# Matrix decompositions: the polar rotation and principal stretches of a
# deformation gradient (svd3, svd2 with its outputs as arguments), the
# Hencky strain of its right Cauchy-Green tensor (eig3), the QR factors of
# a frame (qr3), and a scalar divided by a vector.  What the kernels store
# does not depend on the signs of singular vectors or the order of
# eigenvalues, which Warp leaves open; the matrices' singular values lie
# apart, where Warp's fixed four Jacobi sweeps are accurate to float32.


@wp.kernel
def polar(
    du: wp.array(dtype=wp.mat33),
    rotation: wp.array(dtype=wp.mat33),
    stretch: wp.array(dtype=wp.vec3),
    energy: wp.array(dtype=float),
):
    i = wp.tid()
    F = wp.diag(wp.vec3(3.0, 2.0, 1.0)) + 0.4 * du[i]
    U, sigma, V = wp.svd3(F)
    rotation[i] = U * wp.transpose(V)
    stretch[i] = sigma
    s = sigma - wp.vec3(1.0)
    energy[i] = wp.dot(s, s) - 0.1 * wp.determinant(F)


@wp.kernel
def signed_stretch(A: wp.array(dtype=wp.mat33), sigma_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    U = wp.mat33()
    sigma = wp.vec3()
    V = wp.mat33()
    wp.svd3(A[i], U, sigma, V)
    sigma_out[i] = sigma


@wp.kernel
def polar2(du: wp.array(dtype=wp.mat22), rotation: wp.array(dtype=wp.mat22), stretch: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    U = wp.mat22()
    sigma = wp.vec2()
    V = wp.mat22()
    wp.svd2(wp.identity(n=2, dtype=float) + 0.5 * du[i], U, sigma, V)
    rotation[i] = U * wp.transpose(V)
    stretch[i] = sigma


@wp.kernel
def hencky(du: wp.array(dtype=wp.mat33), strain: wp.array(dtype=wp.mat33), volume: wp.array(dtype=float)):
    i = wp.tid()
    F = wp.diag(wp.vec3(2.0, 1.5, 1.0)) + 0.3 * du[i]
    C = wp.transpose(F) * F
    Q, d = wp.eig3(C)
    L = wp.vec3(wp.log(d[0]), wp.log(d[1]), wp.log(d[2]))
    strain[i] = 0.5 * (Q * wp.diag(L) * wp.transpose(Q))
    volume[i] = d[0] * d[1] * d[2] + d[0] + d[1] + d[2]


@wp.kernel
def frame(A: wp.array(dtype=wp.mat33), Qs: wp.array(dtype=wp.mat33), Rs: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    Q = wp.mat33()
    R = wp.mat33()
    wp.qr3(A[i] + wp.identity(n=3, dtype=float), Q, R)
    Qs[i] = Q
    Rs[i] = R


@wp.kernel
def reciprocal(v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22), out: wp.array(dtype=wp.vec3), mout: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    out[i] = wp.div_approx(2.0, v[i] + wp.vec3(3.0))
    mout[i] = wp.div_approx(1.5, m[i] + wp.mat22(3.0, 3.0, 3.0, 3.0))
