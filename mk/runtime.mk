# runtime.mk: how krun is built, and `make check-cuda`.
#
# krun compiles emitted C in process with libtcc when the build finds
# /usr/include/libtcc.h (Debian's libtcc-dev, which `make deps` installs);
# without it krun falls back to the system C compiler at run time.  NVRTC
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

$(O)/bin/krun: KS_LDLIBS += $(KRUN_LIBS) -ldl
# kgen --verify runs krun with the runtime's temporary files and child
# handling (runtime/run_host.c), which brings libtcc's and dlopen's symbols
$(O)/bin/kgen: KS_LDLIBS += $(KRUN_LIBS) -ldl


.PHONY: check-cuda
check-cuda: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) KS_CHECK_CUDA=1 \
		$(PROVE) $(PROVE_FLAGS) t/t4004-cuda.t $(sort $(wildcard t/t41*.t))
