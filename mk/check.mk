# check.mk: `make check` runs the TAP suite in t/ with prove, against the
# tools of this build folder (so `make check SAN=1` tests sanitized tools).

PROVE ?= prove
PROVE_FLAGS ?= -j2

.PHONY: check
check: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		$(PROVE) $(PROVE_FLAGS) t/

# make check-bare: the README's two commands, `make dataset` (N=BARE_N,
# default 100, DEVICE=cuda) and `make check`, run as root in a minimal
# Debian 12 root that debootstrap builds afresh, with nothing installed by
# hand (mk/bare.sh).  Needs root and the network (Debian's mirror, PyPI).
.PHONY: check-bare
check-bare:
	$(Q)bash mk/bare.sh $(O)
