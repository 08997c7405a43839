# deps.mk: `make deps` installs the Debian packages the build and the tests
# need (mk/deps.sh says which).  The build runs the same check itself before
# it first needs a generator, so a fresh machine needs only `make check`.

.PHONY: deps
deps:
	$(Q)sh mk/deps.sh build

# Stamp: the check ran and passed for this build folder.
$(O)/.deps-ok: mk/deps.sh
	$(Q)sh mk/deps.sh build
	$(Q)mkdir -p $(@D) && touch $@
