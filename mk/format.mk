# format.mk: the layout of the C sources, .clang-format's, made and checked
# with clang-format 14 (Debian 12's clang-format; another version may lay
# some lines out otherwise).
#
#   make format          lay out every C file of the sources in place
#   make check-format    fail, listing the files whose layout differs
#                        (installing clang-format first if need be:
#                        mk/deps.sh format)
#   CLANG_FORMAT=PATH    another clang-format (then nothing is installed)
#
# The files: the C of the source folders, t/fuzz's harness and t/text's
# check.  Not what the build generates (under $(O)), not grammar/'s re2c
# and lemon input, not t/'s other C: emitted code that tests compare byte for byte.  Tables
# laid out by hand sit between /* clang-format off */ and
# /* clang-format on */.  Neither goal needs the build's packages.

CLANG_FORMAT ?= clang-format
FORMAT_SRC := $(wildcard $(SRCDIRS:%=%/*.[ch]) t/fuzz/*.[ch] t/text/*.[ch])

# one line, and a failure, when there is no clang-format to run
FORMAT_HAVE = command -v $(CLANG_FORMAT) >/dev/null 2>&1 || { echo "ksynth: no $(CLANG_FORMAT) \
	(Debian's clang-format, 14: make check-format installs it, or CLANG_FORMAT=PATH)" >&2; exit 1; }

.PHONY: format check-format
format:
	$(Q)$(FORMAT_HAVE)
	$(Q)$(CLANG_FORMAT) -i $(FORMAT_SRC)

# --dry-run -Werror: an error at the first line of each file that differs
check-format: $(if $(filter clang-format,$(CLANG_FORMAT)),$(O)/format/.deps-ok)
	$(Q)$(FORMAT_HAVE)
	$(Q)out=$$($(CLANG_FORMAT) --dry-run -Werror --ferror-limit=1 $(FORMAT_SRC) 2>&1); st=$$?; \
	bad=$$(printf '%s\n' "$$out" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u); \
	if [ -n "$$bad" ]; then \
		echo "ksynth: files not in .clang-format's layout (clang-format $$($(CLANG_FORMAT) --version | sed 's/.*version //; s/ .*//'); make format lays them out):" >&2; \
		printf '  %s\n' $$bad >&2; exit 1; \
	elif [ $$st != 0 ]; then printf '%s\n' "$$out" >&2; exit 1; fi

$(O)/format/.deps-ok: mk/deps.sh
	$(Q)sh mk/deps.sh format
	$(Q)mkdir -p $(@D) && touch $@
