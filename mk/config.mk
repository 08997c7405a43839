# config.mk: build folder, compilers and flags.
#   O=DIR      build folder (default build, or build/san with SAN=1)
#   SAN=1      build and test with AddressSanitizer and UBSan
#   V=1        print full commands
#   PREFIX=, DESTDIR=  for `make install`

SHELL := /bin/bash
SAN ?=
ifeq ($(SAN),1)
O ?= build/san
else
O ?= build
endif

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
RE2C ?= re2c
LEMON ?= lemon
LEMPAR ?= /usr/share/lemon/lempar.c
PREFIX ?= /usr/local

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?= -O2 -g
KS_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -I. -I$(O)/gen
ifeq ($(SAN),1)
KS_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
KS_LDFLAGS += -fsanitize=address,undefined
endif
KS_LDLIBS := -lm

ifeq ($(V),1)
Q :=
msg = @:
else
Q := @
msg = @printf '  %-7s %s\n' $(1) $(2);
endif
