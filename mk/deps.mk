# deps.mk: what the build, the tests and `make dataset` need, installed by
# mk/deps.sh (which says what each package is for).
#
#   make deps        the Debian packages of the build and the tests, and
#                    NVRTC for DEVICE=cuda: the CUDA toolkit's, else PyPI's
#                    wheel installed into $(NVRTC_DIR), where krun looks
#   make deps-list   what `make deps` would install, and why; installs nothing
#
# Every other goal first makes $(O)/.deps-ok, which is included below as a
# makefile: make then reads the makefiles again once the packages are in,
# so what they look for as they are read (libtcc.h, gnuplot, the C
# compiler's target) is found on a fresh machine too, on the first run.
# Not make format and check-format (mk/format.mk): they need clang-format
# alone.

NVRTC_DIR ?= $(O)/nvrtc
DEPS_ENV = NVRTC_DIR=$(NVRTC_DIR)

.PHONY: deps deps-list
deps:
	$(Q)sh mk/deps.sh build
	$(Q)$(DEPS_ENV) sh mk/deps.sh nvrtc
deps-list:
	$(Q)$(DEPS_ENV) sh mk/deps.sh -n build nvrtc

# Stamp: the check ran and passed for this build folder.
$(O)/.deps-ok: mk/deps.sh
	$(Q)sh mk/deps.sh build
	$(Q)mkdir -p $(@D) && touch $@

ifneq ($(filter-out clean deps deps-list format check-format,$(or $(MAKECMDGOALS),all)),)
include $(O)/.deps-ok
endif

# NVRTC for make dataset DEVICE=cuda (mk/dataset.mk), installed once: a
# failed install (no network) is no error here, and says nothing; its
# reason is left in $(NVRTC_WHY) for make dataset's one line, and the next
# run tries again.  The reason is one line with no newline at its end:
# make 4.3's $(file <) does not always drop that newline (it kept it in
# make dataset, which then said why there was no NVRTC on two lines).
NVRTC_STAMP := $(O)/nvrtc.stamp
NVRTC_WHY := $(O)/nvrtc.why
$(NVRTC_STAMP): mk/deps.sh
	$(Q)mkdir -p $(@D); if $(DEPS_ENV) sh mk/deps.sh nvrtc >$(NVRTC_WHY).out 2>$(NVRTC_WHY).tmp; then \
		cat $(NVRTC_WHY).out; rm -f $(NVRTC_WHY) $(NVRTC_WHY).*; touch $@; \
	else tr -s '\n' ' ' <$(NVRTC_WHY).tmp | sed 's/ *$$//' >$(NVRTC_WHY).1 && mv $(NVRTC_WHY).1 $(NVRTC_WHY); \
		rm -f $(NVRTC_WHY).out $(NVRTC_WHY).tmp; fi
