/*
 * harness/tests/unit_needs.c - the prerequisites of a case (harness/case.h ETW_NEED_LIST,
 * harness/core/needs.c): catalogue, fixture needs, the one checker, the runner SKIPping before
 * any setup, and the live Windows target's answers (win_live/needs.c) from a described system.
 */
#define UNIT_SUITE "needs: the prerequisites of a case, checked in one place"
#include "unit.h"
#include "harness/targets/win_live/needs.h"

/* every need's bit: the catalogue's are 1 << index (TEST(catalogue)) */
#define ALL_NEEDS ((1u << ETW_NEED_COUNT) - 1)
/* the reason the last check or setup gave (the tests run one at a time) */
static char why[256];

TEST(catalogue, "the catalogue: one bit, a name and a reason per need; the reasons users grep for")
{
    CU_ASSERT(ETW_NEED_COUNT >= 13);
    unsigned seen = 0;
    for (int i = 0; i < ETW_NEED_COUNT; i++) {
        const struct etw_need_info *n = &etw_need_infos[i];
        CHECKF(n->bit == 1u << i, "need %d (%s): bit 0x%X", i, n->name, n->bit);
        CHECKF(!(seen & n->bit), "need %s: its bit is another's", n->name);
        seen |= n->bit;
        CHECKF(n->name && n->name[0] && !strchr(n->name, ' '), "need %d: name '%s'", i, n->name ? n->name : "(null)");
        CHECKF(n->reason && !strncmp(n->reason, "needs ", 6), "need %s: a reason says what is needed: '%s'", n->name, n->reason);
        CU_ASSERT_PTR_EQUAL(etw_need_info(n->bit), n);
        CHECKF(n->sym && !strncmp(n->sym, "NEED_", 5), "need %s: symbol '%s'", n->name, n->sym ? n->sym : "(null)");
        for (int k = 0; k < i; k++)
            CHECKF(strcmp(n->name, etw_need_infos[k].name), "need name '%s' twice", n->name);
    }
    CU_ASSERT_STRING_EQUAL(etw_need_info(NEED_THREADS)->sym, "NEED_THREADS");
    CU_ASSERT_STRING_EQUAL(etw_need_info(NEED_THREADS)->name, "threads");
    CU_ASSERT_PTR_NULL(etw_need_info(0));
    CU_ASSERT_PTR_NULL(etw_need_info(NEED_THREADS | NEED_FAULT_INJECTION));
    CU_ASSERT_PTR_NULL(etw_need_info(1u << ETW_NEED_COUNT));
    /* the texts users grep for in results */
    static const struct {
        unsigned need;
        const char *reason;
    } texts[] = {
        {NEED_SYSTEM_SESSION,
         "needs a system-logger session, and the target has no EtwRef_StartLogger control function"},
        {NEED_FAULT_INJECTION,
         "needs allocation fault injection: the target has no EtwRef_FailAllocation"},
        {NEED_CLASS_COUNTER,
         "needs to preset the class counter: the target has no EtwRef_SetClassCounter"},
        {NEED_FOREIGN_REGISTRATION,
         "needs a registration from another process: the target has no EtwRef_SetClassProcessId"},
        {NEED_PROFILE_HELD,
         "needs SeSystemProfilePrivilege held: the target has no EtwRef_SetPrivilege"},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        CU_ASSERT_STRING_EQUAL(etw_need_info(texts[i].need)->reason, texts[i].reason);
    /* each session kind's reason names the kind as the fixture's messages do */
    static const struct {
        unsigned need;
        enum etw_logger_kind kind;
    } kinds[] = {{NEED_KERNEL_LOGGER, LG_KERNEL},     {NEED_SYSTEM_SESSION, LG_SYSTEM},   {NEED_PLAIN_SESSION, LG_PLAIN},
                 {NEED_NOACCESS_SESSION, LG_NOACCESS}, {NEED_PRIVATE_SESSION, LG_PRIVATE}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char want[160];
        snprintf(want, sizeof want, "needs a %s, and the target has no EtwRef_StartLogger control function",
                 etw_logger_kind_title(kinds[i].kind));
        CU_ASSERT_STRING_EQUAL(etw_need_info(kinds[i].need)->reason, want);
    }
}

TEST(fixture_needs,
     "a fixture implies its needs (sessions by kind, masks, privileges, control functions)")
{
    static const struct {
        struct etw_fixture fx;
        unsigned want;
    } t[] = {
        {{0}, 0},
        {{.logger = LG_KERNEL, .masks = {0, 4}}, NEED_KERNEL_LOGGER | NEED_GROUP_MASKS},
        {{.logger = LG_SYSTEM, .logger2 = LG_PRIVATE}, NEED_SYSTEM_SESSION | NEED_PRIVATE_SESSION},
        {{.logger = LG_PLAIN, .logger2 = LG_NOACCESS}, NEED_PLAIN_SESSION | NEED_NOACCESS_SESSION},
        {{.classes = 1, .foreign_pid = true, .set_counter = true},
         NEED_FOREIGN_REGISTRATION | NEED_CLASS_COUNTER},
        {{.foreign_pid = true, .set_counter = true}, 0}, /* no class to apply them to */
        {{.profile_priv = PRIV_HELD}, NEED_PROFILE_HELD},
        {{.profile_priv = PRIV_NOT_HELD}, NEED_PROFILE_DROPPED},
        /* the target's API is no need: a missing export FAILs */
        {{.fail_alloc = 2, .provider = true, .ndisallow = 1}, NEED_FAULT_INJECTION},
        {{.masks = {1}}, 0}, /* masks without a session: nothing to set them on */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        CHECKF(etw_fixture_needs(&t[i].fx) == t[i].want, "fixture %zu: needs 0x%X, expected 0x%X", i,
               etw_fixture_needs(&t[i].fx), t[i].want);
    EQ_U32(etw_logger_needs(LG_SYSTEM, (const etw_u32[8]){0, 0, 0, 0, 0, 0, 0, 1}), NEED_SYSTEM_SESSION | NEED_GROUP_MASKS);
    EQ_U32(etw_logger_needs(LG_NONE, NULL), 0);
}

/* the cases that expect 0xFFFF to name no session are exactly those that pass 0xFFFF without a
 * kernel logger fixture: on a live system they run only while nobody's kernel logger runs */
TEST(case_needs,
     "a case's needs: its fixture's, its row's .needs, and no kernel logger where it expects none")
{
    static const struct etw_case own = {.id = "x", .fx = {.logger = LG_KERNEL}, .args = {.handle = H_VALUE, .value = 0xFFFF}};
    static const struct etw_case high = {.id = "y", .args = {.handle = H_VALUE, .value = 0x12340000FFFFull}};
    static const struct etw_case other = {.id = "z", .args = {.handle = H_VALUE, .value = 0x3E}};
    static const struct etw_case zero = {.id = "w", .args = {.handle = H_ZERO, .value = 0xFFFF}};
    EQ_U32(etw_case_needs(&own), NEED_KERNEL_LOGGER);
    EQ_U32(etw_case_needs(&high), NEED_NO_KERNEL_LOGGER);
    EQ_U32(etw_case_needs(&other), 0);
    EQ_U32(etw_case_needs(&zero), 0);
    /* named cases: exactly these needs (has = 0), or with (has > 0) or without (has < 0) one */
    static const struct {
        const char *id;
        unsigned needs;
        int has;
    } named[] = {
        {"gmi.not-found-kernel", NEED_NO_KERNEL_LOGGER, 1},
        {"gmi.not-found-kernel-set", NEED_NO_KERNEL_LOGGER, 1},
        {"gmi.kernel-logger-id", NEED_NO_KERNEL_LOGGER, -1},
        {"cti.atomic", NEED_THREADS, 0}, /* declared by the row: its fixture shows no threads */
        {"ntc.no-memory", NEED_SYSTEM_SESSION | NEED_FAULT_INJECTION, 0},
        /* custom bodies that use a control function declare it */
        {"traits.group-permission",
         NEED_SYSTEM_SESSION | NEED_RESTRICT_GROUP | NEED_ENABLE_GROUP, 0},
        {"ntc.1e.ok", NEED_REG_ENTRY_HANDLE, 0},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        const struct etw_case *c = etw_case_find(named[i].id);
        unsigned got = c ? etw_case_needs(c) : 0, n = named[i].needs;
        CHECKF(c && (named[i].has > 0 ? (got & n) == n : named[i].has < 0 ? !(got & n) : got == n),
               "%s: needs 0x%X (%s 0x%X)", named[i].id, got,
               named[i].has ? "about" : "expected", n);
    }
    /* every case: its declared needs are kept, and only needs of the catalogue are declared */
    for (size_t i = 0, n = etw_case_total(); i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        CHECKF((etw_case_needs(c) & c->needs) == c->needs, "%s: declared needs dropped", c->id);
        CHECKF(!(c->needs & ~ALL_NEEDS), "%s:%d: .needs 0x%X names no need of harness/case.h", c->file, c->line, c->needs);
    }
}

static void *(*real_sym)(struct etw_target *, const char *);
static void *sym_without_reg_entry(struct etw_target *t, const char *name)
{
    return strcmp(name, "EtwRef_RegEntryHandle") ? real_sym(t, name) : NULL;
}

/* one target without one control function at a time: exactly the needs that take it are unmet,
 * each with its reason; with every function, every need is met */
TEST(checker_portable,
     "the portable checks: each control function missing leaves exactly its needs unmet")
{
    struct etw_target *ref = unit_reference_at(ETW_V10_0);
    EQ_U32(etw_needs_check(ref, ALL_NEEDS, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "");
    EQ_U32(etw_needs_check(ref, NEED_THREADS, why, sizeof why), 0); /* this process starts threads */
    static const struct {
        size_t off; /* the control function removed */
        unsigned takes; /* the needs that take it */
    } fns[] = {
        {offsetof(struct etw_target, start_logger), NEED_PRIVATE_SESSION | NEED_NOACCESS_SESSION | NEED_SYSTEM_SESSION | NEED_PLAIN_SESSION |
                                                         NEED_KERNEL_LOGGER},
        {offsetof(struct etw_target, set_privilege), NEED_PROFILE_HELD | NEED_PROFILE_DROPPED},
        {offsetof(struct etw_target, set_class_pid), NEED_FOREIGN_REGISTRATION},
        {offsetof(struct etw_target, set_class_counter), NEED_CLASS_COUNTER},
        {offsetof(struct etw_target, fail_alloc), NEED_FAULT_INJECTION},
        {offsetof(struct etw_target, restrict_group), NEED_RESTRICT_GROUP},
        /* one found by name: sym finds no EtwRef_RegEntryHandle */
        {offsetof(struct etw_target, sym), NEED_REG_ENTRY_HANDLE},
    };
    real_sym = ref->sym;
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        struct etw_target t = *ref;
        if (fns[f].off == offsetof(struct etw_target, sym))
            t.sym = sym_without_reg_entry;
        else
            memset((char *)&t + fns[f].off, 0, sizeof(void (*)(void)));
        for (int i = 0; i < ETW_NEED_COUNT; i++) {
            const struct etw_need_info *n = &etw_need_infos[i];
            unsigned got = etw_needs_check(&t, n->bit, why, sizeof why);
            bool takes = fns[f].takes & n->bit; /* unmet with its reason, else met */
            CHECKF(got == (takes ? n->bit : 0) && !strcmp(why, takes ? n->reason : ""),
                   "without control function %zu, need %s: got 0x%X '%s'", f, n->name, got, why);
        }
    }
    /* group masks come with a session: its kind's need names the missing EtwRef_StartLogger */
    struct etw_target bare = *ref;
    bare.start_logger = NULL, bare.fail_alloc = NULL, bare.set_class_counter = NULL;
    const struct etw_fixture km = {.logger = LG_KERNEL, .masks = {1}};
    EQ_U32(etw_needs_check(&bare, etw_fixture_needs(&km), why, sizeof why), NEED_KERNEL_LOGGER);
    CHECKF(strstr(why, "EtwRef_StartLogger") != NULL, "kernel logger with masks: '%s'", why);
    /* several unmet: the first in the catalogue's order gives the reason */
    EQ_U32(etw_needs_check(&bare, NEED_FAULT_INJECTION | NEED_CLASS_COUNTER | NEED_KERNEL_LOGGER, why, sizeof why), NEED_KERNEL_LOGGER);
    EQ_U32(etw_needs_check(&bare, NEED_FAULT_INJECTION | NEED_CLASS_COUNTER, why, sizeof why), NEED_CLASS_COUNTER);
    CU_ASSERT_STRING_EQUAL(why, etw_need_info(NEED_CLASS_COUNTER)->reason);
    EQ_U32(etw_needs_check(&bare, 0, why, sizeof why), 0);
}

/* a target's need hook: asked once per need that passed its portable check, in order */
static unsigned hook_denies, hook_asked;
static const char *hook_why;
static bool hook(struct etw_target *t, unsigned need, char *why, size_t len)
{
    hook_asked |= need;
    if (!(need & hook_denies))
        return true;
    if (hook_why)
        snprintf(why, len, "%s", hook_why);
    return false;
}

TEST(checker_hook,
     "the target's need hook: asked after the portable check, its reason or the catalogue's")
{
    struct etw_target t = *unit_reference_at(ETW_V10_0);
    t.need = hook;
    /* a target without threads: the catalogue's reason when the hook gives none */
    hook_denies = NEED_THREADS, hook_asked = 0, hook_why = NULL;
    EQ_U32(etw_needs_check(&t, NEED_THREADS | NEED_SYSTEM_SESSION, why, sizeof why), NEED_THREADS);
    CU_ASSERT_STRING_EQUAL(why, etw_need_info(NEED_THREADS)->reason);
    EQ_U32(hook_asked, NEED_THREADS | NEED_SYSTEM_SESSION);
    /* its own reason when it gives one; the needs after the first unmet one are not asked */
    hook_denies = NEED_SYSTEM_SESSION | NEED_THREADS, hook_asked = 0, hook_why = "no sessions on this system";
    EQ_U32(etw_needs_check(&t, NEED_THREADS | NEED_SYSTEM_SESSION, why, sizeof why), NEED_SYSTEM_SESSION);
    CU_ASSERT_STRING_EQUAL(why, "no sessions on this system");
    EQ_U32(hook_asked, NEED_SYSTEM_SESSION);
    /* a need whose portable check fails is not asked of the target */
    t.fail_alloc = NULL, hook_denies = 0, hook_asked = 0;
    EQ_U32(etw_needs_check(&t, NEED_FAULT_INJECTION, why, sizeof why), NEED_FAULT_INJECTION);
    EQ_U32(hook_asked, 0);
}

/* the runner checks a case's needs before its fixture: an unmet need SKIPs with the reason and
 * sets nothing up; a missing export of the case's function still FAILs first */
static int starts;
static enum etw_fx (*real_start)(struct etw_target *, unsigned, const etw_u32 *, etw_tracehandle *, char *, size_t);
static enum etw_fx counting_start(struct etw_target *t, unsigned kind, const etw_u32 masks[8], etw_tracehandle *h, char *why, size_t len)
{
    starts++;
    return real_start(t, kind, masks, h, why, len);
}

TEST(runner_skips_first,
     "the runner SKIPs an unmet need before setting anything up (threads, fault injection)")
{
    struct etw_target t = *unit_reference_at(ETW_V10_0);
    t.build = 0;
    real_start = t.start_logger;
    t.start_logger = counting_start;
    struct etw_runner r = {.t = &t, .version = ETW_V10_0, .timeout_ms = 5000, .isolation = ISO_INPROC};
    struct etw_result res;
    const struct etw_case *atomic = etw_case_find("cti.atomic"), *oom = etw_case_find("ntc.no-memory");
    CU_ASSERT_FATAL(atomic && oom);
    /* threads: met here, so the case runs; a target that says it has none SKIPs it */
    etw_run_case(&r, atomic, &res);
    CHECKF(res.status == R_PASS, "cti.atomic: %s %s", etw_status_name(res.status), res.reason);
    t.need = hook, hook_denies = NEED_THREADS, hook_why = NULL;
    etw_run_case(&r, atomic, &res);
    CHECKF(res.status == R_SKIP && !strcmp(res.reason, etw_need_info(NEED_THREADS)->reason), "cti.atomic without threads: %s '%s'",
           etw_status_name(res.status), res.reason);
    t.need = NULL;
    /* no fault injection: SKIP before the session is started */
    starts = 0;
    etw_run_case(&r, oom, &res);
    CHECKF(res.status == R_PASS && starts == 1, "ntc.no-memory: %s, %d session(s) started", etw_status_name(res.status), starts);
    t.fail_alloc = NULL, starts = 0;
    etw_run_case(&r, oom, &res);
    CHECKF(res.status == R_SKIP && !strcmp(res.reason, etw_need_info(NEED_FAULT_INJECTION)->reason) && starts == 0,
           "ntc.no-memory without EtwRef_FailAllocation: %s '%s', %d session(s) started", etw_status_name(res.status), res.reason, starts);
    /* the fixture does not decide SKIP: set up without its needs, it is BROKEN */
    struct etw_fixture_state st;
    CU_ASSERT_EQUAL(etw_fixture_setup(&t, NULL, &oom->fx, false, &st, why, sizeof why), ETW_FX_BROKEN);
    etw_fixture_teardown(&t, &st);
    t.reset();
}

/* ---------------------------------------------------------------- the live target's answers */
static enum etw_lv_kernel_state kl_state;
static unsigned long kl_pid;
static int kl_asked;
static enum etw_lv_kernel_state fake_kernel_state(void *arg, unsigned long *who)
{
    kl_asked++;
    if (who)
        *who = kl_pid;
    return kl_state;
}

static int pmc_listed = 2; /* profile sources besides the timer; -1: the list cannot be read */
static int fake_pmc_sources(void *arg, long *status)
{
    *status = pmc_listed < 0 ? (long)0xC0000003L : 0;
    return pmc_listed;
}

static struct etw_lv_system live_system(unsigned version)
{
    return (struct etw_lv_system){.version = version, .admin = true, .elevated = 1, .profile_initial = 0, .token_adjust = true,
                                  .kernel_state = fake_kernel_state, .pmc_sources = fake_pmc_sources};
}

/* whether the need is met on s; the reason it is not in why */
static bool live(const struct etw_lv_system *s, unsigned need)
{
    why[0] = 0;
    bool ok = etw_lv_need(s, need, why, sizeof why);
    CHECKF(ok == !why[0], "need 0x%X: %s with reason '%s'", need, ok ? "met" : "unmet", why);
    return ok;
}

/* the need is met on s (says NULL), or unmet with a reason that contains says */
static void live_is(const struct etw_lv_system *s, unsigned need, const char *says,
                    const char *what)
{
    bool ok = live(s, need);
    CHECKF(ok == !says && (ok || strstr(why, says)), "%s: %s %s: '%s'", what,
           etw_need_info(need)->name, ok ? "met" : "unmet", why);
}

/* a case about listed PMC sources runs only where the system lists one: a Hyper-V guest lists none
 * (it SKIPs with that reason), and a list that cannot be read proves nothing either */
TEST(live_pmc_sources,
     "live target: a case about listed profile sources SKIPs where none is listed")
{
    struct etw_lv_system s = live_system(ETW_V10_0);
    pmc_listed = 1;
    live_is(&s, NEED_PMC_SOURCES, NULL, "one listed");
    pmc_listed = 0;
    live_is(&s, NEED_PMC_SOURCES, "lists none (no hardware counters are exposed: a Hyper-V", "0");
    pmc_listed = -1;
    live_is(&s, NEED_PMC_SOURCES, "could not be read (NtQuerySystemInformation, "
            "EventTraceProfileSourceListInformation: status 0xC0000003)", "unreadable");
    s.pmc_sources = NULL;
    live_is(&s, NEED_PMC_SOURCES, "could not be read", "no way to ask");
    pmc_listed = 2;
}

TEST(live_admin_and_versions,
     "live target: admin rights for sessions, session kinds and group masks by version")
{
    kl_state = ETW_LV_KL_NONE, kl_asked = 0;
    /* an elevated administrator at 10.0 meets every need */
    struct etw_lv_system s = live_system(ETW_V10_0);
    for (int i = 0; i < ETW_NEED_COUNT; i++)
        CHECKF(live(&s, etw_need_infos[i].bit), "10.0, admin: %s: %s", etw_need_infos[i].name, why);
    /* no admin rights: every need that starts a session, nothing else */
    const unsigned sessions = NEED_PRIVATE_SESSION | NEED_NOACCESS_SESSION | NEED_SYSTEM_SESSION | NEED_PLAIN_SESSION | NEED_KERNEL_LOGGER |
                              NEED_GROUP_MASKS;
    s.admin = false, s.elevated = 0;
    for (int i = 0; i < ETW_NEED_COUNT; i++) {
        unsigned b = etw_need_infos[i].bit;
        bool ok = live(&s, b);
        CHECKF(ok == !(b & sessions), "not admin: %s %s", etw_need_infos[i].name, ok ? "met" : "unmet");
        if (!ok)
            CHECKF(strstr(why, "needs administrator rights") && strstr(why, "this process is not elevated"), "not admin: %s", why);
    }
    CHECKF(!strstr(why, "elevation type"), "elevation type unknown: %s", why);
    /* a limited token of an administrator (UAC, or Wine 10): the reason names its elevation type */
    s.elevation_type = 3;
    live_is(&s, NEED_PLAIN_SESSION, "this process is not elevated, its token's elevation type is "
            "limited)", "limited token");
    s.elevation_type = 0;
    s.elevated = -1;
    live_is(&s, NEED_PLAIN_SESSION, "this account is not an administrator", "before 6.0");
    /* the session kinds and group masks by version */
    static const struct {
        unsigned need, from;
        const char *says;
    } kinds[] = {
        {NEED_PRIVATE_SESSION, ETW_V6_0, "EVENT_TRACE_PRIVATE_IN_PROC), which exists from Windows Vista (6.0)"},
        {NEED_SYSTEM_SESSION, ETW_V6_2, "(EVENT_TRACE_SYSTEM_LOGGER_MODE), which exists from Windows 8 (6.2)"},
        {NEED_NOACCESS_SESSION, ETW_V6_2, "without TRACELOG_GUID_ENABLE access, and system-logger mode exists from Windows 8 (6.2)"},
        {NEED_GROUP_MASKS, ETW_V6_2, "TraceSetInformation(TraceSystemTraceEnableFlagsInfo): Windows 8 (6.2) and later"},
        {NEED_PLAIN_SESSION, ETW_V5_2, NULL},
        {NEED_KERNEL_LOGGER, ETW_V5_2, NULL},
    };
    static const unsigned versions[] = {ETW_V5_2, ETW_V6_0, ETW_V6_1, ETW_V6_2, ETW_V6_3, ETW_V10_0};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
            s = live_system(versions[v]);
            live_is(&s, kinds[k].need, versions[v] >= kinds[k].from ? NULL : kinds[k].says,
                    etw_version_name(versions[v]));
        }
    /* the kernel logger's state is asked only for the needs that depend on it */
    s = live_system(ETW_V10_0);
    kl_asked = 0;
    for (int i = 0; i < ETW_NEED_COUNT; i++)
        if (!(etw_need_infos[i].bit & (NEED_KERNEL_LOGGER | NEED_NO_KERNEL_LOGGER)))
            live(&s, etw_need_infos[i].bit);
    EQ_U32(kl_asked, 0);
    live(&s, NEED_KERNEL_LOGGER);
    live(&s, NEED_NO_KERNEL_LOGGER);
    EQ_U32(kl_asked, 2);
}

TEST(live_kernel_logger,
     "live target: the NT Kernel Logger's state for starting one and for expecting none")
{
    struct etw_lv_system s = live_system(ETW_V10_0);
    static const struct {
        enum etw_lv_kernel_state st;
        /* why kernel-logger (start one) and no-kernel-logger (expect none) are unmet; NULL: met */
        const char *start_says, *absent_says;
    } states[] = {
        {ETW_LV_KL_NONE, NULL, NULL},
        {ETW_LV_KL_OTHERS, "already running, started by someone else", "someone else's kernel logger is running"},
        {ETW_LV_KL_OURS, NULL, "an etwconf run's kernel logger is running (pid 4242)"},
        {ETW_LV_KL_EARLIER, "left running by an earlier etwconf run (pid 4242): 'etwconf.exe cleanup' stops it",
         "(pid 4242): 'etwconf.exe cleanup' stops it"},
        {ETW_LV_KL_UNKNOWN, NULL, "someone else's kernel logger is running"},
    };
    kl_pid = 4242;
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        kl_state = states[i].st;
        live_is(&s, NEED_KERNEL_LOGGER, states[i].start_says, "kernel logger state");
        live_is(&s, NEED_NO_KERNEL_LOGGER, states[i].absent_says, "kernel logger state");
    }
    kl_state = ETW_LV_KL_OURS;
    CU_ASSERT(!live(&s, NEED_NO_KERNEL_LOGGER));
    CHECKF(!strstr(why, "cleanup"), "this process's own kernel logger is not a leftover: '%s'", why);
    kl_state = ETW_LV_KL_NONE;
}

TEST(live_profile_privilege, "live target: the profile privilege in the token")
{
    static const struct {
        int initial;
        bool adjust, dropped_ok;
        const char *held_says; /* why it cannot be held; NULL: it can */
    } tokens[] = {
        {1, true, true, NULL},
        {0, true, true, NULL},
        {-1, true, true, "which this process's token does not have"},
        {-1, false, true, "which this process's token does not have"},
        {0, false, false, "needs SeSystemProfilePrivilege enabled, and this process cannot adjust its token"},
        {1, false, false, "needs SeSystemProfilePrivilege enabled, and this process cannot adjust its token"},
    };
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        struct etw_lv_system s = live_system(ETW_V10_0);
        s.profile_initial = tokens[i].initial, s.token_adjust = tokens[i].adjust;
        live_is(&s, NEED_PROFILE_HELD, tokens[i].held_says, "token");
        live_is(&s, NEED_PROFILE_DROPPED, tokens[i].dropped_ok ? NULL :
                "needs SeSystemProfilePrivilege disabled, and this process cannot adjust", "token");
    }
}
