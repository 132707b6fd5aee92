/* harness/twin/ctl.c - twinctl.exe: what a twin run left behind. Loads the twin named by its
 * first argument with ETWCONF_TWIN_STATE naming the run's state file, and prints Twin_Report's lines:
 * "session NAME id=N owner=PID [foreign] [private] file=PATH", "security {GUID} owner=PID ...".
 *   twinctl.exe TWIN.dll        exit 0, or 2 on a usage error, 3 when the twin cannot be used */
#include <windows.h>
#include <stdio.h>

typedef int(__cdecl *pfn_report)(char *out, int cap);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: twinctl.exe TWIN.dll (with ETWCONF_TWIN_STATE naming the run's state file)\n");
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
