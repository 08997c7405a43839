# grammar.mk: re2c and lemon generate the front end's lexer and parser
# into $(O)/gen.  Generated C is never edited and never committed.

GEN_SRC := $(O)/gen/lexer.c $(O)/gen/parser.c

# One lemon run makes both files (a grouped target, so that make -j never
# runs it twice at once); lemon leaves an unchanged parser.h untouched, so
# it is touched here or it would look out of date for ever.
$(O)/gen/parser.c $(O)/gen/parser.h &: grammar/parser.y | $(O)/.deps-ok
	$(call msg,LEMON,$<)
	$(Q)mkdir -p $(O)/gen
	$(Q)$(LEMON) -q -l -d$(O)/gen -T$(LEMPAR) $<
	$(Q)touch $(O)/gen/parser.h

$(O)/gen/lexer.c: grammar/lexer.re | $(O)/.deps-ok
	$(call msg,RE2C,$<)
	$(Q)mkdir -p $(O)/gen
	$(Q)$(RE2C) -W -Werror --no-generation-date -o $@ $<

# The lexer includes the token codes lemon assigns.
$(O)/gen/lexer.o: $(O)/gen/parser.h

# Generated code gets the same warnings, less the unused-parameter ones
# lemon's template cannot avoid.
$(O)/gen/%.o: $(O)/gen/%.c
	$(call msg,CC,$<)
	$(Q)$(CC) $(KS_CFLAGS) -Wno-unused-parameter -Wno-missing-prototypes $(CFLAGS) -Igrammar -MMD -MP -c -o $@ $<
