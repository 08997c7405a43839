#!/usr/bin/env python3
"""model.py: Warp's PCG streams in exact integer arithmetic, to check krun.

    model.py streams RECORDS   the records of t/warp/rand_streams.py's
                               stream_randi, stream_randi_range,
                               stream_randu, stream_randf: every value
    model.py rules RECORD      the record of t/run/random/rules.py
Prints the first mismatch and exits 1, or exits 0."""
import json
import struct
import sys

M = 0xFFFFFFFF


def pcg(state):
    b = (state * 747796405 + 2891336453) & M
    c = (((b >> ((b >> 28) + 4)) ^ b) * 277803737) & M
    return (c >> 22) ^ c


def rand_init(seed, offset=None):
    if offset is None:
        return pcg(seed & M)
    return pcg(((seed & M) + pcg(offset & M)) & M)


def as_int(u):
    return u - (1 << 32) if u >= 1 << 31 else u


def stream(rec):
    name, inp = rec["kernel"], rec["inputs"]
    seed, n = inp["seed"], inp["n"]
    want = []
    for tid in range(rec["dim"]):
        s = rand_init(seed + tid) if name == "stream_randi" else rand_init(seed, tid)
        for _ in range(n):
            s = pcg(s)
            if name == "stream_randi":
                want.append(as_int(s))
            elif name == "stream_randi_range":
                lo, hi = inp["low"], inp["high"]
                want.append(as_int(((s % ((hi - lo) & M)) + lo) & M))
            elif name == "stream_randu":
                want.append(s)
            else:
                want.append((s >> 8) / 16777216.0)
    return want


def rules(rec):
    seed, c = rec["inputs"]["seed"], rec["inputs"]["c"]
    want = []
    for tid in range(rec["dim"]):
        seq = [rand_init(seed, tid)]
        for _ in range(c + 8):
            seq.append(pcg(seq[-1]))
        k = 3 + (tid % 2 == 0) + c
        want += [seq[1], seq[1], seq[3], seq[2], seq[k], seq[1], seq[k + 1] % 1 + 5, seq[k + 2]]
    return want


def main(argv):
    ok = True
    for line in open(argv[2]):
        rec = json.loads(line)
        want = stream(rec) if argv[1] == "streams" else rules(rec)
        got = rec["outputs"]["out"]
        if rec["kernel"] == "stream_randf":
            # krun prints the shortest decimal that reads back as the float32
            got = [struct.unpack("f", struct.pack("f", x))[0] for x in got]
        if got != want:
            j = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b) if len(got) == len(want) else -1
            print("%s: value %d: krun %r, model %r" % (rec["kernel"], j, got[j] if j >= 0 else len(got),
                                                       want[j] if j >= 0 else len(want)))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
