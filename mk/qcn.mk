# QCN congestion points and reaction points (contract §17.4, §17.5; seed 004,
# issue 12): the network-simulator test. The C model's tests (test_qcn.c) run
# in test-cmodel, the reaction-point unit tests in test-net-unit.
.PHONY: test-qcn
test-qcn: $(BUILD)/net/asw
	@$(PYTHON) sw/test_net_qcn.py $(BUILD)/net/asw
TEST_TARGETS += test-qcn
