/* Crashes in model code and the watchdog (isk_system_options.catch_crashes, watchdog_ms).
 *
 * A fault signal raised while a behaviour runs is caught on an alternate signal stack. The
 * handler only records what happened and where (plain stores and snprintf into the system), then
 * leaves the behaviour the way a FAULT() does (isk_abandon_behaviour: a longjmp to the clock loop,
 * or a switch to the live engine if the command ran on a stack of its own). The report is written
 * afterwards from the clock loop, on an ordinary stack (isk_guard_report).
 *
 * The watchdog is a thread per system that sleeps while no run is going on; during a run it
 * samples the system's clock and, if it has not moved for watchdog_ms, sends the simulating
 * thread WATCHDOG_SIGNAL, whose handler takes the same path. The engine already stores the clock
 * before every instruction and at every clock's end, so the simulation pays nothing.
 *
 * Signal dispositions are per process: the handlers are installed once and chain to those found
 * before for signals that do not belong to a guarded behaviour (a crash in isekit itself, a
 * sanitizer's handler). The running system is found through a thread-local pointer. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "engine/system.h"

#define WATCHDOG_SIGNAL (SIGRTMIN + 4)
#define ALT_STACK_SIZE ((size_t)64 * 1024)

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NFAULT (sizeof fault_signals / sizeof fault_signals[0])

struct isk_guard {
    /* what the handler found, for isk_guard_report */
    int sig, code;
    void *addr;
    size_t overflowed;                /* the size of the stack that overflowed, or 0 */
    char where[400];

    /* an alternate signal stack for threads that have none */
    void *alt;
    bool alt_installed;

    /* the watchdog */
    pthread_t thread, sim_thread;
    bool thread_started, running, quit;
    uint64_t generation;              /* counts runs, so that a sample never spans two */
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

static _Thread_local isk_system *running_sys;

/* The dispositions found when the handlers were installed (process-wide by nature). */
static struct sigaction previous[NFAULT + 1];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static struct isk_guard *guard_of(isk_system *sys)
{
    if (!sys->guard) {
        sys->guard = isk_xcalloc(1, sizeof *sys->guard);
        pthread_mutex_init(&sys->guard->mu, NULL);
        pthread_cond_init(&sys->guard->cv, NULL);
    }
    return sys->guard;
}

/* ---- the handler -------------------------------------------------------------------------- */

static void *fault_sp(void *ucontext)
{
    const ucontext_t *uc = ucontext;
#if defined(__x86_64__)
    return (void *)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (void *)uc->uc_mcontext.sp;
#else
    (void)uc;
    return NULL;
#endif
}

static bool in_guard_of(const isk_stack *s, const void *addr)
{
    return s->lo && (const char *)addr < (const char *)s->lo &&
           (const char *)addr >= (const char *)s->lo - ISK_STACK_GUARD_SIZE;
}

/* The size of the stack whose guard region `addr` lies in; for an unknown stack (the thread's
 * own), a fault within a guard's distance below the stack pointer counts as an overflow. */
static size_t overflowed_stack(const isk_system *sys, const void *addr, const void *sp)
{
    if (in_guard_of(&sys->cur_stack, addr)) return sys->cur_stack.size;
    for (size_t i = 0; i < sys->insts.len; i++) {
        const isk_inst *inst = sys->insts.data[i];
        for (int s = 0; s < inst->nslots; s++)
            if (in_guard_of(&inst->slots[s].stack, addr)) return inst->slots[s].stack.size;
    }
    if (sp && (const char *)addr <= (const char *)sp + 256 &&
        (const char *)addr >= (const char *)sp - ISK_STACK_GUARD_SIZE)
        return (size_t)-1;
    return 0;
}

/* "clock 12, acc0 slot 1 (Crash, word 0x4000, launched at clock 12), behaviour Crash of model
 * 'x' (file.c)" or "clock 7, cpu context 0, pc 0x3, behaviour Div of model 'x' (file.c)" */
static void describe_where(isk_system *sys, char *out, size_t cap)
{
    isk_inst *inst = sys->cur_inst;
    char who[200];
    isk_describe_actor(inst, sys->cur_slot, who, sizeof who);
    const char *beh = NULL;
    if (sys->cur_slot >= 0 && inst->slots[sys->cur_slot].d) {
        beh = inst->model->patterns.data[inst->slots[sys->cur_slot].d->pattern].beh->name;
    } else if (inst->dcache && inst->hdr->pc < inst->ncode && inst->dcache[inst->hdr->pc].pattern >= 0) {
        beh = inst->model->patterns.data[inst->dcache[inst->hdr->pc].pattern].beh->name;
    }
    if (beh)
        snprintf(out, cap, "clock %llu, %s, in behaviour %s of model '%s' (%s)", (unsigned long long)sys->clock, who,
                 beh, inst->model->name, inst->model->source);
    else
        snprintf(out, cap, "clock %llu, %s, in model '%s' (%s)", (unsigned long long)sys->clock, who,
                 inst->model->name, inst->model->source);
}

static void chain(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *old = NULL;
    for (size_t i = 0; i < NFAULT; i++)
        if (fault_signals[i] == sig) old = &previous[i];
    if (!old) return;                       /* a late watchdog signal: nothing to do */
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, si, uc);
        return;
    }
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
        return;
    }
    /* The default action: restore it and raise again (delivered when this handler returns; a
     * fault's instruction would also fault again). */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved_errno = errno;
    isk_system *sys = running_sys;
    bool watchdog = sig == WATCHDOG_SIGNAL;
    /* Ours only inside a behaviour of the system this thread runs, and only once. */
    bool ours = sys && sys->cur_inst && sys->fault_jmp && sys->guard && !sys->crashed &&
                (watchdog ? sys->opt.watchdog_ms != 0 : sys->opt.catch_crashes != 0);
    if (!ours) {
        if (!watchdog) chain(sig, si, uc);
        errno = saved_errno;
        return;
    }
    struct isk_guard *g = sys->guard;
    g->sig = sig;
    g->code = si ? si->si_code : 0;
    g->addr = si ? si->si_addr : NULL;
    g->overflowed = sig == SIGSEGV || sig == SIGBUS ? overflowed_stack(sys, g->addr, fault_sp(uc)) : 0;
    isk_bring_clock(sys);   /* inside a fast loop: the clock of its issue */
    describe_where(sys, g->where, sizeof g->where);
    isk_inst *inst = sys->cur_inst;
    if (inst->contexts && sys->cur_slot < 0) inst->contexts[inst->hdr->context].state = ISK_CTX_FAULTED;
    sys->crashed = true;
    if (sys->status == ISK_OK) sys->status = ISK_FAULT;
    /* Leaving by a jump would keep the handler's mask (every signal blocked): restore the one
     * the behaviour ran with. */
    pthread_sigmask(SIG_SETMASK, &((ucontext_t *)uc)->uc_sigmask, NULL);
    errno = saved_errno;
    isk_abandon_behaviour(sys);
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigfillset(&sa.sa_mask);                /* nothing else runs on top of the handler */
    for (size_t i = 0; i < NFAULT; i++) sigaction(fault_signals[i], &sa, &previous[i]);
    sigaction(WATCHDOG_SIGNAL, &sa, &previous[NFAULT]);
}

static const char *signal_text(int sig, int code)
{
    switch (sig) {
    case SIGSEGV: return code == SEGV_ACCERR ? "SIGSEGV, a write to or read of protected memory"
                                             : "SIGSEGV, an access to unmapped memory";
    case SIGBUS: return "SIGBUS, a bad memory access";
    case SIGFPE: return code == FPE_INTDIV ? "SIGFPE, an integer division by zero"
                      : code == FPE_INTOVF ? "SIGFPE, an integer overflow" : "SIGFPE, an arithmetic exception";
    case SIGILL: return "SIGILL, an illegal host instruction";
    case SIGABRT: return "SIGABRT, abort() was called";
    default: return "a signal";
    }
}

void isk_guard_report(isk_system *sys)
{
    struct isk_guard *g = sys->guard;
    if (!g || !g->sig) return;
    if (g->sig == WATCHDOG_SIGNAL) {
        isk_report(sys, ISK_ERROR, "%s: did not return to the engine within %u ms (watchdog); stopped",
                   g->where, sys->opt.watchdog_ms);
    } else if (g->overflowed == (size_t)-1) {
        isk_report(sys, ISK_ERROR, "%s: stack overflow (%s at address %p) on the thread's own stack; give the "
                   "thread a larger stack", g->where, signal_text(g->sig, g->code), g->addr);
    } else if (g->overflowed) {
        isk_report(sys, ISK_ERROR, "%s: stack overflow: the behaviour needs more than its stack of %zu bytes "
                   "(raise isk_system_options.stack_size)", g->where, g->overflowed);
    } else if (g->sig == SIGSEGV || g->sig == SIGBUS) {
        isk_report(sys, ISK_ERROR, "%s: crashed: %s at address %p", g->where, signal_text(g->sig, g->code), g->addr);
    } else {
        isk_report(sys, ISK_ERROR, "%s: crashed: %s", g->where, signal_text(g->sig, g->code));
    }
    g->sig = 0;
}

/* ---- the watchdog ------------------------------------------------------------------------- */

static uint64_t sample_clock(const isk_system *sys) { return isk_live_clock(sys); }

static void *watchdog_main(void *arg)
{
    isk_system *sys = arg;
    struct isk_guard *g = sys->guard;
    pthread_mutex_lock(&g->mu);
    while (!g->quit) {
        if (!g->running) {
            pthread_cond_wait(&g->cv, &g->mu);
            continue;
        }
        uint64_t generation = g->generation, clock = sample_clock(sys);
        struct timespec deadline;
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += sys->opt.watchdog_ms / 1000;
        deadline.tv_nsec += (long)(sys->opt.watchdog_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
        int r = 0;
        while (!g->quit && g->running && g->generation == generation && r != ETIMEDOUT)
            r = pthread_cond_timedwait(&g->cv, &g->mu, &deadline);
        /* Still the same run, and the clock has not moved for the whole period. Outside a
         * behaviour the handler ignores the signal and the next period looks again. */
        if (!g->quit && g->running && g->generation == generation && sample_clock(sys) == clock)
            pthread_kill(g->sim_thread, WATCHDOG_SIGNAL);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

static void start_watchdog(isk_system *sys, struct isk_guard *g)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_destroy(&g->cv);
    pthread_cond_init(&g->cv, &attr);
    pthread_condattr_destroy(&attr);
    /* The watchdog takes no signals: a SIGINT for the process goes to the simulating thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    g->thread_started = pthread_create(&g->thread, NULL, watchdog_main, sys) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- around a run ------------------------------------------------------------------------- */

isk_system *isk_guard_enter(isk_system *sys)
{
    struct isk_guard *g = guard_of(sys);
    pthread_once(&install_once, install_handlers);
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
        if (!g->alt) g->alt = isk_xcalloc(1, ALT_STACK_SIZE);
        stack_t ss = { .ss_sp = g->alt, .ss_size = ALT_STACK_SIZE, .ss_flags = 0 };
        g->alt_installed = sigaltstack(&ss, NULL) == 0;
    }
    isk_system *outer = running_sys;
    running_sys = sys;
    if (sys->opt.watchdog_ms) {
        if (!g->thread_started) start_watchdog(sys, g);
        pthread_mutex_lock(&g->mu);
        g->sim_thread = pthread_self();
        g->running = true;
        g->generation++;
        pthread_cond_signal(&g->cv);
        pthread_mutex_unlock(&g->mu);
    }
    return outer;
}

void isk_guard_leave(isk_system *sys, isk_system *outer)
{
    struct isk_guard *g = sys->guard;
    if (g->thread_started) {
        pthread_mutex_lock(&g->mu);
        g->running = false;
        pthread_cond_signal(&g->cv);
        pthread_mutex_unlock(&g->mu);
    }
    running_sys = outer;
    if (g->alt_installed) {
        stack_t off = { .ss_flags = SS_DISABLE };
        sigaltstack(&off, NULL);
        g->alt_installed = false;
    }
}

void isk_guard_free(isk_system *sys)
{
    struct isk_guard *g = sys->guard;
    if (!g) return;
    if (g->thread_started) {
        pthread_mutex_lock(&g->mu);
        g->quit = true;
        pthread_cond_signal(&g->cv);
        pthread_mutex_unlock(&g->mu);
        pthread_join(g->thread, NULL);
    }
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g->alt);
    free(g);
}
