# check.mk: `make check` runs the TAP suite in t/ with prove, against the
# tools of this build folder (so `make check SAN=1` tests sanitized tools).

PROVE ?= prove
PROVE_FLAGS ?= -j2

# The longest files first (`prove --timer`, plain and SAN=1), the rest in
# name order: with -j2 no long file starts last while the other job has
# nothing left to run.
CHECK_FIRST := $(wildcard t/t3001-emit-compile.t t/t6005-verify.t t/t2003-gradcheck.t t/t4030-tiles.t \
	t/t4006-batch.t t/t6007-eval.t t/t4013-types.t t/t4009-standin.t t/t4002-agree.t t/t5001-gen-run.t)
CHECK_TESTS := $(CHECK_FIRST) $(filter-out $(CHECK_FIRST),$(sort $(wildcard t/*.t)))

.PHONY: check
check: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		$(PROVE) $(PROVE_FLAGS) $(CHECK_TESTS)

# make check-scale: kgen's own kernels at scale (t/t9003-kgen-scale.t):
# SCALE_N kernels of `kgen -c all` for each seed of SCALE_SEEDS through
# kparse, kdiff, kemit-cpu and kemit-cu, two chunks at a time; fails on any
# crash, hang, non-zero exit or sanitizer report, naming the seed, the
# kernel and the command that reproduces it.  SCALE_N is 2,000 under SAN=1.
ifeq ($(SAN),1)
SCALE_N ?= 2000
else
SCALE_N ?= 20000
endif
SCALE_SEEDS ?= 1 2 3
SCALE_JOBS ?= 2

.PHONY: check-scale
check-scale: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		KS_SCALE_N=$(SCALE_N) KS_SCALE_SEEDS='$(SCALE_SEEDS)' KS_SCALE_JOBS=$(SCALE_JOBS) \
		$(PROVE) -v t/t9003-kgen-scale.t

# make check-bare: the README's two commands, `make dataset` (N=BARE_N,
# default 100, DEVICE=cuda) and `make check`, run as root in a minimal
# Debian 12 root that debootstrap builds afresh, with nothing installed by
# hand (mk/bare.sh).  Needs root and the network (Debian's mirror, PyPI).
.PHONY: check-bare
check-bare:
	$(Q)bash mk/bare.sh $(O)
