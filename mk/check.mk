# check.mk: `make check` runs the TAP suite in t/ with prove, against the
# tools of this build folder (so `make check SAN=1` tests sanitized tools).

PROVE ?= prove
PROVE_FLAGS ?= -j2

.PHONY: check
check: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		$(PROVE) $(PROVE_FLAGS) t/
