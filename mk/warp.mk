# warp.mk: differential tests against NVIDIA Warp (doc/warp-differences.md).
#
#   make check-warp     every sample, WARP_GEN_N generated kernels per
#                       category and the kernels of Warp's own examples that
#                       kparse accepts (those on tiles launched as
#                       t/warp/examples-tiles.tsv says): Warp accepts the module unchanged, its CPU
#                       forward outputs agree with krun's cpu and sim, and its
#                       adjoints with `krun --grad` where Warp's are exact;
#                       and make dataset DECONTAM=warp against Warp's kernels
#   make warp-venv      the virtual environment with Warp alone (other
#                       targets, a benchmark of Warp's codegen, depend on it)
#   make warp-differences  the per-kernel tables of doc/warp-differences.md
#   make warp-codesize  lines of Warp's and ksynth's forward/backward code per
#                       sample, as the table in doc/warp-differences.md
#
# Warp and numpy are installed with pip into $(O)/warp-venv at the versions
# pinned here, once (a stamp file records the versions); WARP_WHEELS=DIR
# installs them from the wheels in DIR instead of PyPI (a GPU machine with
# no registry: `pip download warp-lang==1.19.0 numpy==2.4.6 -d DIR`
# elsewhere, and carry DIR).  When pip cannot install them, $(WARP_SKIP)
# holds the reason and the tests report SKIP with it.  Warp's kernel cache
# is $(O)/warp-cache.

WARP_VERSION ?= 1.19.0
WARP_NUMPY_VERSION ?= 2.4.6
WARP_VENV := $(O)/warp-venv
WARP_PY := $(WARP_VENV)/bin/python
WARP_STAMP := $(WARP_VENV)/.stamp-warp-$(WARP_VERSION)-numpy-$(WARP_NUMPY_VERSION)
WARP_SKIP := $(O)/warp-venv.skip
WARP_CACHE := $(O)/warp-cache
WARP_GEN_N ?= 50
WARP_GEN_SEED ?= 1
WARP_WHEELS ?=
WARP_PIP_FROM := $(if $(WARP_WHEELS),--no-index --find-links $(abspath $(WARP_WHEELS)))

.PHONY: warp-venv check-warp warp-codesize warp-differences
warp-venv: $(WARP_STAMP)

# Never fails: a failed install leaves the reason in $(WARP_SKIP) and no
# stamp, so the next run tries again.
$(WARP_STAMP):
	$(call msg,VENV,$(WARP_VENV))
	$(Q)rm -f $(WARP_SKIP); mkdir -p $(O); \
	if ! out=$$(python3 -m venv $(WARP_VENV) 2>&1); then \
		echo "python3 -m venv failed: $$(echo "$$out" | tail -1)" >$(WARP_SKIP); \
	elif ! out=$$($(WARP_PY) -m pip install --disable-pip-version-check -q $(WARP_PIP_FROM) \
			warp-lang==$(WARP_VERSION) numpy==$(WARP_NUMPY_VERSION) 2>&1); then \
		echo "pip install warp-lang==$(WARP_VERSION) failed: $$(echo "$$out" | grep -v '^ *$$' | tail -1)" >$(WARP_SKIP); \
	else \
		rm -f $(WARP_VENV)/.stamp-warp-*; touch $@; \
	fi; \
	if [ -f $(WARP_SKIP) ]; then echo "warp-venv: $$(cat $(WARP_SKIP))" >&2; fi

check-warp: all warp-venv
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		WARP_PY=$(abspath $(WARP_PY)) WARP_SKIP=$(abspath $(WARP_SKIP)) \
		WARP_CACHE=$(abspath $(WARP_CACHE)) WARP_GEN_N=$(WARP_GEN_N) \
		WARP_GEN_SEED=$(WARP_GEN_SEED) $(PROVE) $(PROVE_FLAGS) t/warp/

warp-codesize: all warp-venv
	$(Q)KS_BIN=$(abspath $(O)/bin) WARP_CACHE=$(abspath $(WARP_CACHE)) \
		$(WARP_PY) t/warp/codesize.py samples/*/*.py

# The tables of doc/warp-differences.md, printed to paste into it.
warp-differences: all warp-venv
	$(Q)KS_BIN=$(abspath $(O)/bin) WARP_PY=$(abspath $(WARP_PY)) \
		WARP_SKIP=$(abspath $(WARP_SKIP)) WARP_CACHE=$(abspath $(WARP_CACHE)) \
		WARP_GEN_N=$(WARP_GEN_N) WARP_GEN_SEED=$(WARP_GEN_SEED) \
		bash t/warp/differences.sh
