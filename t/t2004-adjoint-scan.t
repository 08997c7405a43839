#!/bin/bash
# The backward code reads like an adjoint a person would write: in what
# both emitters print for every sample, every t/grad kernel and the
# kernels of kgen -c all -s 1 -n 1000, no backward function holds an
# empty block, a store that nothing reads or an adjoint zeroed after its
# last use (t/diff/scan.py); the backward thread functions of the
# generated kernels hold at most 3 times the code lines of the forward
# ones at the median, 10 times at the 99th percentile and 14 times at most
# (kgen's longest statements hold dozens of operations on one forward
# line, whose adjoints take a line each).  The scan finds such code where kdiff -O0 (the
# transform unsimplified) leaves it.  t/diff/golden/ holds the C and CUDA
# of three kernel files through kparse | kdiff | kemit-*, to read and to
# compare byte for byte; after an intended change to kdiff or the
# emitters, read the new output and regenerate them with
#     for py in samples/combined/particle_step.py samples/combined/polynomial.py \
#         t/diff/tape_loop.py; do b=t/diff/golden/$(basename $py .py)
#         kparse $py | kdiff >$b.kir; kemit-cpu -o $b.c $b.kir
#         kemit-cu -o $b.cu $b.kir; rm $b.kir; done
. "$(dirname "$0")/lib.sh"
SCAN="python3 t/diff/scan.py"

for py in samples/*/*.py t/grad/*.py; do
	kparse "$py" -o "$TMP/a.kir" 2>/dev/null && kdiff "$TMP/a.kir" -o "$TMP/b.kir" ||
		{ t_result 1 "kdiff $py"; continue; }
	kemit-cpu "$TMP/b.kir" -o "$TMP/b.c" && kemit-cu "$TMP/b.kir" -o "$TMP/b.cu" ||
		{ t_result 1 "emit $py"; continue; }
	ok "$py: backward code scans clean (C and CUDA)" $SCAN "$TMP/b.c" "$TMP/b.cu"
done

kgen -c all -s 1 -n 1000 -o "$TMP/g.py" && kparse "$TMP/g.py" -o "$TMP/g.kir" &&
	kdiff "$TMP/g.kir" -o "$TMP/g.d.kir" && kemit-cpu "$TMP/g.d.kir" -o "$TMP/g.c" &&
	kemit-cu "$TMP/g.d.kir" -o "$TMP/g.cu"
ok "1000 generated kernels: backward code scans clean (C and CUDA)" $SCAN "$TMP/g.c" "$TMP/g.cu"
$SCAN --lines "$TMP/g.cu" >"$TMP/lines"
read -r _ med _ max kernel < <(tail -1 "$TMP/lines")
p99=$(awk 'NF == 4 { print $4 }' "$TMP/lines" | sort -n | awk '{ v[NR] = $1 } END { print v[int(NR * 0.99)] }')
is "1000 generated kernels: median backward/forward code lines at most 3 (is $med)" \
	"$(awk -v m="$med" 'BEGIN { print (m <= 3) }')" 1
is "1000 generated kernels: 99th percentile of backward/forward code lines at most 10 (is $p99)" \
	"$(awk -v m="$p99" 'BEGIN { print (m <= 10) }')" 1
is "1000 generated kernels: largest backward/forward code lines at most 14 (is $max, $kernel)" \
	"$(awk -v m="$max" 'BEGIN { print (m <= 14) }')" 1

for py in samples/combined/particle_step.py samples/combined/polynomial.py t/diff/tape_loop.py; do
	b=t/diff/golden/$(basename "$py" .py)
	kparse "$py" | kdiff >"$TMP/g1.kir" && kemit-cpu "$TMP/g1.kir" -o "$TMP/g1.c" &&
		kemit-cu "$TMP/g1.kir" -o "$TMP/g1.cu"
	same_file "$py: kdiff | kemit-cpu == $b.c" "$TMP/g1.c" "$b.c"
	same_file "$py: kdiff | kemit-cu == $b.cu" "$TMP/g1.cu" "$b.cu"
done

# the scan finds what it looks for
kparse samples/loop/dynamic_loops.py -o "$TMP/d.kir" && kdiff -O0 "$TMP/d.kir" -o "$TMP/d0.kir" &&
	kemit-cu "$TMP/d0.kir" -o "$TMP/d0.cu"
$SCAN "$TMP/d0.cu" >"$TMP/found"
is "kdiff -O0: the scan reports (exit 1)" "$?" 1
for what in 'empty block' 'zeroing after last use' 'store that nothing reads'; do
	ok "kdiff -O0: the scan finds '$what'" grep -q "$what" "$TMP/found"
done
printf '%s\n' '// backward (adjoint) of @wp.kernel k, line 1' \
	'static void k_backward_thread(int tid, float *x, float *adj_x)' '{' \
	'    float a = x[tid];  // line 2' '    a = 2.0f * x[tid];  // line 3' \
	'    adj_x[tid] = a;  // line 4' '}' >"$TMP/over.c"
$SCAN "$TMP/over.c" >"$TMP/found"
ok "the scan finds a store overwritten before it is read" grep -q "overwritten before it is read (line 5)" "$TMP/found"
done_testing
