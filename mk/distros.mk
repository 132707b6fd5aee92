# mk/distros.mk - make test-distros [DISTROS=trixie]: the README's two commands in a fresh minbase
# chroot of each Debian release, one line per release (sh .ci/distros.sh --help says all). Not a
# stage of make test: it downloads two Debian systems and runs make test in each. As root.
DISTROS ?= bookworm trixie

.PHONY: test-distros
test-distros:
	@sh .ci/deps.sh distros
	@DISTROS_LOGS="$(abspath $(BUILD))/distros" sh .ci/distros.sh $(DISTROS)
