import warp as wp

class Foo:
    pass
