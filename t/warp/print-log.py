#!/usr/bin/env python3
"""print-log.py FILE.py DIM: launch kernel `show(out: array[float])` of
FILE.py on Warp's CPU over DIM threads and write what its wp.printf and
print calls print (Warp's own stdout, nothing else) to our stdout."""

import ctypes
import importlib.util
import os
import sys


def main():
    path, dim = sys.argv[1], int(sys.argv[2])
    # Warp's own messages go to stdout too: keep the kernel's lines only,
    # by running the launch with fd 1 on a pipe of its own
    r, w = os.pipe()
    saved = os.dup(1)
    os.dup2(2, 1)  # Warp's messages to stderr
    import warp as wp

    wp.config.quiet = True
    spec = importlib.util.spec_from_file_location("printed", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = wp.zeros(dim, dtype=float, device="cpu")
    wp.load_module(mod, device="cpu")
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    os.dup2(w, 1)
    wp.launch(mod.show, dim=dim, inputs=[out], device="cpu")
    wp.synchronize()
    libc.fflush(None)
    os.dup2(2, 1)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.write(saved, data)


main()
