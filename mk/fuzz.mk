# fuzz.mk: libFuzzer harnesses for the source front end and the IR reader.
#   make fuzz FUZZ_SECONDS=60     runs each harness that long
#   make fuzz FUZZ_RUNS=1000000   runs each harness that many inputs
# The library is rebuilt with clang and -fsanitize=fuzzer-no-link,address,
# undefined into $(O)/fuzz; the seed corpus is samples/ (and their IR).

FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_LIMIT := $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS))
FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -I. -I$(O)/gen -g -O1 \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_OBJ := $(LIB_SRC:%.c=$(O)/fuzz/obj/%.o) $(GEN_SRC:$(O)/gen/%.c=$(O)/fuzz/obj/gen/%.o)
FUZZERS := front ir

.PHONY: fuzz fuzz-build
.SECONDARY: $(FUZZ_OBJ)
fuzz-build: $(FUZZERS:%=$(O)/fuzz/fuzz-%)

$(O)/fuzz/.deps-ok: mk/deps.sh
	$(Q)sh mk/deps.sh fuzz
	$(Q)mkdir -p $(@D) && touch $@

$(O)/fuzz/obj/gen/%.o: $(O)/gen/%.c | $(O)/fuzz/.deps-ok
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -Igrammar -c -o $@ $<

$(O)/fuzz/obj/%.o: %.c | $(O)/fuzz/.deps-ok $(GEN_HDR)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

$(O)/fuzz/fuzz-%: t/fuzz/fuzz-%.c $(FUZZ_OBJ)
	$(call msg,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ -lm

# Seed corpus: every sample and error case, and for the IR reader the
# samples' IR and the IR error cases.
$(O)/fuzz/corpus-front/.stamp: $(wildcard samples/*/*.py t/errors/*.py)
	$(Q)mkdir -p $(@D) && cp $^ $(@D)/ && touch $@
$(O)/fuzz/corpus-ir/.stamp: $(wildcard samples/*/*.kir t/ir/*.kir t/ir-errors/*.kir)
	$(Q)mkdir -p $(@D) && cp $^ $(@D)/ && touch $@

fuzz: fuzz-build $(FUZZERS:%=$(O)/fuzz/corpus-%/.stamp)
	$(Q)for f in $(FUZZERS); do \
		echo "fuzz-$$f: $(FUZZ_LIMIT)"; \
		$(O)/fuzz/fuzz-$$f $(FUZZ_LIMIT) -max_len=65536 \
			-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(O)/fuzz/ $(O)/fuzz/corpus-$$f \
			2>&1 | grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|Done' ; \
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
