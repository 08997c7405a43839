import warp as wp
import numpy as np
