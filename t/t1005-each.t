#!/bin/bash
# --each LIST (lib/args.c): kparse, kfmt, kdiff and the emitters run once
# per `IN OUT` line in one process; each OUT holds the bytes a single run
# writes, the status lines say `OUT ok` or `OUT error: REASON` with the
# single run's first error line, a bad file fails alone, and a malformed
# list is a located error before anything runs.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
S=$T_ROOT/samples
cp "$S"/arithmetic/saxpy_rational.py "$S"/loop/*.py "$S"/vector/triangles.py .
cp "$T_ROOT/t/errors/bad-dedent.py" .
py=$(ls ./*.py | grep -v bad-dedent | sed 's|^\./||')

# kparse: the good files and a bad one in the middle
: >parse.list
for f in $py; do
	echo "$f ${f%.py}.kir" >>parse.list
	[ "$f" = saxpy_rational.py ] && echo "bad-dedent.py bad-dedent.kir" >>parse.list
done
echo "# a comment, then a blank line" >>parse.list
echo >>parse.list
kparse --each parse.list >parse.status 2>parse.err
is "kparse --each with a bad file exits 1" "$?" 1
is "... a status line per line" "$(wc -l <parse.status | tr -d ' ')" "$(grep -c '\.kir$' parse.list)"
want=$(kparse bad-dedent.py 2>&1 | grep -m1 -v '^[[:space:]]*$')
is "... the bad file's reason is a single run's first error line" \
	"$(grep '^bad-dedent.kir ' parse.status)" "bad-dedent.kir error: $want"
ok "... its messages on stderr" grep -q 'bad-dedent.py:' parse.err
ok "... no output for it" test ! -e bad-dedent.kir
bad=""
for f in $py; do
	grep -qx "${f%.py}.kir ok" parse.status || bad="$bad $f:status"
	kparse "$f" -o one.kir
	cmp -s one.kir "${f%.py}.kir" || bad="$bad $f"
done
is "... the others ok, each the bytes of a single kparse (differ:$bad)" "$bad" ""
is "... in list order" "$(cut -d' ' -f1 parse.status | tr '\n' ' ')" \
	"$(grep '\.kir$' parse.list | cut -d' ' -f2 | tr '\n' ' ')"

# kfmt --hash, kdiff, kemit-cpu, kemit-cu on the IR
for tool in "kfmt --hash" kdiff kemit-cpu kemit-cu; do
	: >t.list
	for f in $py; do echo "${f%.py}.kir ${f%.py}.out" >>t.list; done
	# shellcheck disable=SC2086
	$tool --each t.list >t.status 2>t.err
	is "$tool --each exits 0" "$?" 0
	bad=""
	for f in $py; do
		grep -qx "${f%.py}.out ok" t.status || bad="$bad $f:status"
		# shellcheck disable=SC2086
		$tool "${f%.py}.kir" -o one.out
		cmp -s one.out "${f%.py}.out" || bad="$bad $f"
	done
	is "... each OUT the bytes of a single $tool (differ:$bad)" "$bad" ""
done

echo "nosuch.kir x.out" >miss.list
kdiff --each miss.list >miss.status 2>/dev/null
is "a missing input fails" "$?" 1
is "... with the single run's message" "$(cat miss.status)" \
	"x.out error: $(kdiff nosuch.kir 2>&1 | head -n 1)"

# a malformed list: a located error, nothing run
for l in "a.py b.kir c" "a.py" "- b.kir" "a.py -"; do
	printf 'saxpy_rational.py s.kir\n%s\n' "$l" >bad.list
	rm -f s.kir
	kparse --each bad.list >bad.out 2>bad.err
	is "list line '$l': exit 1" "$?" 1
	ok "... a located error" grep -q '^bad.list:2:[0-9]*: error: an --each line' bad.err
	ok "... nothing run" test ! -e s.kir -a ! -s bad.out
done
printf 'saxpy_rational.py s.kir\nsaxpy_rational.py t.kir\0x\n' >nul.list
kparse --each nul.list >bad.out 2>bad.err
is "a NUL byte in the list: exit 1" "$?" 1
ok "... a located error" grep -q '^nul.list:2:24: error: a NUL byte' bad.err
ok "... nothing run" test ! -e s.kir -a ! -s bad.out
# with stderr closed the children's messages still make the reasons
kdiff --each miss.list >closed.status 2>&-
is "--each with stderr closed: the reason is still the message" "$(cat closed.status)" \
	"x.out error: $(kdiff nosuch.kir 2>&1 | head -n 1)"
for args in "--each parse.list saxpy_rational.py" "--each parse.list -o x.kir"; do
	# shellcheck disable=SC2086
	kparse $args >/dev/null 2>bad.err
	is "kparse $args: exit 2" "$?" 2
	ok "... with the usage" grep -q '^usage: kparse' bad.err
done
done_testing
