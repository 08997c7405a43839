# dataset.mk: `make dataset`, the verified dataset build (doc/dataset.md).
#
#   make dataset N=1000 DEVICE=cpu|cuda|all SEED=1 CATEGORIES=all
#                SHARD=50 CHECK=full|compile|none OUT=dataset/<device>
#                NVRTC=auto|require GNUPLOT=gnuplot (the card's plots)
#                NEAR=0.7|none DECONTAM=none|warp|DIR
#                [DS_JOBS=nproc, the shards built at once when make has no -j]
#
# A Make graph over shards.  Shard K holds kernels [K*SHARD, (K+1)*SHARD);
# each step of it is a file in the work folder WORK/K/ (gen.st, parse.st,
# diff.st, emit.st, check.st: mk/dataset.sh) that depends on the step
# before and on the tool that makes it, then WORK/K.rec, the shard's
# records (kpack shard).  The parameters that change bytes (SEED,
# CATEGORIES, DEVICE, CHECK, SHARD) name the work folder
# $(O)/dataset/<hash>, so different sets never mix; N only says how many
# shards: N plus a margin for rejects and duplicates (MARGIN, default
# N/2+16 kernels; N/4+8 with NEAR=none).  kgen's near duplicates grow
# with N: 1% of 100 kernels, 10% of 1,000, 26% of 10,000, 41% of 50,000
# (bench/near.sh), so from about 30,000 on MARGIN must grow too: kpack
# assemble says so when it runs short.  kpack assemble takes the first N good kernels in index
# order, so OUT's bytes do not depend on SHARD or -j.
#
# NEAR (default 0.7) is the similarity at which a kernel near-duplicates
# an earlier one and is dropped (kpack assemble --near, pack/near.h),
# none to keep them.  DECONTAM=DIR drops the kernels as like one of the
# .py files under DIR as well, DECONTAM=warp those like one of Warp's own
# examples and tests (warp/examples and warp/tests of the warp-lang that
# mk/warp.mk installs, the kernels a model is likely evaluated on): their
# signatures (kpack signatures) go to WORK/reference-<cksum>.sig.

# The tools' version: a hash of the sources of every tool but kpack,
# kverify and krun, i.e. of what makes a record's source, IR and code.
# kpack records it in stats.json and kverify compares its own with it
# (make verify): $(O)/gen/version.h, rewritten only when it changes.
KS_VERSION_SRC := $(sort $(wildcard $(foreach d,$(filter-out pack runtime,$(SRCDIRS)),$(d)/*.[ch] $(d)/*.re $(d)/*.y)))
KS_VERSION := $(shell cat $(KS_VERSION_SRC) | sha256sum | cut -c1-16)
$(O)/gen/version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '#define KS_VERSION "$(KS_VERSION)"' | cmp -s - $@ || echo '#define KS_VERSION "$(KS_VERSION)"' >$@
$(O)/obj/pack/kpack.o $(O)/obj/pack/verify_shard.o $(O)/obj/pack/verify_report.o: $(O)/gen/version.h

ifneq ($(filter dataset dataset-%,$(MAKECMDGOALS)),)

N ?= 1000
DEVICE ?= cpu
SEED ?= 1
CATEGORIES ?= all
SHARD ?= 50
CHECK ?= full
OUT ?= dataset/$(DEVICE)
NEAR ?= 0.7
DECONTAM ?= none
ifeq ($(NEAR),none)
MARGIN ?= $(shell echo $$(( $(N) / 4 + 8 )))
else
MARGIN ?= $(shell echo $$(( $(N) / 2 + 16 )))
endif

ifeq ($(filter $(DEVICE),cpu cuda all),)
$(error DEVICE=$(DEVICE): cpu, cuda or all)
endif
ifeq ($(filter $(CHECK),full compile none),)
$(error CHECK=$(CHECK): full, compile or none)
endif
NVRTC ?= auto
GNUPLOT ?= gnuplot
ifeq ($(filter $(NVRTC),auto require),)
$(error NVRTC=$(NVRTC): auto or require)
endif

# The tools: those of this build, made first if need be; a test points
# DATASET_BIN at a private copy so that nothing is rebuilt under it.
DATASET_BIN ?= $(O)/bin
DS_PARAMS := seed=$(SEED) categories=$(CATEGORIES) device=$(DEVICE) check=$(CHECK) shard=$(SHARD)
DATASET_WORK ?= $(O)/dataset
DS_WORK := $(DATASET_WORK)/$(shell printf '%s' '$(DS_PARAMS)' | cksum | tr ' ' -)
DS_NSHARD := $(shell echo $$(( ($(N) + $(MARGIN) + $(SHARD) - 1) / $(SHARD) )))
DS_SHARDS := $(shell seq 0 $$(( $(DS_NSHARD) - 1 )))
DS_RECS := $(DS_SHARDS:%=$(DS_WORK)/%.rec)
DS_T0 := $(shell date +%s.%N)
# The run that makes the shards (mk/dataset.sh progress): its name in
# WORK/.run, its log WORK/.progress emptied, as this make reads the
# makefiles: the make that builds, once the tools are built.
ifneq ($(filter dataset-build dataset-shards,$(MAKECMDGOALS)),)
$(shell mkdir -p $(DS_WORK) && echo '$(DS_T0)-'$$PPID >$(DS_WORK)/.run && : >$(DS_WORK)/.progress)
endif
# (the gnuplot found, if any, is one of them: once installed, it draws the plots)
DS_OUTPARAMS := n=$(N) margin=$(MARGIN) out=$(OUT) $(DS_PARAMS) near=$(NEAR) decontam=$(DECONTAM) gnuplot=$(shell command -v $(GNUPLOT))
DS_OUTKEY := $(DATASET_WORK)/out-$(shell printf '%s' '$(abspath $(OUT))' | cksum | tr ' ' -)
DS_ENV := KS_BIN=$(abspath $(DATASET_BIN)) DS_ROOT=$(CURDIR) DS_NSHARD=$(DS_NSHARD) DS_SEED=$(SEED) DS_CATS=$(CATEGORIES) DS_DEVICE=$(DEVICE) DS_CHECK=$(CHECK)
DS_KPACK := --seed $(SEED) --cats $(CATEGORIES) --device $(DEVICE) --check $(CHECK)

# NVRTC compiles the CUDA code in the check step (DEVICE=cuda or all,
# CHECK=full or compile): the one krun finds (doc/runtime.md), which
# `make dataset` first installs from PyPI into the build folder when there
# is no CUDA toolkit (mk/deps.mk).  With none, NVRTC=auto (the default)
# checks the CUDA code on sim alone, says so in one line and in the
# records; NVRTC=require stops.  The make that builds (dataset-build, made
# by `make dataset` once the tools and the install are done) asks krun
# which NVRTC as it reads this file: `NVRTC 13.0` or `none` goes to the
# check step (DS_NVRTC) and to $(DS_WORK)/nvrtc, rewritten only when it
# changes, on which the check steps depend: another NVRTC, or one where
# there was none, checks the shards again.
DS_NVRTC_USE := $(and $(filter-out cpu,$(DEVICE)),$(filter-out none,$(CHECK)))
DS_NVRTC :=
ifneq ($(DS_NVRTC_USE),)
ifneq ($(and $(filter dataset-build dataset-shards,$(MAKECMDGOALS)),$(wildcard $(DATASET_BIN)/krun)),)
DS_NVRTC_SAYS := $(shell $(DATASET_BIN)/krun --nvrtc 2>&1)
ifeq ($(.SHELLSTATUS),0)
DS_NVRTC := $(subst :,,$(wordlist 1,2,$(DS_NVRTC_SAYS)))
else
DS_NVRTC := none
DS_NVRTC_WHY := $(subst krun: --nvrtc: ,,$(DS_NVRTC_SAYS))$(if $(wildcard $(NVRTC_WHY)),; $(subst ksynth: ,,$(file <$(NVRTC_WHY))))
ifeq ($(NVRTC),require)
$(error make dataset: NVRTC=require, and there is no NVRTC: $(DS_NVRTC_WHY))
endif
$(info make dataset: no NVRTC ($(DS_NVRTC_WHY)): the CUDA code is checked on sim alone, not compiled by NVRTC, and its records say so (NVRTC=require stops instead))
endif
$(shell mkdir -p $(DS_WORK) && echo '$(DS_NVRTC)' | cmp -s - $(DS_WORK)/nvrtc || echo '$(DS_NVRTC)' >$(DS_WORK)/nvrtc)
endif
endif
DS_ENV += DS_NVRTC='$(DS_NVRTC)' DS_NVRTC_MODE=$(NVRTC)

LAUNCH ?=
ifneq ($(filter $(LAUNCH),local srun slurm),$(LAUNCH))
$(error LAUNCH=$(LAUNCH): empty (or local), srun or slurm)
endif
# DS_RUN prefixes every command that works on one shard.  With srun, each
# is a job step of one task on one CPU (--exact: only what it asks for, so
# make -j's steps run side by side; --mem=0: the job's memory, shared).
ifeq ($(LAUNCH),srun)
ifeq ($(SLURM_JOB_ID),)
$(error LAUNCH=srun runs the shards as job steps of an allocation: run make inside salloc or sbatch, or use LAUNCH=slurm)
endif
SRUN ?= srun
SRUN_ARGS ?=
DS_RUN := $(SRUN) --exact --ntasks=1 --cpus-per-task=1 --mem=0 --input=none --quiet $(SRUN_ARGS)
endif

.PHONY: dataset dataset-build dataset-shards
ifeq ($(LAUNCH),slurm)
dataset: dataset-submit
else
# Shards build side by side: without -j, `make dataset` runs itself again
# with -j$(DS_JOBS) (the CPUs this process may use); an explicit -jN,
# -j1 included, is kept.  (make 4.3 reads -j only from its command line.)
DS_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
DS_TOOLS := $(addprefix $(DATASET_BIN)/,kgen kparse kfmt kdiff kemit-cpu kemit-cu krun kpack)
dataset: $(DS_TOOLS) $(if $(DS_NVRTC_USE),$(NVRTC_STAMP))
	$(Q)$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(DS_JOBS)) dataset-build
dataset-build: $(OUT)/timing.json
endif
SHARDS ?= $(DS_SHARDS)
dataset-shards: $(SHARDS:%=$(DS_WORK)/%.rec)

# $(call ds_step,STEP,PREV-FILE,TOOLS): one step of every shard
define ds_step
$(DS_WORK)/%/$(1).st: $(2) $(3) mk/dataset.sh
	$$(Q)$$(DS_ENV) $$(DS_RUN) sh mk/dataset.sh $(1) $$(@D) $$$$(( $$* * $(SHARD) )) $(SHARD)
endef
$(eval $(call ds_step,gen,,$(DATASET_BIN)/kgen $(DATASET_BIN)/krun $(wildcard runtime/*.h)))
$(eval $(call ds_step,parse,$(DS_WORK)/%/gen.st,$(DATASET_BIN)/kparse $(DATASET_BIN)/kfmt))
$(eval $(call ds_step,diff,$(DS_WORK)/%/parse.st,$(DATASET_BIN)/kdiff))
$(eval $(call ds_step,emit,$(DS_WORK)/%/diff.st,$(DATASET_BIN)/kemit-cpu $(DATASET_BIN)/kemit-cu))
$(eval $(call ds_step,check,$(DS_WORK)/%/emit.st,$(DATASET_BIN)/krun $(wildcard runtime/*.h) $(if $(DS_NVRTC_USE),$(DS_WORK)/nvrtc)))

# (written as the makefile is read; made here only where krun was not there then)
$(DS_WORK)/nvrtc:
	$(Q)mkdir -p $(@D) && echo '$(or $(DS_NVRTC),unknown)' >$@

# (`: dataset-shard K` marks the shards that `make -n` would remake: mk/slurm.mk)
$(DS_WORK)/%.rec: $(DS_WORK)/%/check.st $(DATASET_BIN)/kpack
	$(Q): dataset-shard $*
	$(Q)sh mk/dataset.sh started $(DS_WORK)/$*
	$(Q)$(DS_RUN) $(DATASET_BIN)/kpack shard --dir $(DS_WORK)/$* $(DS_KPACK) -o $@

.SECONDARY: $(foreach s,gen parse diff emit check,$(DS_SHARDS:%=$(DS_WORK)/%/$(s).st))

# Everything that names OUT's content; rewritten only when it changes.
$(DS_OUTKEY).params: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(DS_OUTPARAMS)' | cmp -s - $@ || echo '$(DS_OUTPARAMS)' >$@

# the reference kernels' signatures (DECONTAM), remade when a file of
# DIR changes, or Warp's version
ifneq ($(DECONTAM),none)
DS_REF := $(DATASET_WORK)/reference-$(shell printf '%s' '$(abspath $(DECONTAM))' | cksum | tr ' ' -).sig
ifeq ($(DECONTAM),warp)
DS_REF_NAME := Warp $(WARP_VERSION)'s examples and tests
$(DS_REF): $(WARP_STAMP) $(DATASET_BIN)/kpack
	$(Q)[ -f $(WARP_STAMP) ] || { echo "make dataset: DECONTAM=warp, and there is no Warp: $$(cat $(WARP_SKIP))" >&2; exit 1; }
	$(Q)mkdir -p $(@D) && w=$$($(WARP_PY) -c 'import os, warp; print(os.path.dirname(warp.__file__))') && \
		find "$$w/examples" "$$w/tests" -name '*.py' | LC_ALL=C sort >$@.list && \
		xargs $(DATASET_BIN)/kpack signatures -o $@ <$@.list
else
ifeq ($(wildcard $(DECONTAM)/.),)
$(error DECONTAM=$(DECONTAM): a folder of Warp modules, warp or none)
endif
DS_REF_NAME := $(DECONTAM)
DS_REF_PY := $(shell find $(DECONTAM) -name '*.py' | LC_ALL=C sort)
$(DS_REF): $(DS_REF_PY) $(DATASET_BIN)/kpack
	$(Q)mkdir -p $(@D)
	$(Q)$(DATASET_BIN)/kpack signatures -o $@ $(DS_REF_PY)
endif
DS_ASSEMBLE := --reference $(DS_REF) --reference-name "$(DS_REF_NAME)"
endif

$(OUT)/timing.json: $(DS_RECS) $(DATASET_BIN)/kpack $(DS_OUTKEY).params mk/dataset.gp $(DS_REF)
	$(Q)[ ! -t 2 ] || printf '\n' >&2
	$(call msg,PACK,$(OUT))
	$(Q)mkdir -p $(OUT)/data
	$(Q)GNUPLOT=$(GNUPLOT) sh mk/dataset.sh assemble $(OUT) $(DS_WORK) $(CHECK) $(DATASET_BIN)/kpack assemble --n $(N) --out $(OUT) $(DS_KPACK) --near $(NEAR) $(DS_ASSEMBLE) $(DS_RECS)
	$(Q)awk -v t0=$(DS_T0) -v t1=$$(date +%s.%N) -v r=$$(cat $(OUT)/data/*.jsonl | wc -l) -v s=$(DS_NSHARD) \
		'BEGIN { t = t1 - t0; rps = 0; if (t > 0) rps = r / t; printf "{\"seconds\": %.3f, \"records\": %d, \"records_per_second\": %.2f, \"shards\": %d}\n", t, r, rps, s }' \
		>$(OUT)/timing.json.tmp && mv $(OUT)/timing.json.tmp $(OUT)/timing.json
	$(Q)echo "dataset: $$(cat $(OUT)/data/*.jsonl | wc -l) records in $(OUT)"

endif

# make verify DATASET=DIR [SHARD=50] [-jN] [VERIFY_WORK=DIR] [VERIFY_JSON=FILE] [RUN_FOREIGN=1]
#
# re-checks every record of the dataset in DIR with this build's tools
# (kverify, doc/dataset.md): `kverify index` reads the dataset into the
# work folder VERIFY_WORK (default $(O)/verify/<cksum of DIR and SHARD>),
# a folder per shard of SHARD kernels whose files change only when their
# records do; a Make graph runs `kverify shard` on each (-j as make
# dataset: without -j, VF_JOBS at once, default nproc), then `kverify
# report` prints the failures and the summary, writes VERIFY_JSON
# (default DIR/verify.json) and fails unless every record passed.  A
# second run re-checks only the shards whose records, the tools or what
# this machine has (NVRTC, a GPU) changed.  A record's code that is not
# what these tools make of its IR is not run, unless RUN_FOREIGN=1 (then
# confined, as krun runs all code).
ifneq ($(filter verify verify-%,$(MAKECMDGOALS)),)
ifeq ($(DATASET),)
$(error make verify: say which dataset: DATASET=DIR, e.g. DATASET=dataset/cuda)
endif
SHARD ?= 50
DATASET_BIN ?= $(O)/bin
VERIFY_WORK ?= $(O)/verify/$(shell printf '%s' '$(abspath $(DATASET)) $(SHARD)' | cksum | tr ' ' -)
VERIFY_JSON ?= $(DATASET)/verify.json
VF_TOOLS := $(addprefix $(DATASET_BIN)/,kgen kparse kfmt kdiff kemit-cpu kemit-cu krun kverify)
VF_ARGS := --work $(VERIFY_WORK) --bin $(abspath $(DATASET_BIN))
VF_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# the CUDA code's compile check wants NVRTC, installed as make dataset does
VF_CUDA := $(filter cuda all,$(patsubst "%",%,$(lastword $(shell grep -o '"device": "[a-z]*"' $(DATASET)/stats.json 2>/dev/null))))

.PHONY: verify verify-build
verify: $(VF_TOOLS) $(if $(VF_CUDA),$(NVRTC_STAMP))
	$(call msg,INDEX,$(DATASET))
	$(Q)$(DATASET_BIN)/kverify index $(VF_ARGS) --shard $(SHARD) $(if $(filter 1,$(RUN_FOREIGN)),--run-foreign) $(DATASET)
	$(Q)$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(VF_JOBS)) verify-build

ifneq ($(filter verify-build,$(MAKECMDGOALS)),)
VF_SHARDS := $(file <$(VERIFY_WORK)/shards)
$(shell echo "$$(date +%s.%N)-$$PPID" >$(VERIFY_WORK)/.run && : >$(VERIFY_WORK)/.progress)
endif
VF_VERS := $(VF_SHARDS:%=$(VERIFY_WORK)/%.ver)
verify-build: $(VF_VERS)
	$(Q)[ ! -t 2 ] || printf '\n' >&2
	$(Q)$(DATASET_BIN)/kverify report $(VF_ARGS) --json $(VERIFY_JSON) $(DATASET)

$(VERIFY_WORK)/%.ver: $(VERIFY_WORK)/%/index.st $(VERIFY_WORK)/env $(VF_TOOLS) $(wildcard runtime/*.h)
	$(Q)sh mk/dataset.sh started $(VERIFY_WORK)/$* costly
	$(Q)$(DATASET_BIN)/kverify shard $(VF_ARGS) $*
	$(Q)KS_BIN=$(abspath $(DATASET_BIN)) sh mk/dataset.sh progress VERIFY $* $(VERIFY_WORK) \
		$$(grep -c . $(VERIFY_WORK)/$*/index.st) %.ver %/index.st $(VF_SHARDS)
endif
