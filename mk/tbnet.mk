# Multi-switch lockstep (tb/net/): a fat-tree of RTL switches (Verilator) stepped with
# the same network in the C model, every output of every switch compared every cycle.
#   make cosim-net NET="ports=4 stages=2 traffic=hs25-1 arn=afi vcs=2 voq=1 buffer_flits=64 \
#        packet_flits=8 crt=64 arn_ttl=256 cycles=20000"      (the settings of `asw net`)
#   make test-cosim-net                                        (the networks of tb/net/cosim_net.py)
NET ?=
.PHONY: cosim-net test-cosim-net
cosim-net:
	@$(PYTHON) tb/net/cosim_net.py cosim --cmdline='$(CMDLINE_VARS)' $(NET)
test-cosim-net:
	@$(PYTHON) tb/net/cosim_net.py test
TEST_TARGETS += test-cosim-net
