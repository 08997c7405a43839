# tools.mk: the library every tool links, and the tools.
# A tool is one file named k<tool>.c holding main() in one of the source
# folders; every other .c there goes into $(O)/libksynth.a, but for a
# tool's own files (OWN_SRC_<tool>).

SRCDIRS := lib ir grammar diff gen emit runtime pack
TOOL_SRC := $(foreach d,$(SRCDIRS),$(wildcard $(d)/k*.c))
# A tool's own files, linked into it alone, so that changing one relinks
# no other tool (and so remakes no dataset): kverify's steps.
OWN_SRC_kverify := $(wildcard pack/verify_*.c)
# keval: its steps, and the helpers it shares with kverify
OWN_SRC_keval := pack/verify_util.c $(wildcard pack/eval_*.c)
OWN_SRC := $(OWN_SRC_kverify) $(OWN_SRC_keval)
LIB_SRC := $(filter-out $(TOOL_SRC) $(OWN_SRC),$(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c)))
TOOLS := $(notdir $(basename $(TOOL_SRC)))
LIB_OBJ := $(LIB_SRC:%.c=$(O)/obj/%.o)
ifneq ($(wildcard grammar/parser.y),)
LIB_OBJ += $(GEN_SRC:.c=.o)
endif
BIN := $(TOOLS:%=$(O)/bin/%)
LIB := $(O)/libksynth.a

.PHONY: all clean install
all: $(BIN)

# Every object waits for the generated parser header (token codes).
GEN_HDR := $(if $(wildcard grammar/parser.y),$(O)/gen/parser.h)

$(O)/obj/%.o: %.c | $(O)/.deps-ok $(GEN_HDR)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(KS_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# $(call tool_rule,NAME,SOURCE): link one tool.
define tool_rule
$(O)/bin/$(1): $(O)/obj/$(2:.c=.o) $$(OWN_SRC_$(1):%.c=$(O)/obj/%.o) $(LIB)
	$$(call msg,LD,$$@)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(KS_LDFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(KS_LDLIBS)
endef
$(foreach t,$(TOOL_SRC),$(eval $(call tool_rule,$(notdir $(basename $(t))),$(t))))

clean:
	rm -rf $(O)

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/ksynth
	cp $(BIN) $(DESTDIR)$(PREFIX)/bin/
	cp $(wildcard runtime/ks*.h) $(DESTDIR)$(PREFIX)/include/ksynth/

-include $(shell find $(O)/obj $(O)/gen -name '*.d' 2>/dev/null)
