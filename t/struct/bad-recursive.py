import warp as wp


@wp.struct
class Node:
    next: Node
