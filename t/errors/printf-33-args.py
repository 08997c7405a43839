import warp as wp

@wp.kernel
def k(x: wp.array(dtype=float)):
    i = wp.tid()
    wp.printf("%f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f \n", x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i])
