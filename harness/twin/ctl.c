/* harness/twin/ctl.c - twinctl.exe: what a twin run left behind. Loads the twin named by its
 * first argument with ETWCONF_TWIN_STATE naming the run's state file, and prints Twin_Report's lines:
 * "session NAME id=N owner=PID [foreign] [private] file=PATH", "security {GUID} owner=PID ...".
 *   twinctl.exe TWIN.dll        exit 0, or 2 on a usage error, 3 when the twin cannot be used
 *   twinctl.exe short PATH      PATH's 8.3 short form (GetShortPathNameW): a short %TEMP%, as the
 *                               hosted Windows runners have, for the path-long personality */
#include <windows.h>
#include <stdio.h>
#include <string.h>

typedef int(__cdecl *pfn_report)(char *out, int cap);

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "short")) {
        char out[MAX_PATH * 2];
        DWORD n = GetShortPathNameA(argv[2], out, sizeof out);
        if (!n || n >= sizeof out) {
            fprintf(stderr, "twinctl: no short form of %s (error %lu)\n", argv[2], (unsigned long)GetLastError());
            return 3;
        }
        puts(out);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: twinctl.exe TWIN.dll (with ETWCONF_TWIN_STATE naming the run's state file) | twinctl.exe short PATH\n");
        return 2;
    }
    HMODULE h = LoadLibraryA(argv[1]);
    pfn_report report = h ? (pfn_report)(void (*)(void))GetProcAddress(h, "Twin_Report") : NULL;
    static char out[65536];
    if (!report || report(out, sizeof out) < 0) {
        fprintf(stderr, "twinctl: %s is not a usable twin (error %lu)\n", argv[1], (unsigned long)GetLastError());
        return 3;
    }
    fputs(out, stdout);
    return 0;
}
