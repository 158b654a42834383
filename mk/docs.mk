# Every command shown in a README is run (sw/test_docs.py): make test-docs.
# The test first checks that it notices a failing documented command (a planted one) and
# an internal "docs-test" note left in a README code block.
.PHONY: test-docs
test-docs: deps $(BUILD)/asw
	@mkdir -p $(BUILD)/docs; printf '```\nbuild/asw net frobnicate=1\n```\n' > $(BUILD)/docs/PLANTED.md; \
	if $(PYTHON) sw/test_docs.py $(BUILD)/docs/PLANTED.md > $(BUILD)/docs/planted.log 2>&1; then \
	  echo "FAIL docs test passed a failing documented command"; planted=1; \
	else echo "PASS docs test fails on a failing documented command"; planted=0; fi; \
	printf '```\nmake lint   # docs-test: skip an internal note\n```\n' > $(BUILD)/docs/NOTE.md; \
	if $(PYTHON) sw/test_docs.py $(BUILD)/docs/NOTE.md > $(BUILD)/docs/note.log 2>&1; then \
	  echo "FAIL docs test passed an internal note in a README code block"; planted=$$((planted+1)); \
	else echo "PASS docs test fails on an internal note in a README code block"; fi; \
	$(PYTHON) sw/test_docs.py | tee $(BUILD)/docs/docs.log | grep -v '^PASS'; rc=$${PIPESTATUS[0]}; \
	p=$$(sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' $(BUILD)/docs/docs.log); set -- $${p:-0 1}; \
	echo "test-docs: $$(($$1 + 2 - planted)) passed, $$(($$2 + planted)) failed"; \
	[ $$rc -eq 0 ] && [ $$planted -eq 0 ]
TEST_TARGETS += test-docs
