import warp as wp

wp.init()
