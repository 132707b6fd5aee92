# mk/fleet.mk - etwconf.exe on real Windows (harness/windows/README.md "Running on real Windows"):
#   make test-fleet     the "fleet" stage: etwconf-fleet against fake Windows hosts (Wine at
#                       different versions behind the test's own sshd on 127.0.0.1)
#   make test-ansible   the playbook: ansible-lint, --syntax-check, the example inventory and its
#                       report play; not in make test (ansible-lint costs as much CPU as a stage,
#                       for a playbook that changes seldom): .ci/run runs it after make test
#   make test-winci     the "winci" stage: .github/workflows/windows.yml names only what exists;
#                       its Windows job script runs under Wine and writes what CI uploads
# Needs: sh .ci/deps.sh windows fleet (mingw-w64, Wine, openssh-server, PyYAML, Ansible, ansible-lint).
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
