# QCN congestion points and reaction points (contract §17.4, §17.5; seed 004,
# issue 12): the network-simulator test. The C model's tests (test_qcn.c) run
# in test-cmodel, the reaction-point unit tests in test-net-unit.
.PHONY: test-qcn
test-qcn: $(BUILD)/net/asw
	@$(PYTHON) sw/test_net_qcn.py $(BUILD)/net/asw
TEST_TARGETS += test-qcn

# Seed 004 Figures 7 and 8 on the 32-node 2-ary 5-tree, Figure 9 (slow root links, §17.7)
# on the 2-ary 3-tree and Figure 10 (application patterns, one slow root link) on the
# 32-node tree (docs/results.md, "Lossless Ethernet: QCN"; about 5 minutes on one core).
.PHONY: study-qcn
study-qcn: $(BUILD)/asw
	@$(PYTHON) sw/study_qcn.py $(BUILD)/asw $(BUILD)/results/qcn docs/figures

# Congestion management compared on the 432-node RLFT (docs/results.md, "Congestion
# management compared"): seed 004's schemes with and without QCN rate limiters, seed
# 001's ARN / ARN+AFI and Adaptive-Th under seed 001's hot spots, credit and PFC links
# (80 runs, about 10 CPU-minutes; CM_RESUME=1 keeps the runs already in build/results/cm).
.PHONY: study-cm
study-cm: $(BUILD)/asw
	@mkdir -p $(BUILD)/results/cm
	@$(PYTHON) sw/study_cm.py $(BUILD)/asw $(BUILD)/results/cm docs/figures > $(BUILD)/results/cm.md.tmp && \
	  mv $(BUILD)/results/cm.md.tmp $(BUILD)/results/cm.md && cat $(BUILD)/results/cm.md
