# Link faults (contract §18, issue 14): the network-level fault tests and the
# link-fault table of docs/results.md (Reliability). The switch-level tests
# are in cmodel/tests/test_link_fault.c (make test-cmodel).
#   make test-faults   sw/test_net_faults.py on $(BUILD)/net/asw (about 20 s)
#   make study-faults  the table, build/study-faults/table.md (about 2 min)
.PHONY: test-faults study-faults
test-faults: $(BUILD)/net/asw
	@$(PYTHON) sw/test_net_faults.py $(BUILD)/net/asw
TEST_TARGETS += test-faults
study-faults: $(BUILD)/asw
	@$(PYTHON) sw/study_faults.py $(BUILD)/asw $(BUILD)/study-faults
