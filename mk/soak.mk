# Long randomized lockstep soak (tb/soak_long.py): random legal configurations (parameter
# sets, routing, VC maps, ARN modes, scenarios) drawn from SOAK_LONG_SEED, RTL against the
# C model. The full run is 50 configurations, 10^9 switch-cycles (hours: formal/README.md
# gives the measured speed); it runs under nice.
#   make soak-long [SOAK_LONG_CONFIGS=50] [SOAK_LONG_CYCLES=1000000000] [SOAK_LONG_BUILDS=0]
#                  [SOAK_LONG_JOBS=1]      (SOAK_LONG_JOBS=J: J configurations at a time)
#                  [SOAK_LONG_SEED=1]      (SOAK_LONG_BUILDS=N: only N parameter sets)
#   make test-soak-long    a short one in make test: 8 random configurations (run options
#                          and seeds) over the parameter sets test-cosim builds, 1.6 M cycles
SOAK_LONG_CONFIGS ?= 50
SOAK_LONG_CYCLES ?= 1000000000
SOAK_LONG_BUILDS ?= 0
SOAK_LONG_SEED ?= 1
SOAK_LONG_JOBS ?= 1
SOAK_NICE ?= 10
.PHONY: soak-long test-soak-long
soak-long:
	@nice -n $(SOAK_NICE) $(PYTHON) tb/soak_long.py --configs $(SOAK_LONG_CONFIGS) \
	  --cycles $(SOAK_LONG_CYCLES) --builds $(SOAK_LONG_BUILDS) --seed $(SOAK_LONG_SEED) \
	  --jobs $(SOAK_LONG_JOBS)
test-soak-long:
	@$(PYTHON) tb/soak_long.py --configs 8 --cycles 1600000 --matrix --seed 7 --jobs 2
TEST_TARGETS += test-soak-long
