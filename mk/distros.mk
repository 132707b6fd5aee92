# mk/distros.mk - the README's two commands on fresh Debian systems (.ci/distros.sh has the details).
#
#   make test-distros                   Debian 12 and 13: in a fresh debootstrap minbase chroot of each,
#                                       a fresh clone of the current commit, make run, make test, make
#                                       run; one line per release (PASS, FAIL or SKIP with the reason)
#   make test-distros DISTROS=trixie    only the releases named
#
# Not a stage of make test: it downloads the packages of two Debian systems and runs make test in
# each (many minutes). As root; it installs debootstrap when it is missing. Logs: BUILD/distros/.
DISTROS ?= bookworm trixie

.PHONY: test-distros
test-distros:
	@sh .ci/deps.sh distros
	@DISTROS_LOGS="$(abspath $(BUILD))/distros" sh .ci/distros.sh $(DISTROS)
