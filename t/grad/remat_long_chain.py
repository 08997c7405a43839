# kgen -c all -s 1 --first 16591: a value of the if's branch that the
# backward's replay of the branch computes again from more than 32
# definitions (the spatial expression); kdiff once wrote past its chain.
import warp as wp


@wp.kernel
def remat_long_chain(pos: wp.array(dtype=wp.vec4), points: wp.array(dtype=wp.vec4), dst: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    q = pos[i]
    tangent = -(wp.outer(dst[i], wp.vec4(1.25, 0.6, 0.75, q[3])) * q)
    mid = points[i] + pos[i]
    mid[0] = mid.w
    edge = wp.cw_div(dst[i], wp.abs(wp.vec4(q.z)) + wp.vec4(0.5))
    if i % 3 != 0 and tangent[1] >= edge[0]:
        edge *= wp.clamp(wp.spatial_dot(0.05 * (wp.spatial_adjoint(0.25 * wp.mat33(0.25, 0.0, 0.0, 0.0, 0.6, 0.5, 0.75, 0.2, tangent[0]), 0.5 * wp.mat33(0.2, edge[0], mid.y, 4.0, 0.1, 4.0, 0.0, 0.3, 0.05)) * 0.25 * wp.spatial_vector(wp.vec3(2.0, 16.0 * wp.tanh(wp.clamp(float(i), -4.0, 4.0)), 0.05), 0.5 * wp.vec3(edge.z))), 0.1 * wp.spatial_cross(0.5 * wp.spatial_vector(wp.vec3(edge[3]), 0.5 * wp.vec3(wp.clamp(float(i), -16.0, 16.0), 4.0, 1.5)), wp.spatial_vector(wp.vec3(q.z, 0.125, edge.z), 0.5 * wp.vec3(tangent[3], 0.75, 0.2)))), -2.0, 2.0)
        tangent += wp.max(pos[i], q)
    else:
        edge.z = pos[i][3]
    mid2 = wp.vec3(3.0, 0.5, tangent.y)
    dst[i] = 0.5 * (0.05 * mid2[2] - 4.0) * wp.vec4(0.125, edge[2], 0.2, 0.25)

