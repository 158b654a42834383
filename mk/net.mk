# Whole-network simulation (cmodel/net/, `asw net`, `asw sweep`), its tests,
# benchmark and default study. Owner: network simulation.
NET_SRCS := cmodel/net/topo.c cmodel/net/tables.c cmodel/net/netcfg.c \
  cmodel/net/network.c
ASW_EXTRA_SRCS += $(NET_SRCS) cmodel/app/net_cmd.c cmodel/app/sweep_cmd.c
NET_HDRS := $(wildcard cmodel/net/*.h) $(wildcard cmodel/*.h)
NET_SWITCH_SRCS := $(wildcard cmodel/*.c)

$(BUILD)/net/test_net_unit: cmodel/net/tests/test_net_unit.c $(NET_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) -D_DEFAULT_SOURCE -o $@ $< cmodel/net/topo.c cmodel/net/tables.c cmodel/net/netcfg.c $(ASW_LDLIBS)
$(BUILD)/net/test_net_unit_san: cmodel/net/tests/test_net_unit.c $(NET_SRCS) $(NET_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASW_CFLAGS) $(ASW_SAN_FLAGS) -D_DEFAULT_SOURCE -o $@ $< cmodel/net/topo.c cmodel/net/tables.c cmodel/net/netcfg.c $(ASW_LDLIBS)
.PHONY: test-net-unit build-net
build: $(BUILD)/asw
build-net: $(BUILD)/asw

# Each prints "name: N passed, N failed" and exits non-zero on a failure.
test-net-unit: $(BUILD)/net/test_net_unit $(BUILD)/net/test_net_unit_san
	@rc=0; $(BUILD)/net/test_net_unit || rc=1; $(BUILD)/net/test_net_unit_san || rc=1; exit $$rc
TEST_TARGETS += test-net-unit

