import warp as wp


@wp.struct
class Empty:
    pass
