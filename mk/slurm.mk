# slurm.mk: `make dataset LAUNCH=slurm`, the dataset's shards as a Slurm
# job array (README "Running on a cluster"; mk/slurm.sh does the work).
#
#   make dataset N=100000 LAUNCH=slurm [SLURM_ARGS='-p cpu -A proj -t 1:00:00']
#                [SLURM_TASKS=1000] [SLURM_PARALLEL=K]
#   make dataset-status N=100000 ...    the same parameters: what is done,
#                                       running, failed, and how to retry
#
# On the login node: the tools are made (once, here), then `make -n` over
# every shard's K.rec says which shards are missing or out of date (the
# marker `: dataset-shard K` of the K.rec recipe, mk/dataset.mk); those go
# into one job array, each task running `make dataset-shards SHARDS=K` on
# the shared filesystem, and an assembly job that depends on the array
# (afterok) runs the plain `make dataset`, which finds every K.rec made
# and only assembles OUT.  A resubmission (the same command) leaves out
# the shards that are done or still queued or running, so it retries the
# failed ones alone.  At most SLURM_TASKS array tasks (MaxArraySize is
# 1001 by default): with more shards, each task makes several in turn.
# SLURM_PARALLEL=K lets at most K tasks run at once (--array=...%K).
# SLURM_ARGS go to both sbatch calls.  Jobs' state is kept in
# $(DS_WORK)/slurm/: per submission S, S.shards (the shard of each task)
# and S.jobs; per shard, log/K.log (its latest make output) and
# log/K.failed (why its latest attempt failed).
#
#   make check-slurm    t/t6101-dataset-slurm.t on a single-node cluster
#                       that it starts on localhost (installing slurm-wlm
#                       and munge first if need be: mk/deps.sh slurm)

.PHONY: check-slurm
check-slurm: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) KS_CHECK_SLURM=1 \
		$(PROVE) $(PROVE_FLAGS) t/t6101-dataset-slurm.t

ifneq ($(filter dataset dataset-%,$(MAKECMDGOALS)),)

SBATCH ?= sbatch
SLURM_ARGS ?=
SLURM_TASKS ?= 1000
SLURM_PARALLEL ?=

# What a job's make needs to see the same graph: every parameter.  The
# jobs' tools are a copy of DATASET_BIN's, taken at submission into
# $(DS_WORK)/slurm/bin (modification times kept, so Make judges the shards
# by them as by the originals): a plain folder that no rule makes, so no
# job ever rebuilds a tool, and a rebuild here during the run changes no
# job's tools; mk/slurm.sh adds DATASET_BIN= for it.
DS_MAKEARGS := 'O=$(O)' 'SAN=$(SAN)' 'N=$(N)' 'MARGIN=$(MARGIN)' 'SEED=$(SEED)' \
	'CATEGORIES=$(CATEGORIES)' 'DEVICE=$(DEVICE)' 'CHECK=$(CHECK)' 'SHARD=$(SHARD)' \
	'OUT=$(OUT)' 'DATASET_WORK=$(DATASET_WORK)' 'NVRTC=$(NVRTC)' 'NEAR=$(NEAR)' 'DECONTAM=$(DECONTAM)'
DS_TOOLS := $(addprefix $(DATASET_BIN)/,kgen kparse kfmt kdiff kemit-cpu kemit-cu krun kpack)
DS_SLURM := DS_MAKE='$(MAKE)' DS_BIN='$(abspath $(DATASET_BIN))' SBATCH='$(SBATCH)' \
	SLURM_ARGS='$(SLURM_ARGS)' SLURM_TASKS='$(SLURM_TASKS)' SLURM_PARALLEL='$(SLURM_PARALLEL)' \
	sh mk/slurm.sh

.PHONY: dataset-submit dataset-status dataset-current
dataset-submit: $(DS_TOOLS) mk/slurm.sh $(if $(DS_NVRTC_USE),$(NVRTC_STAMP))
	$(Q)$(DS_SLURM) submit $(DS_WORK) $(OUT) -- $(DS_MAKEARGS)

dataset-status:
	$(Q)$(DS_SLURM) status $(DS_WORK) $(OUT) $(DS_NSHARD) -- $(DS_MAKEARGS)

# exits 0 when OUT is current: assembled after every K.rec and tool, with
# these parameters (mk/slurm.sh asks)
dataset-current:
	$(Q)test -e $(OUT)/timing.json && echo '$(DS_OUTPARAMS)' | cmp -s - $(DS_OUTKEY).params && \
		test -z "$$(find $(DS_RECS) $(DATASET_BIN)/kpack mk/dataset.gp -newer $(OUT)/timing.json 2>/dev/null)"

endif
