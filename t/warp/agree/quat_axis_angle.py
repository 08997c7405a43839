# axis, angle = wp.quat_to_axis_angle(q), forward and adjoint.
import warp as wp


@wp.kernel
def axis_angle(q: wp.array(dtype=wp.quat), axes: wp.array(dtype=wp.vec3), angles: wp.array(dtype=float)):
    i = wp.tid()
    axis, angle = wp.quat_to_axis_angle(wp.normalize(q[i]))
    axes[i] = axis * angle
    angles[i] = angle
