/* Stack switching (src/engine/coro.h): values across switches, deep stacks, preserved registers,
 * the engine's stack-stealing pattern, guard pages, and independent threads.
 *
 * The scenario runners return a count of failures instead of using CHECK, so the thread test can
 * run them concurrently (check.h's counters are not thread-safe) and check the results after. */
#include "check.h"
#include "engine/coro.h"

#include <errno.h>
#include <fenv.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#define STACK_SIZE ((size_t)256 * 1024)

static void adopt_stack(isk_coro *ctx, const isk_stack *s)
{
    ctx->stack_lo = s->lo;
    ctx->stack_size = s->size;
}

/* ---- isk_stack ------------------------------------------------------------------------------- */

static void test_stack_alloc(void)
{
    isk_stack s;
    errno = 0;
    CHECK_EQ(isk_stack_alloc(&s, 0), -1);
    CHECK_EQ(errno, EINVAL);
    CHECK(s.map == NULL);

    CHECK_EQ(isk_stack_alloc(&s, 10000), 0);
    long page = sysconf(_SC_PAGESIZE);
    CHECK(s.size >= 10000);
    CHECK_EQ(s.size % (size_t)page, 0);
    CHECK_EQ((uintptr_t)s.lo % (uintptr_t)page, 0);
    CHECK((char *)s.lo - (char *)s.map >= page);    /* room for the guard below lo */
    CHECK_EQ(s.map_size, (size_t)((char *)s.lo - (char *)s.map) + s.size);
    /* The whole usable range is writable. */
    volatile char *lo = s.lo;
    lo[0] = 1;
    lo[s.size - 1] = 2;
    CHECK_EQ(lo[0] + lo[s.size - 1], 3);
    isk_stack_free(&s);
    CHECK(s.map == NULL);
    isk_stack_free(&s); /* a zeroed stack is accepted */
}

/* ---- ping-pong --------------------------------------------------------------------------------- */

typedef struct pingpong {
    isk_coro main_ctx, coro_ctx;
    isk_stack stack;
    long value;     /* carried both ways */
    int rounds;
} pingpong;

static void pingpong_coro(void *arg)
{
    pingpong *p = arg;
    adopt_stack(&p->coro_ctx, &p->stack);
    for (int i = 0; i < p->rounds; i++) {
        p->value = p->value * 3 + 1;
        isk_coro_switch(&p->coro_ctx, &p->main_ctx);
    }
    p->value = -1;
    isk_coro_jump(&p->main_ctx);
}

/* Main and one coroutine alternate, each transforming the value the other left. */
static int run_pingpong(int rounds)
{
    int failures = 0;
    pingpong p = { .rounds = rounds };
    if (isk_stack_alloc(&p.stack, STACK_SIZE) != 0)
        return 1;
    isk_coro_init_thread(&p.main_ctx);
    isk_coro_start(&p.main_ctx, &p.stack, pingpong_coro, &p);
    failures += p.value != 1;
    for (int i = 1; i < rounds; i++) {
        p.value = i;
        isk_coro_switch(&p.main_ctx, &p.coro_ctx);
        failures += p.value != (long)i * 3 + 1;
    }
    isk_coro_switch(&p.main_ctx, &p.coro_ctx);
    failures += p.value != -1;
    isk_stack_free(&p.stack);
    return failures;
}

/* Two coroutines that switch to each other directly, without going through main. */
typedef struct duet {
    isk_coro main_ctx, a_ctx, b_ctx;
    isk_stack a_stack, b_stack;
    int rounds;
    long a_seen, b_seen;    /* sums of what each side received */
    long message;
} duet;

static void duet_b(void *arg)
{
    duet *d = arg;
    adopt_stack(&d->b_ctx, &d->b_stack);
    for (;;) {
        d->b_seen += d->message;
        d->message = -d->message;
        isk_coro_switch(&d->b_ctx, &d->a_ctx);
    }
}

static void duet_a(void *arg)
{
    duet *d = arg;
    adopt_stack(&d->a_ctx, &d->a_stack);
    d->message = 1;
    isk_coro_start(&d->a_ctx, &d->b_stack, duet_b, d);
    for (int i = 2; i <= d->rounds; i++) {
        d->a_seen += d->message;
        d->message = i;
        isk_coro_switch(&d->a_ctx, &d->b_ctx);
    }
    d->a_seen += d->message;
    isk_coro_jump(&d->main_ctx); /* b stays suspended for ever; its stack is simply freed */
}

static int run_duet(int rounds)
{
    duet d = { .rounds = rounds };
    if (isk_stack_alloc(&d.a_stack, STACK_SIZE) != 0 || isk_stack_alloc(&d.b_stack, STACK_SIZE) != 0)
        return 1;
    isk_coro_init_thread(&d.main_ctx);
    isk_coro_start(&d.main_ctx, &d.a_stack, duet_a, &d);
    long expect = (long)rounds * (rounds + 1) / 2;
    int failures = (d.b_seen != expect) + (d.a_seen != -expect);
    isk_stack_free(&d.a_stack);
    isk_stack_free(&d.b_stack);
    return failures;
}

/* ---- deep recursion ---------------------------------------------------------------------------- */

typedef struct deep {
    isk_coro main_ctx, coro_ctx;
    isk_stack stack;
    int depth;
    long sum;
    uintptr_t lowest;       /* lowest frame address reached */
    int suspended_at_bottom;
} deep;

/* Each frame keeps a value in a local array and adds it after the deeper calls returned, so the
 * result is only right if every frame survived; the bottom frame suspends the whole chain once. */
static long dive(deep *d, int n)
{
    volatile char frame[200];
    frame[n % 200] = (char)(n & 0x7f);
    if ((uintptr_t)frame < d->lowest)
        d->lowest = (uintptr_t)frame;
    long below;
    if (n > 0) {
        below = dive(d, n - 1);
    } else {
        d->suspended_at_bottom = 1;
        isk_coro_switch(&d->coro_ctx, &d->main_ctx);
        below = 0;
    }
    return below + frame[n % 200];
}

static void deep_coro(void *arg)
{
    deep *d = arg;
    adopt_stack(&d->coro_ctx, &d->stack);
    d->sum = dive(d, d->depth);
    isk_coro_jump(&d->main_ctx);
}

static int run_deep(int depth)
{
    deep d = { .depth = depth, .lowest = UINTPTR_MAX };
    if (isk_stack_alloc(&d.stack, (size_t)16 << 20) != 0)
        return 1;
    isk_coro_init_thread(&d.main_ctx);
    isk_coro_start(&d.main_ctx, &d.stack, deep_coro, &d);
    int failures = !d.suspended_at_bottom;
    /* Dirty main's own stack while the deep chain waits. */
    volatile char scratch[4096];
    for (size_t i = 0; i < sizeof scratch; i++)
        scratch[i] = (char)i;
    isk_coro_switch(&d.main_ctx, &d.coro_ctx);
    long expect = 0;
    for (int n = 0; n <= depth; n++)
        expect += n & 0x7f;
    failures += d.sum != expect;
    /* The chain really was deep: at least 200 bytes per frame. */
    failures += (uintptr_t)d.stack.lo + d.stack.size - d.lowest < (uintptr_t)depth * 200;
    isk_stack_free(&d.stack);
    return failures;
}

/* ---- preserved registers ----------------------------------------------------------------------- */

/* Seven integers and eight doubles stay live across every switch, more than there are callee-saved
 * registers: the compiler keeps some in them (rbx, r12-r15 / x19-x28, d8-d15) and spills the
 * rest to the stack, and both must survive. With self == NULL the same arithmetic runs without
 * switching, giving the reference result. */
__attribute__((noinline)) static void churn(isk_coro *self, isk_coro *other, int n,
                                            unsigned long *iout, double *dout)
{
    unsigned long a = 1, b = 2, c = 3, d = 5, e = 7, f = 11, g = 13;
    double x = 0.5, y = 1.25, z = 2.0, w = -3.5, u = 0.125, v = 7.0, s = 1.0, t = -1.0;
    for (int i = 0; i < n; i++) {
        a += b ^ (unsigned long)i;
        b += c * 3;
        c ^= d + (unsigned long)i;
        d += e >> 1;
        e += f;
        f ^= g << 1;
        g += a;
        x = x * 0.999 + y;
        y = y * 0.5 + z * 1e-6;
        z = z - w * 0.25;
        w = w * 0.75 + u;
        u = u + v * 1e-3;
        v = v * 0.9 + s;
        s = -s * 0.99 + t;
        t = t * 0.5 + x * 1e-3;
        if (self)
            isk_coro_switch(self, other);
    }
    *iout = a + 3 * b + 5 * c + 7 * d + 11 * e + 13 * f + 17 * g;
    *dout = x + 2 * y + 3 * z + 4 * w + 5 * u + 6 * v + 7 * s + 8 * t;
}

typedef struct regs {
    isk_coro main_ctx, coro_ctx;
    isk_stack stack;
    int n;
    unsigned long coro_int;
    double coro_fp;
} regs;

static void regs_coro(void *arg)
{
    regs *r = arg;
    adopt_stack(&r->coro_ctx, &r->stack);
    churn(&r->coro_ctx, &r->main_ctx, r->n, &r->coro_int, &r->coro_fp);
    isk_coro_jump(&r->main_ctx);
}

/* Both sides run the computation, switching to each other after every step. */
static int run_regs(int n)
{
    regs r = { .n = n };
    if (isk_stack_alloc(&r.stack, STACK_SIZE) != 0)
        return 1;
    unsigned long want_int;
    double want_fp;
    churn(NULL, NULL, n, &want_int, &want_fp);

    isk_coro_init_thread(&r.main_ctx);
    unsigned long main_int;
    double main_fp;
    isk_coro_start(&r.main_ctx, &r.stack, regs_coro, &r);
    churn(&r.main_ctx, &r.coro_ctx, n, &main_int, &main_fp);
    isk_stack_free(&r.stack);
    return (main_int != want_int) + (main_fp != want_fp) + (r.coro_int != want_int) +
           (r.coro_fp != want_fp);
}

/* ---- floating-point control state -------------------------------------------------------------- */

#if defined(__x86_64__) || defined(ISK_CORO_UCONTEXT)
/* The x86-64 switch (MXCSR, x87 control word) and glibc's swapcontext keep the rounding mode per
 * context. The aarch64 switch deliberately leaves FPCR per thread, so this is not run there. */
typedef struct rounding {
    isk_coro main_ctx, coro_ctx;
    isk_stack stack;
    double nearest;             /* 1/7 rounded to nearest (downwards), in SSE and x87 arithmetic */
    long double nearest_long;
    int failures;
} rounding;

/* Whether 1/7 comes out above its round-to-nearest value (which is below 1/7) in both units. */
static int rounds_up(const rounding *r)
{
    volatile double one = 1.0, seven = 7.0;
    volatile long double lone = 1.0L, lseven = 7.0L;
    return one / seven > r->nearest && lone / lseven > r->nearest_long;
}

static void rounding_coro(void *arg)
{
    rounding *r = arg;
    adopt_stack(&r->coro_ctx, &r->stack);
    fesetround(FE_UPWARD);
    for (int i = 0; i < 100; i++) {
        r->failures += fegetround() != FE_UPWARD || !rounds_up(r);
        isk_coro_switch(&r->coro_ctx, &r->main_ctx);
    }
    isk_coro_jump(&r->main_ctx);
}

static void test_rounding_mode(void)
{
    rounding r = { .failures = 0 };
    CHECK_EQ(isk_stack_alloc(&r.stack, STACK_SIZE), 0);
    isk_coro_init_thread(&r.main_ctx);
    fesetround(FE_TONEAREST);
    volatile double one = 1.0, seven = 7.0;
    volatile long double lone = 1.0L, lseven = 7.0L;
    r.nearest = one / seven;
    r.nearest_long = lone / lseven;
    isk_coro_start(&r.main_ctx, &r.stack, rounding_coro, &r);
    for (int i = 0; i < 100; i++) {
        CHECK_EQ(fegetround(), FE_TONEAREST);
        CHECK(!rounds_up(&r));
        isk_coro_switch(&r.main_ctx, &r.coro_ctx);
    }
    CHECK_EQ(r.failures, 0);
    CHECK_EQ(fegetround(), FE_TONEAREST);
    isk_stack_free(&r.stack);
}
#endif

/* ---- the engine's stack stealing --------------------------------------------------------------- */

/* The engine calls a behaviour directly on its own stack. When the behaviour suspends for the first
 * time, the engine's stack becomes the behaviour's: the behaviour saves itself into slot_ctx and the
 * engine restarts on the other stack. The engine resumes the slot there; when the behaviour
 * finishes, it returns into the engine frame it was called from, on the old stack, which abandons
 * that stack with isk_coro_jump. The engine later restarts on that abandoned stack. */
enum { STEAL_ROUNDS = 3000 };

typedef struct steal {
    isk_coro main_ctx;      /* the test, waiting on the thread's stack */
    isk_coro engine_ctx;    /* the engine, on stacks[engine_stack] */
    isk_coro slot_ctx;      /* the suspended behaviour */
    isk_stack stacks[2];
    int engine_stack;
    int slot_direct;        /* the behaviour was called directly on the engine's stack */
    int slot_suspended;     /* the behaviour waits in slot_ctx */
    int round;
    int completed, steals, resumes, failures;
} steal;

static void engine_main(void *arg);

/* FinishCycle: the first suspension steals the engine's stack; later ones switch back to it. */
static void finish_cycle(steal *t)
{
    t->slot_suspended = 1;
    if (t->slot_direct) {
        int from = t->engine_stack, to = 1 - from;
        t->slot_direct = 0;
        adopt_stack(&t->slot_ctx, &t->stacks[from]);
        t->engine_stack = to;
        t->steals++;
        isk_coro_start(&t->slot_ctx, &t->stacks[to], engine_main, t);
    } else {
        isk_coro_switch(&t->slot_ctx, &t->engine_ctx);
    }
}

/* Frames of varying size and depth, with ASan redzones around the arrays, left on a stack. */
static int scribble(int depth, int seed)
{
    char buf[64];
    memset(buf, seed, sizeof buf);
    int below = depth > 0 ? scribble(depth - 1, seed + 1) : 0;
    return below + buf[depth % (int)sizeof buf];
}

static void behaviour(steal *t, int round)
{
    char local[64];
    memset(local, round & 0x7f, sizeof local);
    double scaled = round * 0.25;
    int suspensions = round % 3;
    for (int k = 0; k < suspensions; k++) {
        finish_cycle(t);
        scribble(round % 5, k);
    }
    for (size_t i = 0; i < sizeof local; i++)
        t->failures += local[i] != (char)(round & 0x7f);
    t->failures += scaled != round * 0.25;
    t->completed++;
}

static void engine_main(void *arg)
{
    steal *t = arg;
    adopt_stack(&t->engine_ctx, &t->stacks[t->engine_stack]);
    for (;;) {
        if (t->slot_suspended) {
            t->slot_suspended = 0;
            t->resumes++;
            scribble(t->resumes % 7, t->resumes); /* other engine work between cycles */
            isk_coro_switch(&t->engine_ctx, &t->slot_ctx);
            continue;
        }
        if (t->round == STEAL_ROUNDS)
            isk_coro_jump(&t->main_ctx);
        int my_stack = t->engine_stack;
        t->slot_direct = 1;
        behaviour(t, ++t->round);
        t->slot_direct = 0;
        if (t->engine_stack != my_stack)    /* the behaviour took this stack: abandon it */
            isk_coro_jump(&t->engine_ctx);
    }
}

static int run_steal(void)
{
    steal t = { .engine_stack = 0 };
    if (isk_stack_alloc(&t.stacks[0], STACK_SIZE) != 0 || isk_stack_alloc(&t.stacks[1], STACK_SIZE) != 0)
        return 1;
    isk_coro_init_thread(&t.main_ctx);
    isk_coro_start(&t.main_ctx, &t.stacks[0], engine_main, &t);
    int want_steals = 0, want_resumes = 0;
    for (int round = 1; round <= STEAL_ROUNDS; round++) {
        want_steals += round % 3 != 0;
        want_resumes += round % 3;
    }
    int failures = t.failures + (t.completed != STEAL_ROUNDS) + (t.steals != want_steals) +
                   (t.resumes != want_resumes) + t.slot_suspended;
    isk_stack_free(&t.stacks[0]);
    isk_stack_free(&t.stacks[1]);
    return failures;
}

/* ---- restarting a stack whose execution was dropped while suspended ---------------------------- */

typedef struct dropped {
    isk_coro main_ctx, coro_ctx;
    isk_stack stack;
    int result;
} dropped;

static int suspend_deep(dropped *d, int depth)
{
    char pad[100];
    memset(pad, depth, sizeof pad);
    if (depth == 0)
        isk_coro_switch(&d->coro_ctx, &d->main_ctx); /* never resumed */
    else
        suspend_deep(d, depth - 1);
    return pad[depth % 100];
}

static void dropped_first(void *arg)
{
    dropped *d = arg;
    adopt_stack(&d->coro_ctx, &d->stack);
    suspend_deep(d, 50);
    isk_coro_jump(&d->main_ctx);
}

static void dropped_second(void *arg)
{
    dropped *d = arg;
    /* Different frame sizes over the same memory: stale redzones would be reported here. */
    d->result = scribble(200, 3) + scribble(20, 4);
    isk_coro_jump(&d->main_ctx);
}

static int run_dropped(void)
{
    dropped d = { .result = 0 };
    if (isk_stack_alloc(&d.stack, STACK_SIZE) != 0)
        return 1;
    isk_coro_init_thread(&d.main_ctx);
    isk_coro_start(&d.main_ctx, &d.stack, dropped_first, &d);
    isk_coro_start(&d.main_ctx, &d.stack, dropped_second, &d);
    isk_stack_free(&d.stack);
    return d.result != scribble(200, 3) + scribble(20, 4);
}

/* ---- failures that must be loud: stack overflow, a returning coroutine ------------------------- */

/* Set in the forked child only, for its signal handler. */
static const isk_stack *child_guarded_stack;

static void on_segv(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)uctx;
    const char *addr = info->si_addr;
    const isk_stack *s = child_guarded_stack;
    _exit(addr >= (const char *)s->map && addr < (const char *)s->lo ? 42 : 43);
}

static long overflow(volatile long *budget)
{
    volatile char frame[256];
    frame[0] = 1;
    if (*budget == 0)
        return 0;
    --*budget;
    return overflow(budget) + frame[0];
}

static void overflow_coro(void *arg)
{
    volatile long budget = LONG_MAX; /* never runs out */
    overflow(&budget);
    isk_coro_jump(arg);
}

/* Runs child() in a forked process (stderr redirected to stderr_fd unless -1); returns its wait
 * status. */
static int in_child(void (*child)(void), int stderr_fd)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (stderr_fd >= 0)
            dup2(stderr_fd, STDERR_FILENO);
        child();
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return status;
}

static void overflow_child(void)
{
    static isk_stack s;
    static isk_coro main_ctx;
    if (isk_stack_alloc(&s, 64 * 1024) != 0)
        _exit(2);
    child_guarded_stack = &s;
    stack_t alt = { .ss_size = 1 << 16 };
    alt.ss_sp = malloc(alt.ss_size);
    sigaltstack(&alt, NULL);
    struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    isk_coro_init_thread(&main_ctx);
    isk_coro_start(&main_ctx, &s, overflow_coro, &main_ctx);
    _exit(3); /* the recursion never ends without a fault */
}

static void test_guard_page(void)
{
    int status = in_child(overflow_child, -1);
    CHECK(WIFEXITED(status));
    CHECK_EQ(WEXITSTATUS(status), 42); /* faulted inside the guard region */
}

static void returning_fn(void *arg)
{
    (void)arg;
}

static void returning_child(void)
{
    isk_stack s;
    isk_coro main_ctx;
    if (isk_stack_alloc(&s, STACK_SIZE) != 0)
        _exit(2);
    isk_coro_init_thread(&main_ctx);
    isk_coro_start(&main_ctx, &s, returning_fn, NULL);
    _exit(3);
}

static void test_returning_fn_aborts(void)
{
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    int status = in_child(returning_child, fds[1]);
    close(fds[1]);
    char msg[256] = "";
    ssize_t n = read(fds[0], msg, sizeof msg - 1);
    close(fds[0]);
    msg[n > 0 ? n : 0] = 0;
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    CHECK_CONTAINS(msg, "isk_coro_start returned");
}

/* ---- threads ----------------------------------------------------------------------------------- */

typedef struct thread_run {
    int failures;
} thread_run;

static int run_all(void)
{
    return run_pingpong(10000) + run_duet(10000) + run_deep(5000) + run_regs(100000) +
           run_steal() + run_dropped();
}

static void *thread_main(void *arg)
{
    thread_run *r = arg;
    for (int i = 0; i < 3; i++)
        r->failures += run_all();
    return NULL;
}

static void test_threads(void)
{
    thread_run runs[2] = { { 0 }, { 0 } };
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, thread_main, &runs[i]), 0);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(pthread_join(threads[i], NULL), 0);
        CHECK_EQ(runs[i].failures, 0);
    }
}

int main(void)
{
    test_stack_alloc();
    CHECK_EQ(run_pingpong(10000), 0);
    CHECK_EQ(run_duet(10000), 0);
    CHECK_EQ(run_deep(20000), 0);
    CHECK_EQ(run_regs(100000), 0);
#if defined(__x86_64__) || defined(ISK_CORO_UCONTEXT)
    test_rounding_mode();
#endif
    CHECK_EQ(run_steal(), 0);
    CHECK_EQ(run_dropped(), 0);
    test_guard_page();
    test_returning_fn_aborts();
    test_threads();
    return CHECK_DONE();
}
