# mk/fleet.mk - running etwconf.exe on real Windows: the CI workflow's Windows job script and the
# fleet runner (harness/windows/README.md "Running on real Windows: CI and VM fleets").
#
#   make test-fleet     the "fleet" stage: etwconf-fleet against fake Windows hosts (Wine at
#                       different versions behind the test's own sshd on 127.0.0.1)
#   make test-winci     the "winci" stage: .github/workflows/windows.yml parses and names only
#                       what exists; its Windows job script runs under Wine and writes what CI uploads
#
# Needs: sh .ci/deps.sh windows fleet (mingw-w64, Wine, openssh-server).
.PHONY: test-fleet test-winci
TEST_STAGES += fleet
TEST_DEPS += fleet
test-fleet: $(BUILD)/etwconf.exe
	@PYTHON="$(PYTHON)" sh harness/tests/fleet.sh "$(BUILD)"

TEST_STAGES += winci
test-winci: $(BUILD)/etwconf.exe $(BUILD)/etwconf-i686.exe
	@PYTHON="$(PYTHON)" sh harness/tests/winci.sh "$(BUILD)"
