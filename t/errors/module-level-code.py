import warp as wp

x = 1.0
