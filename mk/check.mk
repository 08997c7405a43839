# check.mk: `make check` runs the TAP suite in t/ with prove, against the
# tools of this build folder (so `make check SAN=1` tests sanitized tools).

PROVE ?= prove
PROVE_FLAGS ?= -j2

# The longest files first (`prove --timer`, plain and SAN=1), the rest in
# name order: with -j2 no long file starts last while the other job has
# nothing left to run.
CHECK_FIRST := $(wildcard t/t3001-emit-compile.t t/t6005-verify.t t/t2003-gradcheck.t \
	t/t4009-standin.t t/t4006-batch.t t/t6001-dataset.t t/t2005-tape.t t/t4005-grad.t)
CHECK_TESTS := $(CHECK_FIRST) $(filter-out $(CHECK_FIRST),$(sort $(wildcard t/*.t)))

.PHONY: check
check: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		$(PROVE) $(PROVE_FLAGS) $(CHECK_TESTS)

# make check-bare: the README's two commands, `make dataset` (N=BARE_N,
# default 100, DEVICE=cuda) and `make check`, run as root in a minimal
# Debian 12 root that debootstrap builds afresh, with nothing installed by
# hand (mk/bare.sh).  Needs root and the network (Debian's mirror, PyPI).
.PHONY: check-bare
check-bare:
	$(Q)bash mk/bare.sh $(O)
