# harness/tests/wine-env.sh - the environment for headless Wine (shared/notes/wine-ci.md sections 1
# and 6), sourced by harness/tests/wine.sh and bench/wine.sh with B set to the build directory:
# a prefix of our own under B, no debug spam, no Mono/Gecko/menu installs, 64-bit, no display
# (a display makes crashes hang on winedbg's dialog).
WINEPREFIX=$(cd "$B" && pwd)/wineprefix
WINEDEBUG=-all
WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
WINEARCH=win64
export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES WINEARCH
unset DISPLAY WAYLAND_DISPLAY
