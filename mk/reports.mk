# mk/reports.mk - the reports (reports/README.md) and their test stages.
#
#   make report        HTML/Markdown/JUnit reports from $(BUILD)/results/*.jsonl into $(BUILD)/report
#   make test-reports  unit tests of reports/ (ingest, HTML, Markdown, JUnit, diff, expectations)
#   make test-browser  opens the sample and the build report in headless Chromium through Selenium
#                      (needs: sh .ci/deps.sh browser: chromium, chromium-driver, python3-selenium)
#
# REPORT_EXPECTATIONS: known-failure files passed to the report (only those that exist are used).
REPORT_DIR := $(BUILD)/report
REPORT_EXPECTATIONS ?= $(wildcard reports/expectations/*.json)

.PHONY: report test-reports test-browser
report:
	@$(PYTHON) reports/etwconf-report report --out $(REPORT_DIR) \
	    $(foreach x,$(REPORT_EXPECTATIONS),--expectations $(x)) $(BUILD)/results/*.jsonl
	@echo "report: $(REPORT_DIR)/index.html"

TEST_STAGES += reports browser
TEST_DEPS += browser

test-reports:
	@$(PYTHON) reports/tests/run.py

test-browser:
	@$(PYTHON) reports/tests/browser.py --build $(BUILD)
