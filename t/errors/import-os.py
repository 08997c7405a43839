import warp as wp
import os
