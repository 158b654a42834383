# The C layering bottom up (issue 29): register map, blocks, the switch's API,
# the network simulator, the application; test benches and tests see only what
# they own. sw/check_includes.py enforces the include direction; the test first
# shows that it finds a planted violation (a block including the public header).
.PHONY: test-includes
test-includes:
	@rc=0; $(PYTHON) sw/check_includes.py --plant | grep -v '^note' || rc=1; \
	$(PYTHON) sw/check_includes.py || rc=1; exit $$rc
TEST_TARGETS += test-includes
