# runtime.mk: how krun is built, and `make check-cuda`.
#
# krun compiles emitted C in process with libtcc when the build finds
# /usr/include/libtcc.h (Debian's libtcc-dev, which `make deps` installs);
# without it krun falls back to the system C compiler at run time.  krun
# links libseccomp (Debian's libseccomp-dev, which `make deps` installs): the
# code it runs runs in a child confined by a seccomp filter.  NVRTC
# and the CUDA driver are never linked: krun opens them with dlopen, so
# nothing here needs a CUDA toolkit.  krun looks for NVRTC in the toolkit,
# then in $(NVRTC_DIR), where `make deps` installs PyPI's NVRTC when there
# is no toolkit (mk/deps.mk), then on the loader's path.
#
#   make check-cuda   compiles the forward and backward CUDA of every sample,
#                     t/grad case and 20 kgen kernels a category with NVRTC
#                     (and nvcc when there is one) and runs the cpu/cuda
#                     agreement, forward and backward, on the GPU (t/t4004
#                     and t/t41xx, which `make check` skips).  What the
#                     machine lacks is reported as TAP SKIP, except that
#                     where a GPU is visible (nvidia-smi -L lists one, or
#                     KS_REQUIRE_GPU=1) a GPU test that cannot run fails.

TCC_H := $(wildcard /usr/include/libtcc.h)
TCC_LIBDIR := $(firstword $(wildcard $(patsubst %,%/libtcc1.a,\
	/usr/lib/$(shell $(CC) -dumpmachine 2>/dev/null)/tcc /usr/lib/tcc /usr/local/lib/tcc)))

RUN_DEFS := -DKS_RUNTIME_SRC='"$(abspath runtime)"' -DKS_NVRTC_DIR='"$(abspath $(NVRTC_DIR))"'
ifneq ($(TCC_H),)
RUN_DEFS += -DKS_HAVE_LIBTCC
ifneq ($(TCC_LIBDIR),)
RUN_DEFS += -DKS_TCC_LIBDIR='"$(patsubst %/,%,$(dir $(TCC_LIBDIR)))"'
endif
KRUN_LIBS := -ltcc
endif

$(O)/obj/runtime/run_host.o $(O)/obj/runtime/run_cuda.o: KS_CFLAGS += $(RUN_DEFS)
# the flags are part of the objects: rebuild them when they change
$(O)/obj/runtime/run_host.o $(O)/obj/runtime/run_cuda.o: $(O)/runtime.flags
$(O)/runtime.flags: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(RUN_DEFS)' | cmp -s - $@ || echo '$(RUN_DEFS)' >$@
.PHONY: FORCE
FORCE:

# libseccomp: the filter of the child that runs the code (runtime/run_confine.c)
$(O)/bin/krun: KS_LDLIBS += $(KRUN_LIBS) -ldl -lseccomp
# kgen --verify runs krun with the runtime's temporary files and child
# handling (runtime/run_host.c), which brings libtcc's and dlopen's symbols
$(O)/bin/kgen: KS_LDLIBS += $(KRUN_LIBS) -ldl

# sim's precompiled headers (runtime/run_host.c): the shim and ksynth.h
# (with the runtime/ks_*.h it includes) in one header, precompiled by the
# C++ compiler krun runs by default, c++, when it is GCC, with the flags
# krun compiles with; none otherwise, and krun parses the headers on each
# compile as before.  Made again when any runtime/ks*.h header changes.
SIM_FLAGS := -std=c++17 -O0 -fno-builtin -ffp-contract=off -fno-fast-math -fPIC
SIM_PCH := $(O)/pch/ksynth_sim_all.h
all: $(SIM_PCH).stamp
# which c++ and flags: made again when either changes (g++ installed,
# upgraded, or other flags)
$(O)/pch/cxx.id: FORCE
	$(Q)mkdir -p $(@D)
	$(Q){ c++ --version 2>/dev/null | head -1; echo '$(SIM_FLAGS)'; } | cmp -s - $@ || \
		{ c++ --version 2>/dev/null | head -1; echo '$(SIM_FLAGS)'; } >$@
$(SIM_PCH).stamp: $(wildcard runtime/ks*.h) $(O)/pch/cxx.id
	$(call msg,PCH,$(SIM_PCH).gch)
	$(Q)mkdir -p $(@D) && rm -f $(SIM_PCH).gch $@
	$(Q)printf '#include "ksynth_sim.h"\n#include "ksynth.h"\n' >$(SIM_PCH)
	$(Q)if c++ -dM -E -x c++ /dev/null 2>/dev/null | grep -q __GNUC__ && \
		! c++ -dM -E -x c++ /dev/null | grep -q __clang__; then \
		c++ $(SIM_FLAGS) -I runtime -x c++-header -o $(SIM_PCH).gch.tmp $(SIM_PCH) && \
		mv $(SIM_PCH).gch.tmp $(SIM_PCH).gch; fi
	$(Q)touch $@

.PHONY: check-cuda
check-cuda: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) KS_CHECK_CUDA=1 \
		$(PROVE) $(PROVE_FLAGS) t/t4004-cuda.t $(sort $(wildcard t/t41*.t))
