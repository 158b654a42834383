# QCN congestion points and reaction points (contract §17.4, §17.5; seed 004,
# issue 12): the network-simulator test. The C model's tests (test_qcn.c) run
# in test-cmodel, the reaction-point unit tests in test-net-unit.
.PHONY: test-qcn
test-qcn: $(BUILD)/net/asw
	@$(PYTHON) sw/test_net_qcn.py $(BUILD)/net/asw
TEST_TARGETS += test-qcn

# Seed 004 Figures 7 and 8 on the 32-node 2-ary 5-tree (docs/results.md,
# "Lossless Ethernet: QCN"; about 4 minutes on one core).
.PHONY: study-qcn
study-qcn: $(BUILD)/asw
	@$(PYTHON) sw/study_qcn.py $(BUILD)/asw $(BUILD)/results/qcn docs/figures
