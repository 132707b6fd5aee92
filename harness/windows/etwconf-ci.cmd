@echo off
rem etwconf-ci.cmd OUTDIR LABEL EXE... - the Windows job of .github/workflows/windows.yml, and a
rem way to run the whole suite on any Windows machine by hand (run it from an elevated prompt).
rem
rem For each EXE: EXE run --out OUTDIR\LABEL-NAME.jsonl, its messages in
rem OUTDIR\LABEL-NAME.stderr.txt, then EXE cleanup (stops what a crash left behind);
rem OUTDIR\LABEL-status.txt gets "NAME exit CODE, results written|missing" per exe. Exit 1 when an
rem exe did not run to the end (exit code not 0 or 1, or no results), 2 on a usage error, else 0:
rem conformance is the report job's business. Only cmd built-ins, so that it runs the same under
rem Wine (make test, stage winci).
setlocal EnableExtensions EnableDelayedExpansion
if "%~1"=="" goto usage
if "%~2"=="" goto usage
if "%~3"=="" goto usage
set "OUT=%~1"
set "LABEL=%~2"
if not exist "%OUT%\" mkdir "%OUT%"
if not exist "%OUT%\" (
    echo etwconf-ci: cannot create the directory %OUT% 1>&2
    exit /b 2
)
set "STATUS=%OUT%\%LABEL%-status.txt"
type nul > "%STATUS%"
set BAD=0
set COUNT=0
shift
shift
:loop
if "%~1"=="" goto done
call :one "%~1"
shift
goto loop

:one
set /a COUNT+=1
set "EXE=%~1"
set "NAME=%~n1"
set "RES=%OUT%\%LABEL%-%NAME%.jsonl"
set "ERR=%OUT%\%LABEL%-%NAME%.stderr.txt"
if not exist "%EXE%" (
    echo etwconf-ci: %EXE% not found: build it with make windows 1>&2
    echo %NAME% exit none, results missing: %EXE% not found>> "%STATUS%"
    set BAD=1
    goto :eof
)
if exist "%RES%" del "%RES%"
echo etwconf-ci: %EXE% run --out %RES%
"%EXE%" run --quiet --out "%RES%" 2> "%ERR%"
set RC=!ERRORLEVEL!
type "%ERR%"
set "STATE=missing"
if exist "%RES%" set "STATE=written"
echo %NAME% exit !RC!, results !STATE!>> "%STATUS%"
echo etwconf-ci: %NAME% exit !RC! (0 conformant, 1 not conformant, other: the run did not finish), results !STATE!
if not "!RC!"=="0" if not "!RC!"=="1" set BAD=1
if "!STATE!"=="missing" set BAD=1
"%EXE%" cleanup >> "%ERR%" 2>&1
goto :eof

:done
if "%COUNT%"=="0" goto usage
echo etwconf-ci: %COUNT% exe(s); status in %STATUS%
if "%BAD%"=="1" (
    echo etwconf-ci: an exe did not run to the end: see %STATUS% and the .stderr.txt files 1>&2
    exit /b 1
)
exit /b 0

:usage
echo usage: etwconf-ci.cmd OUTDIR LABEL EXE... 1>&2
echo   runs each EXE (etwconf.exe, etwconf-i686.exe) with --out OUTDIR\LABEL-NAME.jsonl 1>&2
exit /b 2
