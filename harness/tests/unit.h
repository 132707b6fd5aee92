/* harness/tests/unit.h - shared by the CUnit unit tests (unit_*.c). */
#include "harness/cli/cli.h"
#include "reference/etwref.h"
#include <CUnit/Basic.h>
#include <string.h>

/* TEST(fn, "what it shows") { body }: a test of the file's suite (each file defines UNIT_SUITE
 * first), registered before main runs them */
void unit_add(const char *suite, const char *title, CU_TestFunc fn);
#define TEST(fn, title)                                                                            \
    static void fn(void);                                                                          \
    __attribute__((constructor)) static void fn##_add(void)                                        \
    {                                                                                              \
        unit_add(UNIT_SUITE, title, fn);                                                           \
    }                                                                                              \
    static void fn(void)

/* an assertion whose message names the values (CUnit's own messages are static text) */
#define CHECKF(cond, ...)                                                                          \
    do {                                                                                           \
        char msg_[1024];                                                                                                    \
        snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                                          \
        CU_assertImplementation(!!(cond), __LINE__, msg_, __FILE__, "", CU_FALSE);                                         \
    } while (0)
/* evaluates each argument once */
#define EQ_U32(got, want)                                                                                                  \
    do {                                                                                                                   \
        etw_u32 g_ = (etw_u32)(got), w_ = (etw_u32)(want);                                                                 \
        CHECKF(g_ == w_, "%s = 0x%X, expected 0x%X", #got, (unsigned)g_, (unsigned)w_);                                   \
    } while (0)
/* the string s (evaluated once) is not NULL and contains sub */
#define HAS(s, sub)                                                                                \
    do {                                                                                           \
        const char *s_ = (s);                                                                      \
        CHECKF(s_ && strstr(s_, sub), "%s = '%s', without '%s'", #s, s_ ? s_ : "(null)", sub);    \
    } while (0)

/* the built-in reference, reset, at version v */
static inline struct etw_target *unit_reference_at(unsigned v)
{
    struct etw_target *t = etw_target_reference();
    t->reset();
    t->set_version(v, 0);
    t->version = v;
    return t;
}
/* r runs the built-in reference in process at version v, as that entry's build */
static inline void unit_runner_at(struct etw_runner *r, unsigned v)
{
    const struct etw_version_info *e = etw_version_info(v);
    r->t = etw_target_reference();
    CHECKF(r->t->set_version(v, 0) == 0, "the reference cannot emulate %s", etw_version_name(v));
    r->t->version = e->nt, r->t->build = e->build, r->t->update = e->update;
    r->version = v, r->timeout_ms = 5000, r->isolation = ISO_INPROC;
}
