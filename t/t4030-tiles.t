#!/bin/bash
# krun on kernels on tiles (doc/runtime.md, "Kernels on tiles"): the
# kernels of t/tile (a tiled product with a k-loop, a 1-D load, scale, sum
# and store, one that reads the thread of its block, a transpose,
# wp.tile_map of wp.funcs, Fourier transforms of rows) launched
# as wp.launch_tiled launches them, over a grid of blocks of --block-dim
# threads: cpu (a block of one thread) and sim (cooperating blocks) give
# the same records but for device and block_dim, outputs worked out from
# the inputs, the same at any block_dim, the tiled input law; a barrier
# taken out of the CUDA is a located race; --grad on cpu and sim agree and
# --gradcheck passes; the errors of --block-dim, --grid and --dim; tiles
# of three dimensions, t/emit/tiles_fft.py's transforms at several
# block sizes, and random tiles drawn as Warp draws them on a GPU.
. "$(dirname "$0")/lib.sh"

if ! command -v "${KSYNTH_CXX:-c++}" >/dev/null; then
	skip "kernels on tiles" "no C++ compiler (c++) for sim"
	done_testing
	exit
fi

CHECK="python3 t/run/check.py"
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"

# strip FILE: the records without "device" and "block_dim"
strip() { sed 's/"device": "[a-z]*", //; s/"block_dim": [0-9]*, //' "$1"; }
field() { # field FILE KEY: KEY of every record, one per line
	python3 -c 'import json,sys; [print(json.dumps(json.loads(l).get(sys.argv[2]))) for l in open(sys.argv[1])]' "$1" "$2"
}

# ---- the forward run: cpu and sim ------------------------------------------

# laws FILE: the --law options of FILE's row in t/tile/options.tsv
laws() { sample_opts "$1" | grep -oE -- '--law [^ ]+'; }

for f in t/tile/*.py; do
	n=$(basename "$f" .py)
	# shellcheck disable=SC2046
	set -- $(laws "$f")
	krun "$@" "$f" >"$TMP/$n.cpu.json" 2>"$TMP/err"
	is "$n: krun on cpu" "$?:$(cat "$TMP/err")" "0:"
	krun "$@" --device sim "$f" >"$TMP/$n.sim.json" 2>"$TMP/err"
	is "$n: krun on sim (blocks of 64 threads as cooperating fibers)" "$?:$(cat "$TMP/err")" "0:"
	is "$n: cpu's and sim's records are the same bytes but device and block_dim (the same sum trees)" \
		"$(strip "$TMP/$n.cpu.json")" "$(strip "$TMP/$n.sim.json")"
	ok "$n: the outputs, worked out from the inputs in float32 (cpu)" $CHECK tiles "$TMP/$n.cpu.json"
	ok "$n: the inputs follow the tiled law: arrays 16 times the grid" $CHECK law "$TMP/$n.cpu.json" --ir "$f" "$@"
done
is "block_dim: 1 on cpu" "$(field "$TMP/gemm.cpu.json" block_dim) $(field "$TMP/scale.cpu.json" block_dim)" "1 1"
is "... 64 on sim" "$(field "$TMP/gemm.sim.json" block_dim) $(field "$TMP/scale.sim.json" block_dim)" "64 64"
is "dim is the grid: 4 along each index wp.tid() gives" \
	"$(field "$TMP/gemm.cpu.json" dim) $(field "$TMP/scale.cpu.json" dim)" "[4, 4] 4"
is "keys in order: block_dim right after dim" \
	"$(python3 -c 'import json,sys; print(list(json.loads(open(sys.argv[1]).readline())))' "$TMP/scale.sim.json")" \
	"['kernel', 'device', 'dim', 'block_dim', 'seed', 'inputs', 'outputs']"
is "arrays 16 times the grid: A is 64x64, x 64" \
	"$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["inputs"]["A"]; x=json.load(open(sys.argv[2]))["inputs"]["x"]; print(len(a), len(a[0]), len(x))' "$TMP/gemm.cpu.json" "$TMP/scale.cpu.json")" \
	"64 64 64"

# --dim, --shape and --block-dim
krun --device sim --dim 3x5 --block-dim 48 t/tile/gemm.py >"$TMP/g35.json"
ok "--dim 3x5 --block-dim 48: the product over a grid of 3x5 blocks" $CHECK tiles "$TMP/g35.json"
is "... dim [3, 5], block_dim 48, A 48x80" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["dim"], r["block_dim"], len(r["inputs"]["A"]), len(r["inputs"]["A"][0]))' "$TMP/g35.json")" \
	"[3, 5] 48 48 80"
krun --dim 3x5 --shape A=30x20 --shape B=20x21 t/tile/gemm.py >"$TMP/gshape.json"
ok "--shape: A 30x20 (a partial k-tile and row tile), B 20x21" $CHECK tiles "$TMP/gshape.json"
ok "... and the law with those shapes" $CHECK law "$TMP/gshape.json" --ir t/tile/gemm.py --shape A=30x20 --shape B=20x21

for f in t/tile/*.py; do
	n=$(basename "$f" .py)
	# shellcheck disable=SC2046
	set -- $(laws "$f")
	for b in 1 32 64; do
		krun --device sim --block-dim $b "$@" "$f" | strip /dev/stdin >"$TMP/$n.b$b"
	done
	krun --device sim --grid 1x64 "$@" "$f" | strip /dev/stdin >"$TMP/$n.g1"
	is "$n: sim at --block-dim 1, 32 and 64, and on one block (--grid 1x64, a grid-stride loop): the same" \
		"$(md5sum <"$TMP/$n.b1") $(md5sum <"$TMP/$n.b32") $(md5sum <"$TMP/$n.g1")" \
		"$(md5sum <"$TMP/$n.b64") $(md5sum <"$TMP/$n.b64") $(md5sum <"$TMP/$n.b64")"
done

# i, lane = wp.tid() over a grid of one dimension: lane is the thread
krun --dim 4 t/tile/lane.py >"$TMP/lane1.cpu.json"
for b in 1 32 64; do
	krun --device sim --dim 4 --block-dim $b t/tile/lane.py >"$TMP/lane1.b$b.json"
done
ok "lane_sum over a grid of 4 (lane: the thread of the block): the sums" $CHECK tiles "$TMP/lane1.b32.json"
is "... lane 0 writes them at every block_dim, and the cpu (lane always 0) too" \
	"$(strip "$TMP/lane1.b1.json" | md5sum) $(strip "$TMP/lane1.b32.json" | md5sum) $(strip "$TMP/lane1.b64.json" | md5sum)" \
	"$(strip "$TMP/lane1.cpu.json" | md5sum) $(strip "$TMP/lane1.cpu.json" | md5sum) $(strip "$TMP/lane1.cpu.json" | md5sum)"

# the entries' ABI in given code: kemit-cpu's and kemit-cu's
kparse t/tile/gemm.py -o "$TMP/gemm.kir" && kemit-cpu "$TMP/gemm.kir" >"$TMP/gemm.c" &&
	kemit-cu "$TMP/gemm.kir" >"$TMP/gemm.cu"
krun "$TMP/gemm.kir" "$TMP/gemm.c" >"$TMP/gemm.given.json"
same_file "krun FILE.kir CODE.c (kemit-cpu's tiled entry, dim0, dim1, dim2) is krun FILE.py" \
	"$TMP/gemm.given.json" "$TMP/gemm.cpu.json"
krun "$TMP/gemm.kir" "$TMP/gemm.cu" >"$TMP/gemm.givencu.json"
same_file "krun FILE.kir CODE.cu on sim too" "$TMP/gemm.givencu.json" "$TMP/gemm.sim.json"
krun --device sim --bench 1 t/tile/scale.py >"$TMP/bench.json"
is "--bench: block_dim and the grid of one block per grid index" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["dim"], r["block_dim"], r["grid"])' "$TMP/bench.json")" \
	"4 64 4x64"

# a kernel not on tiles is unchanged by any of it
S=samples/arithmetic/saxpy_rational.py
krun --device sim $S >"$TMP/plain.json"
krun --device sim --block-dim 32 $S >"$TMP/plain32.json"
same_file "--block-dim changes nothing for kernels not on tiles" "$TMP/plain32.json" "$TMP/plain.json"
ok "... whose records have no block_dim" sh -c "! grep -q block_dim '$TMP/plain.json'"
cat t/tile/scale.py >"$TMP/mixed.py"
cat >>"$TMP/mixed.py" <<'EOF'


@wp.kernel
def plain(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * 2.0
EOF
krun --device sim "$TMP/mixed.py" >"$TMP/mixed.json"
is "a module with a kernel on tiles and one not: the tiled law for the first only" \
	"$(python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print([(x["kernel"], x["dim"], x.get("block_dim"), len(x["inputs"]["x"])) for x in r])' "$TMP/mixed.json")" \
	"[('scale_sum', 4, 64, 64), ('plain', 16, None, 16)]"

# ---- sim's checks on the tiles' shared memory -------------------------------

kparse t/tile/scale.py -o "$TMP/scale.kir" && kemit-cu "$TMP/scale.kir" >"$TMP/scale.cu"
ok "kemit-cu's shared tiles and barriers run on sim as kemit-cu wrote them" \
	krun "$TMP/scale.kir" "$TMP/scale.cu"
sed '/r_tree\[k\] += r_tree\[k + span\]/{n;s/__syncthreads();/\/\/ (no barrier)/}' "$TMP/scale.cu" >"$TMP/race.cu"
L=$(grep -n 'r_tree\[k\] += r_tree\[k + span\]' "$TMP/race.cu" | cut -d: -f1)
krun "$TMP/scale.kir" "$TMP/race.cu" >"$TMP/race.out" 2>"$TMP/race.err"
is "the sum's tree without the barrier in its loop: exit 1, no record" "$?:$(wc -c <"$TMP/race.out")" "1:0"
ok "... a data race on the tree, located at the line of the CUDA" \
	grep -qE "^$TMP/race.cu:$L:13: error: data race on shared r_tree\[[0-9]+\] in kernel scale_sum, block 0: thread [0-9]+ (reads|writes) it at line $L and thread [0-9]+ (reads|writes) it at line $L, with no barrier between" "$TMP/race.err"
L=$(grep -n '__syncthreads();  // line 19' "$TMP/gemm.cu" | cut -d: -f1)
sed "${L}s/__syncthreads();/\/\/ (no barrier)/" "$TMP/gemm.cu" >"$TMP/nobar.cu"
krun "$TMP/gemm.kir" "$TMP/nobar.cu" >"$TMP/nobar.out" 2>"$TMP/nobar.err"
is "the product without the barrier after its loads: exit 1, no record" "$?:$(wc -c <"$TMP/nobar.out")" "1:0"
ok "... thread 0 reads a tile element no thread has loaded yet, located" \
	grep -qE "nobar.cu:[0-9]+:[0-9]+: error: in kernel tile_gemm, block 0: thread 0 reads shared a\[1\], which no thread of the block has written" "$TMP/nobar.err"

# ---- the backward pass ------------------------------------------------------

for f in t/tile/*.py; do
	n=$(basename "$f" .py)
	# shellcheck disable=SC2046
	set -- $(laws "$f")
	krun "$@" --grad "$f" >"$TMP/$n.gcpu.json" 2>"$TMP/err"
	is "$n: --grad on cpu" "$?:$(cat "$TMP/err")" "0:"
	krun "$@" --grad --device sim "$f" >"$TMP/$n.gsim.json" 2>"$TMP/err"
	is "$n: --grad on sim" "$?:$(cat "$TMP/err")" "0:"
	ok "$n: cpu and sim gradients agree" $CHECK agree "$TMP/$n.gcpu.json" "$TMP/$n.gsim.json" --rel 1e-6
	ok "$n: seed_adj and grads as documented, the seeds by the law" \
		sh -c "$CHECK grads '$TMP/$n.gcpu.json' && $CHECK law '$TMP/$n.gcpu.json' --ir '$f' $*"
	# (a finite difference per component, each a launch: under the
	# sanitizers on a busy machine more than krun's default minute; the
	# launch is options.tsv's, the smaller grid where it gives one)
	# shellcheck disable=SC2046
	krun $(sample_opts "$f") --timeout 900 --gradcheck "$f" >"$TMP/$n.fd.json" 2>"$TMP/err"
	is "$n: --gradcheck passes on cpu (every kernel)" \
		"$?:$(field "$TMP/$n.fd.json" gradcheck | grep -o '"ok": [a-z]*' | sort -u)" '0:"ok": true' ||
		diag "$(head -c 1000 "$TMP/err")"
done
krun --gradcheck --device sim --block-dim 32 --dim 2x2 t/tile/gemm.py >"$TMP/gemm.fdsim.json" 2>"$TMP/err"
is "tile_gemm: --gradcheck on sim at --block-dim 32, a grid of 2x2 (differences on the cpu's blocks of one)" \
	"$?:$(field "$TMP/gemm.fdsim.json" gradcheck | grep -o '"ok": [a-z]*')" '0:"ok": true'
krun --grad --dim 4 t/tile/lane.py >"$TMP/lane1.gcpu.json"
krun --grad --device sim --dim 4 t/tile/lane.py >"$TMP/lane1.gsim.json" 2>"$TMP/err"
is "lane_sum over a grid of 4: --grad on sim (the barriers stand outside the if on lane)" "$?" 0 || diag "$(cat "$TMP/err")"
ok "... and its gradients agree with the cpu's" $CHECK agree "$TMP/lane1.gcpu.json" "$TMP/lane1.gsim.json" --rel 1e-6

# ---- errors -----------------------------------------------------------------

status() { # status WANT DESC PATTERN krun-args...: exit WANT, stderr matching PATTERN, empty stdout
	local want=$1 desc=$2 pat=$3
	shift 3
	krun "$@" >"$TMP/out" 2>"$TMP/err"
	local st=$?
	if [ $st = "$want" ] && grep -q -- "$pat" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		t_result 0 "$desc"
	else
		t_result 1 "$desc"
		diag "krun $* exited $st (want $want); stderr:" "$(head -c 2000 "$TMP/err")" "stdout: $(head -c 300 "$TMP/out")"
	fi
}
status 2 "--block-dim 0: status 2, a value out of its range" "--block-dim 0: want an integer in \[1, 1024\]" \
	--device sim --block-dim 0 t/tile/scale.py
status 2 "--block-dim=1025" "--block-dim 1025: want an integer in \[1, 1024\]" --block-dim=1025 t/tile/scale.py
status 1 "--grid 2x32 with --block-dim 64: status 1, the kernel named" \
	"--grid 2x32: kernel scale_sum is on tiles: its blocks have --block-dim 64 threads, not 32" \
	--device sim --grid 2x32 --block-dim 64 t/tile/scale.py
status 1 "a grid of 4 dimensions" "--dim 2x2x2x2: kernel tile_gemm is on tiles: its grid has at most 3 dimensions" \
	--dim 2x2x2x2 t/tile/gemm.py
cat >"$TMP/three.py" <<'EOF'
import warp as wp


@wp.kernel
def cube(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i, j, k = wp.tid()
    t = wp.tile_load(x, shape=(2, 2), offset=(i * 2, j * 2 + k))
    wp.tile_store(y, t, offset=(i * 2, j * 2 + k))
EOF
status 1 "three indices from wp.tid() over a grid of one dimension: the kernel named" \
	"kernel cube reads 3 indices from wp.tid(), more than its tiled launch has: a grid of 4 and the block's threads" \
	--dim 4 "$TMP/three.py"
krun --device sim --dim 4x2 "$TMP/three.py" >"$TMP/three.json" 2>"$TMP/err"
is "... over a grid of two, k is the thread of the block" "$?:$(field "$TMP/three.json" dim)" "0:[4, 2]"

is "no temporary file is left behind" "$(ls -A "$TMPDIR")" ""
# ---- a tile of three dimensions --------------------------------------------

cube="--dim 2x2x2 --shape a=4x4x4 --shape b=4x4x4"
# shellcheck disable=SC2086
krun --gradcheck $cube t/emit/tiles_cube.py >"$TMP/cube.fd.json" 2>"$TMP/err"
is "cube: --gradcheck on cpu" "$?:$(field "$TMP/cube.fd.json" gradcheck | grep -o '"ok": [a-z]*')" '0:"ok": true'
# shellcheck disable=SC2086
krun --grad --device sim $cube t/emit/tiles_cube.py >"$TMP/cube.sim.json" 2>"$TMP/err"
is "cube: --grad on sim" "$?" 0 || diag "$(cat "$TMP/err")"
# shellcheck disable=SC2086
krun --grad $cube t/emit/tiles_cube.py >"$TMP/cube.cpu.json"
ok "cube: cpu and sim agree" $CHECK agree "$TMP/cube.cpu.json" "$TMP/cube.sim.json" --rel 1e-6

# ---- a tile of each thread's value, launched over threads (--untiled) ----------

th="--dim 256 --block-dim 64 --untiled --kernel damp samples/tile/threads.py"
# shellcheck disable=SC2086
krun --grad $th >"$TMP/th.cpu.json" 2>"$TMP/err"
is "wp.tile(x) --untiled on cpu: a block of one, untiled in the record" \
	"$?:$(field "$TMP/th.cpu.json" block_dim):$(field "$TMP/th.cpu.json" untiled)" "0:1:true"
# shellcheck disable=SC2086
krun --grad --device sim $th >"$TMP/th.sim.json" 2>"$TMP/err"
is "... on sim: blocks of 64 threads in a row" "$?:$(field "$TMP/th.sim.json" block_dim)" "0:64" ||
	diag "$(cat "$TMP/err")"
ok "... cpu and sim agree, forward and gradients" $CHECK agree "$TMP/th.cpu.json" "$TMP/th.sim.json" --rel 1e-5
# shellcheck disable=SC2086
krun --gradcheck --device sim $th >"$TMP/th.fd.json" 2>"$TMP/err"
is "... --gradcheck on sim" "$?:$(field "$TMP/th.fd.json" gradcheck | grep -o '"ok": [a-z]*')" '0:"ok": true'
status 1 "--untiled over threads that are not whole blocks: the kernel named" \
	"--untiled: the launch's 100 threads of kernel damp are not whole blocks of --block-dim 64" \
	--device sim --dim 100 --untiled --kernel damp samples/tile/threads.py
status 1 "--untiled of a kernel not on tiles" "--untiled: kernel" --untiled samples/arithmetic/quantize.py
kparse samples/tile/threads.py | kemit-cu --block-dim=32 >"$TMP/th32.cu"
ok "kemit-cu --block-dim=32: the tile of each thread's value has 32 elements" grep -q "__shared__ float t\[32\];" "$TMP/th32.cu"
kparse samples/tile/threads.py | kemit-cu >"$TMP/th64.cu"
ok "... 64 by default, set by each thread at its own element" grep -q "t\[threadIdx.x\] = xi;" "$TMP/th64.cu"
# tile_randf and tile_randi draw as Warp's tiles do: each thread from
# pcg(its lane + rng), its elements in turn.  On the CPU (a block of one)
# those are Warp's CPU draws (t/warp/samples.t compares samples/tile/random.py);
# in sim and CUDA they depend on block_dim as Warp's GPU draws do: the
# values below are those Warp's documentation of wp.tile_randi gives for a
# GPU, seed 42, a 2x2 grid of 2x2 tiles, blocks of 8 threads.
cat >"$TMP/draws.py" <<'PY'
import warp as wp


@wp.kernel
def draws(seed: int, out: wp.array2d(dtype=int)):
    bi, bj = wp.tid()
    state = wp.rand_init(seed, 2 * bi + bj)
    wp.tile_store(out, wp.tile_randi(shape=(2, 2), rng=state), offset=(2 * bi, 2 * bj))
PY
krun --device sim --dim 2x2 --block-dim 8 --set seed=42 --shape out=4x4 "$TMP/draws.py" >"$TMP/draws.json" 2>"$TMP/err"
is "wp.tile_randi on sim in blocks of 8: Warp's GPU draws" "$?:$(field "$TMP/draws.json" outputs)" \
	'0:{"out": [[798497746, 1803297529, -955788638, 17806966], [1788185933, 1320194893, 2073257406, -2009156320], [-257534450, -1138585923, 1145322783, -321794125], [-2096177388, -1835610841, 1159339128, -652221052]]}' ||
	diag "$(cat "$TMP/err")"
krun --device cpu --dim 2x2 --block-dim 8 --set seed=42 --shape out=4x4 "$TMP/draws.py" >"$TMP/draws.cpu.json" &&
	krun --device sim --dim 2x2 --block-dim 1 --set seed=42 --shape out=4x4 "$TMP/draws.py" >"$TMP/draws.sim1.json"
is "... on the cpu, a block of one, sim's draws in blocks of one" "$?:$(strip "$TMP/draws.cpu.json")" "0:$(strip "$TMP/draws.sim1.json")"
ok "... which are not those of blocks of 8" test "$(field "$TMP/draws.cpu.json" outputs)" != "$(field "$TMP/draws.json" outputs)"

cat >"$TMP/cube.kir" <<'EOF'
ksynth-ir 1

kernel @k(%a: float[]) !1:1 {
  %i: int = tid !2:5
  %x: float = load %a, %i !3:5
  %t: tile(float,block,block,block) = make %x !4:5
  %s: tile(float,1) = tile_sum %t !5:5
  tile_store %a, %s, 0 !6:5
}
EOF
kemit-cu --block-dim=32 "$TMP/cube.kir" >"$TMP/c32.cu"
is "a tile of three block extents in blocks of 32: 32768 elements" "$?:$(grep -c '__shared__ float t\[32 \* 32 \* 32\]' "$TMP/c32.cu")" "0:1"
kemit-cu -o "$TMP/c64.cu" "$TMP/cube.kir" 2>"$TMP/err"
is "... in blocks of 64, over 65536: status 1, the kernel named, no output" "$?:$(cat "$TMP/err"):$(ls "$TMP/c64.cu" 2>/dev/null)" \
	"1:kemit-cu: kernel k (line 1): its tile(float,block,block,block) would hold more than 65536 elements in blocks of 64 threads:"
done_testing
