/*
 * harness/windows/winetest/wine/test.h - a small stand-in for Wine's include/wine/test.h (which no
 * Debian package ships), so that the output of `etwconf export-wine` builds with mingw-w64 outside
 * a Wine tree (README "Wine's test formats"), written from the documented test API and the output
 * format Wine's tools read. The subset: ok(), ok_(file, line)(), todo_if(), todo_wine,
 * todo_wine_if(), broken(), skip(), win_skip(), trace(), winetest_push/pop_context(),
 * winetest_platform, winetest_debug, ARRAY_SIZE, START_TEST and, with STANDALONE (as Wine's
 * testlist.c defines), the driver: main() runs the unit argv[1] names (or the only one), prints
 * Wine's lines (WINETEST_DEBUG, WINETEST_REPORT_SUCCESS) and closing line, and exits with failures
 * plus successes inside todo blocks, at most 255. The platform is "wine" when ntdll exports
 * wine_server_call (WINETEST_PLATFORM overrides it): todo_wine applies there only, broken() is true
 * on "windows" only, win_skip() is a skip on Windows but a failure on Wine. Not provided: flaky
 * blocks, subtests, muting, --list, the other WINETEST_* variables, wine_dbgstr_*(), the
 * child-process helpers, a report of unhandled exceptions; one thread only.
 */
#ifndef ETWCONF_WINETEST_TEST_H
#define ETWCONF_WINETEST_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windef.h>
#include <winbase.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif

#ifndef __GNUC__
#define __attribute__(x)
#endif
#define WINETEST_PRINTF_ATTR(f, a) __attribute__((format(printf, f, a)))

extern int winetest_debug;
extern const char *winetest_platform;

void winetest_set_location(const char *file, int line);
int winetest_vok(int condition, const char *msg, va_list ap);
void winetest_ok(int condition, const char *msg, ...) WINETEST_PRINTF_ATTR(2, 3);
void winetest_skip(const char *msg, ...) WINETEST_PRINTF_ATTR(1, 2);
void winetest_win_skip(const char *msg, ...) WINETEST_PRINTF_ATTR(1, 2);
void winetest_trace(const char *msg, ...) WINETEST_PRINTF_ATTR(1, 2);
void winetest_push_context(const char *fmt, ...) WINETEST_PRINTF_ATTR(1, 2);
void winetest_pop_context(void);
void winetest_start_todo(int is_todo);
void winetest_end_todo(void);
int broken(int condition);

/* each macro records where it is, then calls the function with the arguments that follow */
#define ok_(file, line) (winetest_set_location(file, line), 0) ? (void)0 : winetest_ok
#define skip_(file, line) (winetest_set_location(file, line), 0) ? (void)0 : winetest_skip
#define win_skip_(file, line) (winetest_set_location(file, line), 0) ? (void)0 : winetest_win_skip
#define trace_(file, line) (winetest_set_location(file, line), 0) ? (void)0 : winetest_trace
#define ok ok_(__FILE__, __LINE__)
#define skip skip_(__FILE__, __LINE__)
#define win_skip win_skip_(__FILE__, __LINE__)
#define trace trace_(__FILE__, __LINE__)

/* a block whose failures are expected: a for statement that runs its body once */
#define todo_if(is_todo)                                                        \
    for (int winetest_once = (winetest_start_todo(is_todo), 1); winetest_once; \
         winetest_end_todo(), winetest_once = 0)
#define todo_wine todo_if(!strcmp(winetest_platform, "wine"))
#define todo_wine_if(is_todo) todo_if((is_todo) && !strcmp(winetest_platform, "wine"))

struct test {
    const char *name;
    void (*func)(void);
};

#ifndef STANDALONE
#define START_TEST(name) void func_##name(void)
#else
#define START_TEST(name)                                                              \
    static void func_##name(void);                                                    \
    const struct test winetest_testlist[] = {{#name, func_##name}, {NULL, NULL}};     \
    static void func_##name(void)

extern const struct test winetest_testlist[];

int winetest_debug = 1;
const char *winetest_platform = "windows";

static LONG winetest_successes, winetest_failures, winetest_todo_successes, winetest_todo_failures, winetest_skipped;
static int winetest_report_success;
static const char *winetest_file = "";
static int winetest_line;
static unsigned int winetest_todo_level; /* one bit per nested todo block, the innermost lowest */
static char winetest_context[8][128];
static unsigned int winetest_context_count;

void winetest_set_location(const char *file, int line)
{
    const char *p;
    winetest_file = file;
    for (p = file; *p; p++) /* the base name, as Wine prints it */
        if (*p == '/' || *p == '\\')
            winetest_file = p + 1;
    winetest_line = line;
}

static void winetest_print(const char *kind, const char *msg, va_list ap)
{
    unsigned int i;
    printf("%s:%d: %s", winetest_file, winetest_line, kind);
    for (i = 0; i < winetest_context_count && i < ARRAY_SIZE(winetest_context); i++)
        printf("%s: ", winetest_context[i]);
    vprintf(msg, ap);
}

int broken(int condition)
{
    return !strcmp(winetest_platform, "windows") && condition;
}

int winetest_vok(int condition, const char *msg, va_list ap)
{
    if (winetest_todo_level & 1) {
        if (condition) {
            winetest_print("Test succeeded inside todo block: ", msg, ap);
            winetest_todo_failures++;
            return 0;
        }
        if (winetest_debug > 0)
            winetest_print("Test marked todo: ", msg, ap);
        winetest_todo_successes++;
        return 1;
    }
    if (!condition) {
        winetest_print("Test failed: ", msg, ap);
        winetest_failures++;
        return 0;
    }
    if (winetest_report_success)
        printf("%s:%d: Test succeeded\n", winetest_file, winetest_line);
    winetest_successes++;
    return 1;
}

/* the functions that take "..." hand their arguments to one that takes a va_list */
#define WINETEST_VA(last, call) \
    do {                        \
        va_list ap;             \
        va_start(ap, last);     \
        call;                   \
        va_end(ap);             \
    } while (0)

void winetest_ok(int condition, const char *msg, ...)
{
    WINETEST_VA(msg, winetest_vok(condition, msg, ap));
}

void winetest_skip(const char *msg, ...)
{
    WINETEST_VA(msg, winetest_print("Tests skipped: ", msg, ap));
    winetest_skipped++;
}

void winetest_win_skip(const char *msg, ...)
{
    if (strcmp(winetest_platform, "windows"))
        WINETEST_VA(msg, winetest_vok(0, msg, ap));
    else {
        WINETEST_VA(msg, winetest_print("Tests skipped: ", msg, ap));
        winetest_skipped++;
    }
}

void winetest_trace(const char *msg, ...)
{
    if (winetest_debug > 0)
        WINETEST_VA(msg, winetest_print("", msg, ap));
}

void winetest_push_context(const char *fmt, ...)
{
    unsigned int i = winetest_context_count++;
    if (i < ARRAY_SIZE(winetest_context)) {
        WINETEST_VA(fmt, vsnprintf(winetest_context[i], sizeof(winetest_context[i]), fmt, ap));
        winetest_context[i][sizeof(winetest_context[i]) - 1] = 0;
    }
}

void winetest_pop_context(void)
{
    if (winetest_context_count)
        winetest_context_count--;
}

void winetest_start_todo(int is_todo)
{
    winetest_todo_level = (winetest_todo_level << 1) | (is_todo != 0);
}

void winetest_end_todo(void)
{
    winetest_todo_level >>= 1;
}

static int winetest_env(const char *name, int dflt)
{
    char buf[32];
    return GetEnvironmentVariableA(name, buf, sizeof(buf)) ? atoi(buf) : dflt;
}

int main(int argc, char **argv)
{
    static char platform[64];
    const struct test *t;
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    LONG bad;
    setvbuf(stdout, NULL, _IONBF, 0);
    if (GetEnvironmentVariableA("WINETEST_PLATFORM", platform, sizeof(platform)))
        winetest_platform = platform;
    else if (ntdll && GetProcAddress(ntdll, "wine_server_call"))
        winetest_platform = "wine";
    winetest_debug = winetest_env("WINETEST_DEBUG", 1);
    winetest_report_success = winetest_env("WINETEST_REPORT_SUCCESS", 0);
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);

    for (t = winetest_testlist; t->name; t++)
        if (!argv[1] || !strcmp(argv[1], t->name))
            break;
    if (!t->name || (!argv[1] && winetest_testlist[1].name)) {
        printf("Fatal: test '%s' does not exist.\n", argv[1] ? argv[1] : "");
        return 1;
    }
    t->func();
    bad = winetest_failures + winetest_todo_failures;
    if (winetest_debug)
        printf("%04x:%s: %ld tests executed (%ld marked as todo, 0 as flaky, %ld %s), %ld skipped.\n",
               (unsigned int)GetCurrentProcessId(), t->name,
               (long)(winetest_successes + winetest_failures + winetest_todo_successes + winetest_todo_failures),
               (long)winetest_todo_successes, (long)bad, bad != 1 ? "failures" : "failure", (long)winetest_skipped);
    return bad > 255 ? 255 : (int)bad;
}
#endif /* STANDALONE */

#endif
