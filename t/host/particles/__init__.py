"""A small Warp package: physics.py holds the shared pieces, sim.py the
kernels and the host code that runs them."""
