#!/bin/bash
# A loop's backward keeps its checkpoints on a per-thread tape
# (doc/autodiff.md): a run that measures reports (n - 1) checkpoints of
# the loop state's words and touches nothing, and the gradient is the
# same, bit for bit, whatever the words the tape gives a thread, down to
# none (t/diff/tape.c on t/diff/tape_loop.py).  krun --tape bounds the
# tape: every sample and t/grad kernel whose backward has a tape gives
# the gradients of the unbounded tape with 0, 1, 2, 3 and 5 words a
# thread on cpu, and with 0 and 1 on sim.
. "$(dirname "$0")/lib.sh"

ok "t/diff/tape_loop.py: kparse | kdiff | kemit-cpu" \
	sh -c "kparse t/diff/tape_loop.py | kdiff | kemit-cpu -o '$TMP/tl.c'"
ok "t/diff/tape_loop.py: both backwards have a tape" \
	sh -c "test \$(grep -c 'ks_tape_open(tape, tid)' '$TMP/tl.c') = 2"
if ok "t/diff/tape.c compiles with it" cc -std=c11 -Wall -Wextra -Werror -O1 \
	-ffp-contract=off -I runtime -include "$TMP/tl.c" t/diff/tape.c -o "$TMP/tape" -lm; then
	"$TMP/tape" >"$TMP/tape.out" 2>&1
	st=$?
	while read -r word rest; do
		case $word in
		ok) t_result 0 "$rest" ;;
		*) t_result 1 "${rest#ok }" ;;
		esac
	done <"$TMP/tape.out"
	is "t/diff/tape.c exits 0" "$st" 0
fi

strip() { sed 's/"device": "[a-z]*"//'; }
for py in samples/*/*.py t/grad/*.py; do
	kparse "$py" 2>/dev/null | kdiff 2>/dev/null | grep -q tape_open || continue
	krun --device cpu --grad "$py" 2>/dev/null | strip >"$TMP/ref.json"
	grep -q '"grads"' "$TMP/ref.json" || { t_result 1 "$py: krun --grad prints gradients"; continue; }
	for words in 0 1 2 3 5; do
		krun --device cpu --grad --tape $words "$py" 2>&1 | strip >"$TMP/got.json"
		same_file "$py: cpu, --tape $words: the gradients of the unbounded tape" "$TMP/got.json" "$TMP/ref.json"
	done
	for words in 0 1; do
		krun --device sim --grad --tape $words "$py" 2>&1 | strip >"$TMP/got.json"
		same_file "$py: sim, --tape $words: the gradients of the unbounded tape (cpu)" "$TMP/got.json" "$TMP/ref.json"
	done
done
done_testing
