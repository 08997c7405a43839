# host code alone: a module of no function, through the pipeline in memory
import os
import warp as wp

PATHS = [os.sep]
