#!/bin/bash
# krun --bench times launches instead of printing records, and make
# bench-cuda (bench/bench_cuda.sh) is built on it: without a GPU it stops
# with krun's reason and leaves its output alone; a dry run on the cpu
# device writes the section with a row per kernel.
. "$(dirname "$0")/lib.sh"

PY=samples/arithmetic/saxpy_rational.py
for dev in cpu sim; do
	krun --device $dev --grad --bench 3 --dim 1000 "$PY" >"$TMP/b.json" 2>"$TMP/err"
	is "krun --device $dev --grad --bench 3: exit 0" "$?:$(cat "$TMP/err")" "0:"
	ok "... one line per kernel, the documented keys, times > 0" python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["kernel"] for r in recs] == ["saxpy", "rational_blend"], recs
for r in recs:
    assert list(r) == ["kernel", "device", "dim", "grid", "reps", "forward_ms", "backward_ms"], r
    assert r["device"] == sys.argv[2] and r["dim"] == 1000 and r["reps"] == 3, r
    assert (r["grid"] is None) == (sys.argv[2] == "cpu"), r
    assert r["forward_ms"] > 0 and r["backward_ms"] > 0, r' "$TMP/b.json" $dev
done
krun --bench 2 "$PY" >"$TMP/b.json"
ok "without --grad, no backward_ms" python3 -c '
import json, sys
assert all("backward_ms" not in json.loads(l) for l in open(sys.argv[1]))' "$TMP/b.json"
krun --bench 2 --gradcheck "$PY" >/dev/null 2>&1
is "--bench with --gradcheck: usage, exit 2" "$?" 2

: >"$TMP/out.md"
if krun --device cuda --bench 1 --dim 1 t/run/abi.kir t/run/abi.cu >/dev/null 2>"$TMP/why"; then
	skip "bench_cuda.sh without a GPU" "there is a GPU here"
else
	bash bench/bench_cuda.sh "$KS_BIN" "$TMP/w" "$TMP/out.md" 2>"$TMP/err"
	is "bench_cuda.sh without a GPU: exit 1" "$?" 1
	is "... saying why" "$(cat "$TMP/err")" "bench-cuda: make bench-cuda needs a GPU: $(head -1 "$TMP/why")"
	is "... its output untouched" "$(wc -c <"$TMP/out.md")" 0
fi
printf '# results\n\nkept\n' >"$TMP/out.md"
DEVICE=cpu DIM=1000 REPS=2 GEN_N=1 WARP_PY= bash bench/bench_cuda.sh "$KS_BIN" "$TMP/w" "$TMP/out.md" 2>"$TMP/err"
is "a dry run on cpu: exit 0" "$?" 0 || diag "$(cat "$TMP/err")"
ok "... the file's text before the section is kept" grep -q '^kept$' "$TMP/out.md"
ok "... the section says it is a dry run" grep -q 'A dry run on cpu, not a GPU' "$TMP/out.md"
is "... a row per sample kernel" "$(grep -c '^| samples/' "$TMP/out.md")" \
	"$(cat samples/*/*.py | grep -c '^@wp.kernel')"
is "... and one per kgen category" "$(grep -c '^| [a-z_]* | 1 |' "$TMP/out.md")" 10
DEVICE=cpu DIM=1000 REPS=2 GEN_N=1 SAMPLES='samples/arithmetic/*.py' WARP_PY= \
	bash bench/bench_cuda.sh "$KS_BIN" "$TMP/w2" "$TMP/out.md" 2>/dev/null
is "... run again: the section replaced, not added" "$(grep -c 'make bench-cuda: from here' "$TMP/out.md")" 1
is "... SAMPLES=GLOB: a row per kernel of those samples alone" "$(grep -c '^| samples/' "$TMP/out.md")" \
	"$(cat samples/arithmetic/*.py | grep -c '^@wp.kernel')"
DEVICE=cpu bash bench/bench_cuda.sh "$KS_BIN" "$TMP/w" bench/RESULTS.md 2>/dev/null
is "a dry run into bench/RESULTS.md: refused, exit 2" "$?" 2
done_testing
