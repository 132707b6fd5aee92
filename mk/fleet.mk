# mk/fleet.mk - etwconf.exe on real Windows (harness/windows/README.md "Running on real Windows"):
#   make test-fleet     stage: etwconf-fleet against fake Windows hosts (Wine behind its own sshd)
#   make test-ansible   the playbook: ansible-lint, --syntax-check, the example inventory's report
#                       play; .ci/run runs it after make test (ansible-lint costs a stage's CPU,
#                       for a playbook that changes seldom)
#   make test-winci     stage: the workflow names only what exists; its Windows job under Wine
# Needs: sh .ci/deps.sh windows fleet.
.PHONY: test-fleet test-winci test-ansible
TEST_STAGES += fleet
TEST_DEPS += fleet
test-fleet: $(BUILD)/etwconf.exe
	@PYTHON="$(PYTHON)" sh harness/tests/fleet.sh "$(BUILD)"

test-ansible: all
	@PYTHON="$(PYTHON)" sh harness/tests/ansible.sh "$(BUILD)"

TEST_STAGES += winci
test-winci: $(BUILD)/etwconf.exe $(BUILD)/etwconf-i686.exe
	@PYTHON="$(PYTHON)" sh harness/tests/winci.sh "$(BUILD)"
