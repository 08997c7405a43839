#!/bin/bash
# sim's cooperating blocks (runtime/ksynth_sim_block.h, runtime/run_sim.c,
# doc/runtime.md "sim"): CUDA code with shared memory and barriers
# (t/run/blocks/blocks.cu, written by hand) runs each block's threads as
# fibers that meet at every __syncthreads(), so a block reduction and a
# transpose through a padded 2-D tile give their results; with a barrier
# removed or misplaced, an index out of its shared array, or a barrier in
# divergent code, krun fails with a located error naming the array, the
# threads and both lines, and prints no record.
. "$(dirname "$0")/lib.sh"

if ! command -v "${KSYNTH_CXX:-c++}" >/dev/null; then
	skip "sim's cooperating blocks" "no C++ compiler (c++) for sim"
	done_testing
	exit
fi

D=t/run/blocks
run() { krun --device sim --dim 512 --grid 2x256 "$@"; }

# sums FILE B T: in block_sum's record in FILE, out[b] is the sum of x's
# T elements of block b, for each of the B blocks; the rest of out as it was
sums() {
	python3 - "$@" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
blocks, threads = int(sys.argv[2]), int(sys.argv[3])
x, out = r["inputs"]["x"], r["outputs"]["out"]
for b in range(blocks):
    want = sum(x[threads * b : threads * b + threads])
    assert abs(out[b] - want) <= 1e-5 * max(1.0, abs(want)), (b, out[b], want)
assert out[blocks:] == r["inputs"]["out"][blocks:]
PY
}

run $D/blocks.py $D/blocks.cu >"$TMP/sim.json" 2>"$TMP/err"
is "the hand-written cooperative CUDA runs on sim" "$?:$(cat "$TMP/err")" "0:"
ok "... each block's sum is the sum of its elements" sums "$TMP/sim.json" 2 256
krun --dim 512 $D/blocks.py >"$TMP/cpu.json"
ok "... the transpose through the shared tile is the cpu's, exactly" python3 - "$TMP/sim.json" "$TMP/cpu.json" <<'PY'
import json, sys
sim, cpu = ([json.loads(l) for l in open(f)][1] for f in sys.argv[1:3])
assert sim["kernel"] == cpu["kernel"] == "transpose16"
assert sim["outputs"]["b"] == cpu["outputs"]["b"]
PY
run --grid 4x128 $D/blocks.py $D/blocks.cu >"$TMP/g.json" 2>"$TMP/err"
ok "... and so it is with blocks of 128 threads: a block's part is all it sums" sums "$TMP/g.json" 4 128

# variant NAME SED: blocks.cu changed by SED, as $TMP/NAME.cu
variant() { sed "$2" $D/blocks.cu >"$TMP/$1.cu"; }
# fails NAME DESC PATTERN: krun of kernel $K on $TMP/NAME.cu exits 1,
# prints no record, and its message matches PATTERN
fails() {
	run --kernel "$K" $D/blocks.py "$TMP/$1.cu" >"$TMP/$1.out" 2>"$TMP/$1.err"
	local st=$?
	is "$2: exit 1, no record" "$st:$(wc -c <"$TMP/$1.out")" "1:0"
	ok "... $3" grep -qE "$4" "$TMP/$1.err"
}
line_of() { grep -n -F -- "$2" "$TMP/$1.cu" | head -1 | cut -d: -f1; }

K=block_sum
variant first '0,/    __syncthreads();/s//    \/\/ (no barrier)/'
L=$(line_of first 'part[t] += part[t + half];')
fails first "the reduction without the barrier after its loads" \
	"a read of what no thread has written yet, located" \
	"^$TMP/first.cu:$L:13: error: in kernel block_sum, block 0: thread 0 reads shared part\[128\], which no thread of the block has written"

variant loop 's/^        __syncthreads();/        \/\/ (no barrier)/'
L=$(line_of loop 'part[t] += part[t + half];')
fails loop "the reduction without the barrier in its loop" \
	"a data race, both threads and lines named" \
	"^$TMP/loop.cu:$L:13: error: data race on shared part\[[0-9]+\] in kernel block_sum, block 0: thread [0-9]+ (reads|writes) it at line $L and thread [0-9]+ (reads|writes) it at line $L, with no barrier between"
ok "... the line is shown with a caret" grep -q '^ *part\[t\] += part\[t + half\];' "$TMP/loop.err"

K=transpose16
variant tr '/tile\[row\]\[col\] = a/{n;s/    __syncthreads();/    \/\/ (no barrier)/}'
R=$(line_of tr 'b[base + t] = tile[col][row];')
fails tr "the transpose without its barrier" \
	"thread 1 reads the element thread 16 has not written yet" \
	"^$TMP/tr.cu:$R:9: error: in kernel transpose16, block 0: thread 1 reads shared tile\[17\], which no thread of the block has written"

K=block_sum
variant late '0,/^    __syncthreads();/s//    if (t == 0) { part[1] = 0.0f; }\n    __syncthreads();/'
L=$(line_of late 'part[1] = 0.0f;')
fails late "a write after another thread's write, before the barrier" \
	"a write-write race, both lines named" \
	"data race on shared part\[1\] in kernel block_sum, block 0: thread 0 writes it at line $L and thread 1 writes it at line $((L - 1))"

variant oob 's/part\[t\] = i < dim/part[t + 1] = i < dim/'
fails oob "an index past the shared array's end" "out of bounds, located" \
	"^$TMP/oob.cu:[0-9]+:5: error: shared array part\[256\] is out of bounds in kernel block_sum \(thread 255 of block 0\)"

variant div 's/^    for (int half/    if (t == 255)\n        return;\n    for (int half/'
L=$(line_of div '        __syncthreads();')
fails div "thread 255 returns before the barriers the others wait at" "a barrier in divergent code" \
	"^$TMP/div.cu:$L:9: error: in kernel block_sum, block 0: thread 0 waits at the barrier of line $L while thread 255 has returned"

variant two 's/^        if (t < half)$/        if (t < half) {\n            part[t] += part[t + half];\n            __syncthreads();\n            continue;\n        }\n        if (0)/'
fails two "a barrier inside the if, another after it" "two barriers, both lines named" \
	"error: in kernel block_sum, block 0: thread 0 waits at the barrier of line [0-9]+ and thread 128 at the barrier of line [0-9]+"

# code without shared memory or barriers still runs thread after thread
kparse $D/blocks.py | kemit-cu >"$TMP/plain.cu"
run $D/blocks.py "$TMP/plain.cu" >"$TMP/plain.json" 2>"$TMP/err"
is "kemit-cu's code (no shared memory) runs as before" "$?:$(cat "$TMP/err")" "0:"
ok "... and gives the cpu's transpose" python3 - "$TMP/plain.json" "$TMP/cpu.json" <<'PY'
import json, sys
sim, cpu = ([json.loads(l) for l in open(f)][1] for f in sys.argv[1:3])
assert sim["outputs"]["b"] == cpu["outputs"]["b"]
PY
done_testing
