#include "cli/runctl.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asm/syntax.h"
#include "cli/cli.h"

void cli_run_opts_init(cli_run_opts *o, uint64_t default_max_clocks)
{
    memset(o, 0, sizeof *o);
    o->max_clocks = default_max_clocks;
    o->watchdog_s = CLI_DEFAULT_WATCHDOG;
    o->max_errors = -1;
}

bool cli_run_option(cli_args *a, cli_run_opts *o, const char *alias)
{
    const char *v;
    if (cli_flag(a, "--trace")) {
        o->trace = true;
    } else if (cli_u64(a, "--max-clocks", 1, UINT64_MAX, ISK_UNIT_COUNT, &o->max_clocks)) {
    } else if (alias && cli_u64(a, alias, 1, UINT64_MAX, ISK_UNIT_COUNT, &o->max_clocks)) {
    } else if (cli_u64(a, "--watchdog", 0, 86400, ISK_UNIT_NONE, &o->watchdog_s)) {
    } else if (cli_u64(a, "--behaviour-stack", 16384, 1ull << 30, ISK_UNIT_BYTES, &o->behaviour_stack)) {
    } else if (cli_max_errors(a, &o->max_errors)) {
    } else if (cli_value(a, "--param", &v)) {
        if (v && o->nparams == CLI_MAX_LIST) cli_usage_error(a, "at most %d --param options", CLI_MAX_LIST);
        else if (v) o->params[o->nparams++] = v;
    } else if (cli_value(a, "--show", &v)) {
        if (v && o->nshows == CLI_MAX_LIST) cli_usage_error(a, "at most %d --show options", CLI_MAX_LIST);
        else if (v) o->shows[o->nshows++] = v;
    } else if (cli_traces_option(a, o) || cli_profile_option(a, o) || cli_debug_option(a, o) ||
               cli_dap_option(a, o)) {
    } else {
        return false;
    }
    return true;
}

void cli_run_system_options(const cli_run_opts *o, isk_system_options *so)
{
    so->watchdog_ms = (unsigned)(o->watchdog_s * 1000);
    so->catch_crashes = 1;
    so->stack_size = (size_t)o->behaviour_stack;
}

/* ---- --trace ------------------------------------------------------------------------------ */

void cli_issue_text(const isk_event *ev, char *out, size_t cap)
{
    const isk_model *m = isk_inst_model(ev->inst);
    if (ev->instruction < 0 ||
        !isk_syntax_print(m, isk_syntax_display_pattern(m, ev->instruction, ev->word), ev->word, ev->pc, out, cap))
        snprintf(out, cap, "(illegal)");
}

static void print_event(void *user, const isk_event *ev)
{
    (void)user;
    char text[320];
    if (ev->kind == ISK_EV_ISSUE) {
        cli_issue_text(ev, text, sizeof text);
        printf("%8" PRIu64 "  %-6s ctx %-2u pc 0x%04" PRIx64 "  %0*" PRIx64 "  %s\n", ev->clock, isk_inst_name(ev->inst),
               ev->context, ev->pc, (isk_model_word_bits(isk_inst_model(ev->inst)) + 3) / 4, ev->word, text);
    } else {
        printf("%8" PRIu64 "  %-6s %s\n", ev->clock, isk_inst_name(ev->inst), isk_event_text(ev, text, sizeof text));
    }
}

isk_status cli_trace(isk_system *sys)
{
    for (int i = 0; isk_instance_at(sys, i); i++) isk_watch(isk_instance_at(sys, i), -1, true);
    return isk_subscribe(sys, ISK_EV_ALL & ~ISK_EV_BIT(ISK_EV_RESOURCE), print_event, NULL);
}

/* ---- Ctrl-C ------------------------------------------------------------------------------ */

/* The handler must find the running system, and SIGINT may be delivered to any thread of the
 * process (the engine's watchdog has one): so a process-wide pointer, set only while a run is
 * under way. The CLI runs one system at a time. */
static isk_system *volatile interrupted_sys;
static volatile sig_atomic_t interrupts;
static struct sigaction previous_sigint;

static void on_sigint(int sig)
{
    (void)sig;
    if (++interrupts > 1) {
        static const char msg[] = "\nisekit: interrupted again, exiting at once\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(EXIT_INTERRUPTED);
    }
    isk_system *sys = interrupted_sys;
    if (sys) isk_request_stop(sys);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_run_begin(cli_run *r, const char *cmd, isk_system *sys, const cli_run_opts *o, uint64_t max_clocks)
{
    memset(r, 0, sizeof *r);
    r->cmd = cli_command_name(cmd, o->debug.on, r->cmd_buf, sizeof r->cmd_buf);
    r->sys = sys;
    r->opts = o;
    uint64_t now = isk_clock(sys);
    r->limit = max_clocks > UINT64_MAX - now ? UINT64_MAX : now + max_clocks;
    r->slice = 4096;
    r->progress = isatty(STDERR_FILENO);
    r->start = r->last_shown = now_seconds();
    r->last_clock = r->first_clock = now;
    isk_stats st;
    isk_get_stats(sys, &st);
    r->first_insns = st.instructions;
    interrupts = 0;
    interrupted_sys = sys;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &previous_sigint);
    r->observers_failed = !cli_traces_begin(r, o) || !cli_profile_begin(r, o) || !cli_debug_begin(r, o) ||
                          !cli_dap_begin(r, o);
}

/* Every second on a terminal: where the run is and how fast it goes. */
static void show_progress(cli_run *r, double t)
{
    uint64_t clock = isk_clock(r->sys);
    double rate = (double)(clock - r->last_clock) / (t - r->last_shown);
    fprintf(stderr, "\r\033[K%s: clock %" PRIu64 ", %.3g clocks/s, %.0f s (Ctrl-C stops)", r->cmd, clock, rate,
            t - r->start);
    fflush(stderr);
    r->shown = true;
    r->last_shown = t;
    r->last_clock = clock;
}

static void clear_progress(cli_run *r)
{
    if (!r->shown) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    r->shown = false;
}

isk_status cli_run_go(cli_run *r, uint64_t clocks)
{
    if (r->observers_failed) return ISK_FAILED;
    if (r->debugger) return cli_debug_go(r, clocks);
    if (r->dap) return cli_dap_go(r, clocks);
    uint64_t now = isk_clock(r->sys);
    uint64_t end = clocks && clocks < r->limit - now ? now + clocks : r->limit;
    isk_status st = ISK_OK;
    while (st == ISK_OK && !interrupts && (now = isk_clock(r->sys)) < end) {
        uint64_t n = end - now < r->slice ? end - now : r->slice;
        double t0 = now_seconds();
        st = isk_run(r->sys, n);
        if (st == ISK_OK && r->between) r->between(r->between_user);
        double t = now_seconds();
        if (st == ISK_BREAK && !r->break_ends_run) {
            /* a breakpoint instruction with no debugger to stop in: say so and go on */
            clear_progress(r);
            fprintf(stderr, "%s: %s (no debugger: continuing)\n", r->cmd, isk_stop_reason(r->sys));
            st = ISK_OK;
            continue;
        }
        /* slices of about 0.1 s: Ctrl-C and the progress line stay prompt at no measurable cost */
        if (t - t0 < 0.05 && r->slice < (1ull << 40)) r->slice *= 2;
        else if (t - t0 > 0.2 && r->slice > 1) r->slice /= 2;
        if (r->progress && t - r->last_shown >= 1.0) show_progress(r, t);
    }
    return st;
}

/* ---- runs whose host code drives the clock ------------------------------------------------- */

/* The host's thread and the caller's take turns: exactly one of them runs at any time, so the
 * system is never touched by two threads at once (the mutex orders what each one did). */
typedef struct cli_hosted {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool host_turn;          /* the host's thread runs (else the debugger's) */
    bool done;               /* the host returned */
    bool quit;               /* the debugger left: every cli_run_step fails */
    int (*host)(void *user);
    void *user;
    int result;
    uint64_t budget_end;     /* cli_run_advance: the host's steps run up to this clock */
    isk_status status;       /* what the host's steps report to cli_run_advance */
} cli_hosted;

/* Give the turn to the host (to_host) or back to the debugger; return when it comes back. */
static void pass_turn(cli_hosted *h, bool to_host)
{
    pthread_mutex_lock(&h->mu);
    h->host_turn = to_host;
    pthread_cond_broadcast(&h->cv);
    while (h->host_turn == to_host && !(to_host && h->done)) pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

/* The host's side: report st to the debugger and wait for its next command. */
static void host_yield(cli_hosted *h, isk_status st)
{
    h->status = st;
    pass_turn(h, false);
}

static void *host_thread(void *arg)
{
    cli_hosted *h = arg;
    pthread_mutex_lock(&h->mu);
    while (!h->host_turn) pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
    int result = h->host(h->user);
    pthread_mutex_lock(&h->mu);
    h->result = result;
    h->done = true;
    h->status = ISK_STOPPED;
    h->host_turn = false;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

isk_status cli_run_hosted(cli_run *r, int (*host)(void *user), void *user, int *result)
{
    *result = 0;
    if (r->observers_failed) return ISK_FAILED;
    if (!r->debugger && !r->dap) {
        *result = host(user);
        return ISK_OK;
    }
    cli_hosted h = { .host = host, .user = user, .status = ISK_OK };
    pthread_mutex_init(&h.mu, NULL);
    pthread_cond_init(&h.cv, NULL);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)16 << 20);    /* a host program is a main program */
    pthread_t thread;
    int err = pthread_create(&thread, &attr, host_thread, &h);
    pthread_attr_destroy(&attr);
    isk_status st = ISK_FAILED;
    if (err) {
        fprintf(stderr, "%s: cannot start the host program's thread: %s\n", r->cmd, strerror(err));
    } else {
        r->hosted = &h;
        pass_turn(&h, true);           /* up to the host's first step: the session's first stop */
        st = cli_run_go(r, 0);
        if (!h.done) {
            h.quit = true;             /* the debugger left: the host's steps fail from here */
            pass_turn(&h, true);
        }
        pthread_join(thread, NULL);
        r->hosted = NULL;
        *result = h.result;
    }
    pthread_cond_destroy(&h.cv);
    pthread_mutex_destroy(&h.mu);
    return st;
}

isk_status cli_run_step(cli_run *r, uint64_t clocks)
{
    cli_hosted *h = r->hosted;
    if (!h) return isk_step(r->sys, clocks);
    if (h->quit) return ISK_FAILED;
    uint64_t now = isk_clock(r->sys), end = clocks > UINT64_MAX - now ? UINT64_MAX : now + clocks;
    /* the debugger first: a watched cell the host wrote, Ctrl-C, or the session's first stop */
    host_yield(h, ISK_OK);
    bool mid_clock = false;
    for (;;) {
        if (h->quit) return ISK_FAILED;
        now = isk_clock(r->sys);
        if (now >= end && !mid_clock) return ISK_OK;
        if (now >= h->budget_end && !mid_clock) {
            host_yield(h, ISK_OK);     /* the debugger's clocks have run */
            continue;
        }
        /* after a stop inside a clock, finish that clock alone: a port handler may have asked
         * the host's step to end with it (isk_stop_after_clock), which the stop forgot */
        uint64_t k = mid_clock ? 1 : (end < h->budget_end ? end : h->budget_end) - now;
        isk_status st = isk_step(r->sys, k);
        if (st == ISK_BREAK) {
            host_yield(h, ISK_BREAK);  /* a breakpoint or a step: the prompt */
            mid_clock = true;
            continue;
        }
        if (st != ISK_OK) {
            host_yield(h, st);         /* the debugger shows the error first */
            return st;
        }
        if (mid_clock) return ISK_OK;  /* a clock boundary: the host looks at what it waits for */
        if (isk_clock(r->sys) - now < k) {
            /* a stop request ended the step early: the host's own, a watch's or Ctrl-C's */
            host_yield(h, ISK_OK);
            return h->quit ? ISK_FAILED : ISK_OK;
        }
    }
}

isk_status cli_run_advance(cli_run *r, uint64_t clocks)
{
    cli_hosted *h = r->hosted;
    if (!h) return isk_run(r->sys, clocks);
    if (h->done) return ISK_STOPPED;
    uint64_t now = isk_clock(r->sys);
    h->budget_end = clocks && clocks < UINT64_MAX - now ? now + clocks : UINT64_MAX;
    pass_turn(h, true);
    return h->status;
}

bool cli_run_interrupted(const cli_run *r)
{
    (void)r;
    return interrupts != 0;
}

bool cli_run_at_limit(const cli_run *r) { return isk_clock(r->sys) >= r->limit; }

void cli_run_end(cli_run *r)
{
    cli_dap_end(r);
    cli_debug_end(r);
    cli_profile_end(r);
    cli_traces_end(r);
    clear_progress(r);
    double t = now_seconds() - r->start;
    if (r->progress && t > 1.0) {
        isk_stats st;
        isk_get_stats(r->sys, &st);
        uint64_t clocks = isk_clock(r->sys) - r->first_clock, insns = st.instructions - r->first_insns;
        fprintf(stderr, "%s: %" PRIu64 " clocks in %.1f s of host time: %.3g clocks/s, %.3g instructions/s\n", r->cmd,
                clocks, t, (double)clocks / t, (double)insns / t);
    }
    interrupted_sys = NULL;
    sigaction(SIGINT, &previous_sigint, NULL);
}

int cli_run_unfinished(cli_run *r, const char *where)
{
    clear_progress(r);
    char what[4096] = "";
    isk_describe_activity(r->sys, what, sizeof what);
    uint64_t clock = isk_clock(r->sys);
    if (cli_run_interrupted(r))
        fprintf(stderr, "%s: interrupted (Ctrl-C) at clock %" PRIu64 "\n", r->cmd, clock);
    else if (clock < r->limit)
        fprintf(stderr, "%s: the run would reach --max-clocks (clock %" PRIu64 ") with nothing running: stopped at "
                "clock %" PRIu64 "\n", r->cmd, r->limit, clock);
    else
        fprintf(stderr, "%s: --max-clocks reached: stopped at clock %" PRIu64 "\n", r->cmd, clock);
    if (where) fprintf(stderr, "  %s\n", where);
    if (*what) fprintf(stderr, "  still running:\n");
    for (const char *p = what; *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        if (len) fprintf(stderr, "    %.*s\n", len, p);
        p += len + (nl != NULL);
    }
    return cli_run_interrupted(r) ? EXIT_INTERRUPTED : EXIT_LIMIT;
}

void cli_run_fault_hint(const cli_run *r)
{
    if (strstr(isk_last_error(r->sys), "stack overflow"))
        fprintf(stderr, "%s: give the behaviours a larger stack with --behaviour-stack BYTES\n", r->cmd);
}

bool cli_check_param(const char *cmd, const isk_model *m, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    char why[512] = "write KEY=VALUE", key[128];
    if (eq) snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
    if (eq && (size_t)(eq - assignment) < sizeof key && isk_model_check_param(m, key, eq + 1, why, sizeof why))
        return true;
    fprintf(stderr, "%s: --param %s: %s\n", cmd, assignment, why);
    return false;
}

bool cli_set_params(const char *cmd, isk_inst *inst, const cli_run_opts *o, int *rc)
{
    char name[96];
    cmd = cli_command_name(cmd, o->debug.on, name, sizeof name);
    for (int i = 0; i < o->nparams; i++) {
        if (!cli_check_param(cmd, isk_inst_model(inst), o->params[i])) {
            *rc = EXIT_USAGE;
            return false;
        }
        if (isk_set_param_text(inst, o->params[i]) != ISK_OK) return false;
    }
    return true;
}

bool cli_show_value(isk_inst *inst, const char *name, const char *shown_as)
{
    int64_t v;
    if (isk_read(inst, name, 0, &v) != ISK_OK) return false;
    isk_ref ref;
    char msg[256];
    const isk_storage_info *s = isk_resolve(inst, name, &ref, msg, sizeof msg) == ISK_OK
                                    ? isk_model_storage(isk_inst_model(inst), ref.storage) : NULL;
    if (s && s->display != ISK_DISPLAY_INT) {
        char text[128];
        isk_format_cell(s, v, text, sizeof text);
        printf("%s = %s\n", shown_as, text);
    } else {
        printf("%s = %" PRId64 " (0x%" PRIx64 ")\n", shown_as, v, (uint64_t)v);
    }
    return true;
}

bool cli_show_values(isk_inst *inst, const cli_run_opts *o)
{
    bool ok = true;
    for (int i = 0; i < o->nshows; i++) ok &= cli_show_value(inst, o->shows[i], o->shows[i]);
    return ok;
}
