# eval.mk: scoring a model's kernels by running them (keval, doc/eval.md).
#
#   make eval DATASET=DIR PRED=FILE [EVAL_SEED=S] [EVAL_JSON=FILE] [EVAL_TIMEOUT=S]
#   make eval-prompts DATASET=DIR [SPLIT=test] [PROMPTS=FILE]
#
# eval: every sample of PRED (JSONL, {"id", "field", "completion"}) run by
# krun, confined, beside its record's own code; the scores in EVAL_JSON
# (default DIR/eval.json) and a summary.  EVAL_SEED fixes the inputs and
# launches the evaluation draws (else they differ from run to run).
# eval-prompts: what a model is given per record of SPLIT and field, one
# JSON line each, into PROMPTS (default DIR/prompts-SPLIT.jsonl).
ifneq ($(filter eval eval-prompts,$(MAKECMDGOALS)),)
ifeq ($(DATASET),)
$(error make $(filter eval eval-prompts,$(MAKECMDGOALS)): say which dataset: DATASET=DIR, e.g. DATASET=dataset/cuda)
endif
EVAL_BIN ?= $(O)/bin
EVAL_JSON ?= $(DATASET)/eval.json
SPLIT ?= test
PROMPTS ?= $(DATASET)/prompts-$(SPLIT).jsonl
EV_TOOLS := $(addprefix $(EVAL_BIN)/,krun keval)
endif

.PHONY: eval eval-prompts
eval: $(EV_TOOLS)
	$(if $(PRED),,$(error make eval: say which predictions: PRED=FILE (JSONL; make eval-prompts writes the prompts)))
	$(Q)$(EVAL_BIN)/keval --bin $(abspath $(EVAL_BIN)) --json $(EVAL_JSON) \
		$(if $(EVAL_SEED),--seed $(EVAL_SEED)) $(if $(EVAL_TIMEOUT),--timeout $(EVAL_TIMEOUT)) $(DATASET) $(PRED)

eval-prompts: $(EV_TOOLS)
	$(Q)$(EVAL_BIN)/keval --prompts --split $(SPLIT) $(DATASET) >$(PROMPTS).tmp && mv $(PROMPTS).tmp $(PROMPTS) \
		|| { rm -f $(PROMPTS).tmp; exit 1; }
	$(Q)echo "$(PROMPTS): $$(grep -c . $(PROMPTS)) prompts"
