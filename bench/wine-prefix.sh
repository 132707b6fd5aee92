#!/bin/sh
# bench/wine-prefix.sh HELLO_EXE - create a fresh Wine prefix in $WINEPREFIX the way
# shared/notes/wine-ci.md section 1 says, and run HELLO_EXE in it once. Timed by bench/wine.sh as
# "what a fresh prefix costs". Leaves a persistent wineserver running (the caller kills it).
set -u
: "${WINEPREFIX:?}"
mkdir -p "$WINEPREFIX"
"${WINESERVER:-wineserver}" -p </dev/null >/dev/null 2>&1      # persistent server, started BEFORE wineboot
"${WINE:-wine}" wineboot -i </dev/null >/dev/null 2>&1        # services get stdio on /dev/null (no pipe hang)
"${WINE:-wine}" reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' /v Debugger /t REG_SZ /d "" /f </dev/null >/dev/null 2>&1
"${WINE:-wine}" reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f </dev/null >/dev/null 2>&1
"${WINE:-wine}" "$1" </dev/null
