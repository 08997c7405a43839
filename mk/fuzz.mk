# fuzz.mk: libFuzzer harnesses (t/fuzz/):
#   fuzz-front   the source front end (kparse)
#   fuzz-ir      the IR reader and verifier (print, read back, print)
#   fuzz-pipe    source -> kparse -> kdiff -> kemit-cpu and kemit-cu
#   fuzz-irpipe  IR -> kdiff -> kemit-cpu and kemit-cu
#   fuzz-gen     kgen's kernels (chosen by the input's bytes) -> the pipeline
#   fuzz-json    the strict JSON reader of kverify
#   fuzz-simcode krun's preparation of CUDA code for sim's blocks
#   fuzz-near    kpack's near-duplicate measure: kernels of a module, signatures
#   make fuzz FUZZ_SECONDS=60     runs each harness that long
#   make fuzz FUZZ_RUNS=1000000   runs each harness that many inputs
#   make fuzz FUZZERS=pipe        runs only the harnesses named
# Every object of the library is linked, runtime/run_confine.c's too,
# hence libseccomp.  Each input is bounded by -timeout=$(FUZZ_TIMEOUT) seconds (a hang is a
# finding).  The library is rebuilt with clang and -fsanitize=fuzzer-no-link,
# address,undefined into $(O)/fuzz; the seed corpus is samples/, the test
# inputs, and for the pipeline harnesses kernels kgen makes.

FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_LIMIT := $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS))
FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -I. -I$(O)/gen -g -O1 \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_OBJ := $(LIB_SRC:%.c=$(O)/fuzz/obj/%.o) $(GEN_SRC:$(O)/gen/%.c=$(O)/fuzz/obj/gen/%.o)
FUZZERS ?= front ir pipe irpipe
FUZZ_TIMEOUT ?= 10
FUZZ_GEN_N ?= 20

.PHONY: fuzz fuzz-build
.SECONDARY: $(FUZZ_OBJ)
fuzz-build: $(FUZZERS:%=$(O)/fuzz/fuzz-%)

$(O)/fuzz/.deps-ok: mk/deps.sh
	$(Q)sh mk/deps.sh fuzz
	$(Q)mkdir -p $(@D) && touch $@

# the objects depend on the headers they include (-MMD): a changed struct
# must not leave objects of the old layout behind
$(O)/fuzz/obj/gen/%.o: $(O)/gen/%.c | $(O)/fuzz/.deps-ok
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -Igrammar -MMD -MP -c -o $@ $<

$(O)/fuzz/obj/%.o: %.c | $(O)/fuzz/.deps-ok $(GEN_HDR)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -MMD -MP -c -o $@ $<

-include $(FUZZ_OBJ:%.o=%.d)

$(O)/fuzz/fuzz-%: t/fuzz/fuzz-%.c t/fuzz/pipeline.h $(FUZZ_OBJ)
	$(call msg,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $(filter %.c %.o,$^) -lm -ldl -lseccomp

# Seed corpus: every sample and error case, and for the IR reader the
# samples' IR and the IR error cases; the pipeline harnesses also start
# from the autodiff and emitter test inputs and $(FUZZ_GEN_N) kgen kernels
# a category (and their IR).
FUZZ_PY := $(wildcard samples/*/*.py t/errors/*.py t/grad/*.py t/emit/*.py t/struct/*.py)
FUZZ_KIR := $(wildcard samples/*/*.kir t/ir/*.kir t/ir-errors/*.kir t/emit/*.kir t/grad/*.kir t/struct/*.kir)
$(O)/fuzz/corpus-front/.stamp: $(wildcard samples/*/*.py t/errors/*.py t/struct/*.py)
	$(Q)mkdir -p $(@D) && for f in $^; do cp $$f $(@D)/$$(echo $$f | tr / _); done && touch $@
$(O)/fuzz/corpus-ir/.stamp: $(wildcard samples/*/*.kir t/ir/*.kir t/ir-errors/*.kir t/struct/*.kir)
	$(Q)mkdir -p $(@D) && for f in $^; do cp $$f $(@D)/$$(echo $$f | tr / _); done && touch $@
$(O)/fuzz/corpus-pipe/.stamp: $(FUZZ_PY) $(O)/bin/kgen
	$(Q)mkdir -p $(@D) && for f in $(FUZZ_PY); do cp $$f $(@D)/$$(echo $$f | tr / _); done
	$(Q)mkdir -p $(@D)/gen && $(O)/bin/kgen -c all -s 1 -n $$((10 * $(FUZZ_GEN_N))) --split $(@D)/gen >/dev/null
	$(Q)touch $@
$(O)/fuzz/corpus-irpipe/.stamp: $(FUZZ_KIR) $(O)/fuzz/corpus-pipe/.stamp $(O)/bin/kparse
	$(Q)mkdir -p $(@D) && for f in $(FUZZ_KIR); do cp $$f $(@D)/$$(echo $$f | tr / _); done
	$(Q)for py in $(@D)/../corpus-pipe/gen/*.py; do \
		$(O)/bin/kparse "$$py" >$(@D)/$$(basename "$$py" .py).kir 2>/dev/null || rm -f $(@D)/$$(basename "$$py" .py).kir; \
	done
	$(Q)touch $@

fuzz: fuzz-build $(FUZZERS:%=$(O)/fuzz/corpus-%/.stamp)
	$(Q)for f in $(FUZZERS); do \
		echo "fuzz-$$f: $(FUZZ_LIMIT)"; \
		$(O)/fuzz/fuzz-$$f $(FUZZ_LIMIT) -max_len=65536 \
			-timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(O)/fuzz/ $(O)/fuzz/corpus-$$f \
			2>&1 | grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|ERROR|SUMMARY|Done|timeout|deadly' ; \
		test $${PIPESTATUS[0]:-0} -eq 0 || exit 1; \
	done

# fuzz-json: the strict JSON reader that kverify reads a dataset with
# (pack/json.c), from JSON of the kinds a dataset holds (t/fuzz/json/).
# (The rules above read FUZZERS as they are read: its own prerequisites.)
FUZZERS += json
fuzz-build: $(O)/fuzz/fuzz-json
fuzz: $(O)/fuzz/corpus-json/.stamp
$(O)/fuzz/corpus-json/.stamp: $(wildcard t/fuzz/json/*.json)
	$(Q)mkdir -p $(@D) && cp $^ $(@D)/ && touch $@

# fuzz-near: the kernels of a module and their signatures, as kpack
# signatures and kpack shard find them (pack/near.c), from the samples
# and the error cases.
FUZZERS += near
fuzz-build: $(O)/fuzz/fuzz-near
fuzz: $(O)/fuzz/corpus-near/.stamp
$(O)/fuzz/corpus-near/.stamp: $(O)/fuzz/corpus-front/.stamp
	$(Q)mkdir -p $(@D) && cp $(@D)/../corpus-front/*.py $(@D)/ && touch $@

# fuzz-gen: kgen's kernels made in process from the input's bytes (the
# category mix, seed, index, count, knobs and draw: t/fuzz/fuzz-gen.c),
# through the pipeline; any rejection is a finding.  The seed corpus: for
# each category and for all, seeds 1 to 3 at a spread of indices.
FUZZERS += gen
fuzz-build: $(O)/fuzz/fuzz-gen
fuzz: $(O)/fuzz/corpus-gen/.stamp
$(O)/fuzz/corpus-gen/.stamp: mk/fuzz.mk
	$(Q)mkdir -p $(@D) && bash t/fuzz/gen-corpus.sh $(@D) && touch $@

# fuzz-simcode: krun's preparation of CUDA code for sim's cooperating
# blocks (runtime/run_sim.c), from the CUDA code of the tests.
FUZZERS += simcode
fuzz-build: $(O)/fuzz/fuzz-simcode
fuzz: $(O)/fuzz/corpus-simcode/.stamp
$(O)/fuzz/corpus-simcode/.stamp: $(wildcard t/run/*.cu t/run/blocks/*.cu)
	$(Q)mkdir -p $(@D) && for f in $^; do cp $$f $(@D)/$$(echo $$f | tr / _); done && touch $@
