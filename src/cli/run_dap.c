/* The Debug Adapter Protocol server of a run (run_observe.h, docs/dap.md): `--dap` serves one
 * client on stdin/stdout (the runner's own stdout goes to stderr meanwhile, so that nothing
 * corrupts the stream), `--dap-port N` one client on 127.0.0.1:N. The client's requests run
 * the system in slices, stopping through the engine's before-issue hook for breakpoints and
 * steps; everything shown is the model's declaration (display names, widths, the address map,
 * the loader's symbols and line table), so any model is debugged without code of its own. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/loaded.h"
#include "base/num.h"
#include "cli/dap_int.h"
#include "isekit/desc.h"

/* ---- options ---------------------------------------------------------------------------- */

bool cli_dap_option(cli_args *a, cli_run_opts *o)
{
    if (cli_flag(a, "--dap")) o->dap.on = true;
    else if (cli_u64(a, "--dap-port", 0, 65535, ISK_UNIT_NONE, &o->dap.port)) o->dap.tcp = true;
    else return false;
    return true;
}

/* ---- breakpoints and steps: the before-issue hook ------------------------------------------ */

static dap_thread *thread_of(struct cli_dap *d, const isk_inst *inst, uint32_t ctx, int *id)
{
    for (size_t i = 0; i < d->threads.len; i++)
        if (d->threads.data[i].inst == inst && d->threads.data[i].ctx == (int)ctx) {
            if (id) *id = (int)i + 1;
            return &d->threads.data[i];
        }
    return NULL;
}

static int before_issue(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    (void)clock;
    struct cli_dap *d = user;
    const isk_context *c = isk_context_of(proc, (int)context);
    long depth = dbg_calls_issue(&d->calls, proc, context, pc);
    if (d->out_thread > 0 && depth >= 0 && depth < d->out_depth) {
        const dap_thread *t = &d->threads.data[d->out_thread - 1];
        if (t->inst == proc && t->ctx == (int)context) {
            d->hit_reason = "step";
            d->hit_thread = d->out_thread;
            return 1;
        }
    }
    if (d->step_thread > 0) {
        const dap_thread *t = &d->threads.data[d->step_thread - 1];
        if (t->inst == proc && t->ctx == (int)context && c->insns != d->step_insns) {
            d->hit_reason = "step";
            d->hit_thread = d->step_thread;
            return 1;
        }
    }
    for (size_t i = 0; i < d->bps.len; i++) {
        const dap_bp *b = &d->bps.data[i];
        if (b->inst != proc || b->pc != pc) continue;
        int id = 0;
        const dap_thread *t = thread_of(d, proc, context, &id);
        /* a context still at the breakpoint it was stopped at goes past it */
        if (t && t->resume_insns == c->insns && t->resume_pc == pc) continue;
        d->hit_reason = b->kind == BP_INSN ? "instruction breakpoint" : b->kind == BP_FUNC ? "function breakpoint"
                                                                                            : "breakpoint";
        d->hit_thread = id;
        d->hit_bp = b->id;
        return 1;
    }
    return 0;
}

/* ---- begin and end ------------------------------------------------------------------------ */

bool cli_dap_begin(cli_run *r, const cli_run_opts *o)
{
    if (!o->dap.on && !o->dap.tcp) return true;
    struct cli_dap *d = isk_xcalloc(1, sizeof *d);
    d->r = r;
    d->saved_stdout = -1;
    d->step_thread = d->out_thread = -1;
    d->last = ISK_OK;
    if (o->dap.tcp) {
        d->in_fd = d->out_fd = dap_serve_tcp(r, o->dap.port);
        if (d->in_fd < 0) {
            free(d);
            return false;
        }
    } else {
        /* the protocol keeps the real stdout; whatever the runner and the models print goes to
         * stderr until the session ends */
        fflush(stdout);
        d->saved_stdout = d->out_fd = dup(STDOUT_FILENO);
        if (d->out_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            fprintf(stderr, "%s: --dap: %s\n", r->cmd, strerror(errno));
            if (d->out_fd >= 0) close(d->out_fd);
            free(d);
            return false;
        }
        d->in_fd = STDIN_FILENO;
    }
    isk_inst *inst;
    for (int i = 0; (inst = isk_instance_at(r->sys, i)); i++)
        if (!isk_inst_model(inst)->is_processor) VEC_PUSH(&d->threads, (dap_thread){ .inst = inst, .ctx = -1, .inst_index = i });
        else
            for (int c = 0; isk_context_of(inst, c); c++)
                VEC_PUSH(&d->threads, (dap_thread){ .inst = inst, .ctx = c, .inst_index = i });
    d->cur_thread = d->threads.len ? 1 : 0;
    /* a client that goes away while we write must end the session, not the process */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &d->old_sigpipe);
    isk_set_before_issue(r->sys, before_issue, d);
    dbg_calls_attach(&d->calls, r->sys);
    r->dap = d;
    return true;
}

void cli_dap_end(cli_run *r)
{
    struct cli_dap *d = r->dap;
    if (!d) return;
    isk_set_before_issue(r->sys, NULL, NULL);
    dbg_calls_detach(&d->calls);
    sigaction(SIGPIPE, &d->old_sigpipe, NULL);
    if (d->saved_stdout >= 0) {
        fflush(stdout);
        dup2(d->saved_stdout, STDOUT_FILENO);
        close(d->saved_stdout);
    } else {
        close(d->in_fd);
    }
    for (size_t i = 0; i < d->bps.len; i++) free(d->bps.data[i].source);
    VEC_FREE(&d->bps);
    VEC_FREE(&d->threads);
    free(d->buf);
    free(d);
    r->dap = NULL;
}

/* ---- the requests ------------------------------------------------------------------------------- */


static const char *req_initialize(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)a;
    static const char *const caps[] = { "supportsConfigurationDoneRequest", "supportsReadMemoryRequest",
                                        "supportsWriteMemoryRequest", "supportsDisassembleRequest",
                                        "supportsInstructionBreakpoints", "supportsSteppingGranularity",
                                        "supportsSetVariable", "supportsFunctionBreakpoints", "supportsTerminateRequest" };
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) jb_kbool(b, caps[i], true);
    (void)d;
    return NULL;
}

static const char *req_launch(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)b;
    /* the program was given on the command line; `program` is the client's business */
    d->stop_on_entry = dj_bool(a, "stopOnEntry", false);
    d->launched = true;
    return NULL;
}

static const char *req_configuration_done(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)a, (void)b;
    d->configured = true;
    return NULL;
}

static void breakpoint_json(jbuf *b, const dap_bp *bp, bool verified, const char *message, int64_t line)
{
    jb_add(b, "%s{", b->p[b->len - 1] == '[' ? "" : ",");
    jb_kbool(b, "verified", verified);
    if (bp) {
        jb_kint(b, "id", bp->id);
        uint64_t addr;
        char ref[32];
        if (isk_pc_to_addr(isk_inst_model(bp->inst), bp->pc, &addr)) {
            snprintf(ref, sizeof ref, "0x%" PRIx64, addr);
            jb_kstr(b, "instructionReference", ref);
        }
    }
    if (line > 0) jb_kint(b, "line", line);
    if (message) jb_kstr(b, "message", message);
    jb_add(b, "}");
}

static void drop_bps(struct cli_dap *d, int kind, const char *source)
{
    size_t k = 0;
    for (size_t i = 0; i < d->bps.len; i++) {
        dap_bp *bp = &d->bps.data[i];
        if (bp->kind == kind && (!source || strcmp(bp->source, source) == 0)) free(bp->source);
        else d->bps.data[k++] = *bp;
    }
    d->bps.len = k;
}

/* Where one breakpoint of a request lies in inst: up to cap PCs, or 0 with why said. */
typedef int (*bp_where)(const dj *item, const char *source, isk_inst *inst, uint64_t *pcs, int cap, char *why,
                        size_t wcap);

/* A setBreakpoints-like request: the breakpoints of `kind` (of `source`) replaced by the list's,
 * each in every processor instance where `where` finds it. */
static const char *set_bps(struct cli_dap *d, const dj *a, jbuf *b, int kind, const char *source, bp_where where)
{
    drop_bps(d, kind, source);
    const dj *list = dj_get(a, "breakpoints");
    jb_key(b, "breakpoints");
    jb_add(b, "[");
    for (size_t i = 0; list && list->type == DJ_ARR && i < list->n; i++) {
        const dj *item = &list->items[i];
        size_t first = d->bps.len;
        char why[200] = "";
        isk_inst *inst;
        for (int k = 0; (inst = isk_instance_at(d->r->sys, k)); k++) {
            uint64_t pcs[16];
            int n = isk_inst_model(inst)->is_processor ? where(item, source, inst, pcs, 16, why, sizeof why) : 0;
            for (int j = 0; j < n && j < 16; j++)
                VEC_PUSH(&d->bps, (dap_bp){ .kind = kind, .id = ++d->next_bp, .inst = inst, .pc = pcs[j],
                                            .source = source ? isk_xstrdup(source) : NULL });
        }
        const dap_bp *bp = first < d->bps.len ? &d->bps.data[first] : NULL;
        breakpoint_json(b, bp, bp != NULL, bp ? NULL : why, kind == BP_SOURCE ? dj_int(item, "line", 0) : 0);
    }
    jb_add(b, "]");
    return NULL;
}

/* The PCs of `line` of the client's `path`: the line table names files as the assembler was
 * given them, so the path is tried whole, then without its leading directories. */
static int where_line(const dj *item, const char *path, isk_inst *inst, uint64_t *pcs, int cap, char *why, size_t wcap)
{
    const isk_loaded *l = isk_loaded_of(inst);
    int64_t line = dj_int(item, "line", 0);
    for (const char *p = path; l && line > 0 && line <= UINT32_MAX && p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL) {
        int n = isk_loaded_line_pcs(l, p, (uint32_t)line, pcs, cap);
        if (n) return n;
    }
    snprintf(why, wcap, "%s", l && l->lines.len ? "no code at this line" : "no line information in the program");
    return 0;
}

static int where_address(const dj *item, const char *source, isk_inst *inst, uint64_t *pcs, int cap, char *why,
                         size_t wcap)
{
    (void)source, (void)cap;
    uint64_t addr;
    if (!isk_parse_u64(dj_str(item, "instructionReference", ""), 0, UINT64_MAX, ISK_UNIT_NONE, &addr, why, wcap))
        return 0;
    addr += (uint64_t)dj_int(item, "offset", 0);
    if (isk_addr_to_pc(isk_inst_model(inst), addr, pcs)) return 1;
    snprintf(why, wcap, "0x%" PRIx64 " is no instruction's address", addr);
    return 0;
}

static int where_symbol(const dj *item, const char *source, isk_inst *inst, uint64_t *pcs, int cap, char *why,
                        size_t wcap)
{
    (void)source, (void)cap;
    const char *name = dj_str(item, "name", "");
    const isk_loaded *l = isk_loaded_of(inst);
    const isk_loaded_sym *s = l ? isk_loaded_find(l, name) : NULL;
    if (s && s->code) {
        pcs[0] = s->pc;
        return 1;
    }
    snprintf(why, wcap, "no code symbol '%s' in the program", name);
    return 0;
}

static const char *req_set_breakpoints(struct cli_dap *d, const dj *a, jbuf *b)
{
    const char *path = dj_str(dj_get(a, "source"), "path", NULL);
    if (!path) path = dj_str(dj_get(a, "source"), "name", NULL);
    if (!path) return "setBreakpoints: no source path";
    return set_bps(d, a, b, BP_SOURCE, path, where_line);
}

static const char *req_set_instruction_breakpoints(struct cli_dap *d, const dj *a, jbuf *b)
{
    return set_bps(d, a, b, BP_INSN, NULL, where_address);
}

static const char *req_set_function_breakpoints(struct cli_dap *d, const dj *a, jbuf *b)
{
    return set_bps(d, a, b, BP_FUNC, NULL, where_symbol);
}


/* continue, next, stepIn: the run goes on (cli_dap_go runs it) */
static void resume(struct cli_dap *d, int step_thread)
{
    for (size_t i = 0; i < d->threads.len; i++) {
        dap_thread *t = &d->threads.data[i];
        if (t->ctx < 0) continue;
        t->resume_insns = isk_context_of(t->inst, t->ctx)->insns;
        t->resume_pc = isk_context_of(t->inst, t->ctx)->pc;
    }
    d->step_thread = step_thread;
    if (step_thread > 0) {
        const dap_thread *t = &d->threads.data[step_thread - 1];
        d->step_insns = t->ctx < 0 ? 0 : isk_context_of(t->inst, t->ctx)->insns;
    }
    d->running = true;
}

static const char *req_continue(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)a;
    jb_kbool(b, "allThreadsContinued", true);
    resume(d, -1);
    return NULL;
}

static const char *req_step(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)b;
    const dap_thread *t = dap_thread_arg(d, a);
    if (!t) return d->msg;
    resume(d, (int)(t - d->threads.data) + 1);
    return NULL;
}

/* stepOut = the debugger's finish: run until the thread's call depth drops below the current one */
static const char *req_step_out(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)b;
    const dap_thread *t = dap_thread_arg(d, a);
    if (!t) return d->msg;
    if (t->ctx < 0 || !dbg_model_has_calls(t->inst)) {
        snprintf(d->msg, sizeof d->msg, "stepOut: model '%s' declares no calls (INSTRUCTION .flow): step, or set a "
                 "breakpoint where to stop", isk_model_name(isk_inst_model(t->inst)));
        return d->msg;
    }
    long depth = dbg_calls_frames(&d->calls, t->inst, (uint32_t)t->ctx, NULL, 0, NULL);
    if (!depth) return "stepOut: the thread is in its outermost frame";
    resume(d, -1);
    d->out_thread = (int)(t - d->threads.data) + 1;
    d->out_depth = depth;
    return NULL;
}

static const char *req_pause(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)a, (void)b;
    if (d->running) d->pause = true;
    return NULL;
}

static const char *req_disconnect(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)b;
    d->disconnected = true;
    d->detach = !dj_bool(a, "terminateDebuggee", true);
    return NULL;
}

static const struct { const char *name; dap_handler fn; } requests[] = {
    { "initialize", req_initialize },
    { "launch", req_launch },
    { "attach", req_launch },
    { "configurationDone", req_configuration_done },
    { "setBreakpoints", req_set_breakpoints },
    { "setInstructionBreakpoints", req_set_instruction_breakpoints },
    { "setFunctionBreakpoints", req_set_function_breakpoints },
    { "threads", dap_req_threads },
    { "stackTrace", dap_req_stack_trace },
    { "scopes", dap_req_scopes },
    { "variables", dap_req_variables },
    { "setVariable", dap_req_set_variable },
    { "readMemory", dap_req_read_memory },
    { "writeMemory", dap_req_write_memory },
    { "disassemble", dap_req_disassemble },
    { "continue", req_continue },
    { "next", req_step },
    { "stepIn", req_step },
    { "stepOut", req_step_out },
    { "pause", req_pause },
    { "disconnect", req_disconnect },
    { "terminate", req_disconnect },
};

/* One message: false when the session must end (bad JSON). */
static bool handle(struct cli_dap *d, const char *text)
{
    char err[160];
    dj *msg = dj_parse(text, strlen(text), err, sizeof err);
    if (!msg || msg->type != DJ_OBJ) {
        fprintf(stderr, "%s: DAP: a message that is %s: ending the session\n", d->r->cmd,
                msg ? "no JSON object" : err);
        dj_free(msg);
        return false;
    }
    const char *type = dj_str(msg, "type", ""), *cmd = dj_str(msg, "command", "");
    if (strcmp(type, "request") != 0) {
        dj_free(msg);
        return true;     /* responses to reverse requests, events: nothing we asked for */
    }
    dap_handler fn = NULL;
    for (size_t i = 0; i < sizeof requests / sizeof *requests; i++)
        if (strcmp(requests[i].name, cmd) == 0) fn = requests[i].fn;
    jbuf body = { 0 };
    jb_add(&body, "{");
    const char *failed = NULL;
    if (!fn) {
        snprintf(d->msg, sizeof d->msg, "isekit does not support the request '%s'", cmd);
        failed = d->msg;
    } else if (d->running && fn != req_pause && fn != req_disconnect && fn != dap_req_threads &&
               fn != req_set_breakpoints && fn != req_set_instruction_breakpoints &&
               fn != req_set_function_breakpoints) {
        snprintf(d->msg, sizeof d->msg, "'%s' needs the program stopped (pause it first)", cmd);
        failed = d->msg;
    } else if (d->ended && (fn == req_continue || fn == req_step)) {
        failed = "the program has ended";
    } else {
        failed = fn(d, dj_get(msg, "arguments"), &body);
    }
    jb_add(&body, "}");
    jbuf m = { 0 };
    jb_add(&m, "{\"seq\":%lld,\"type\":\"response\"", (long long)++d->seq);
    jb_kint(&m, "request_seq", dj_int(msg, "seq", 0));
    jb_kbool(&m, "success", !failed);
    jb_kstr(&m, "command", cmd);
    if (failed) jb_kstr(&m, "message", failed);
    jb_add(&m, ",\"body\":%s}", body.p);
    dap_send_json(d, &m);
    jb_free(&m);
    jb_free(&body);
    if (!failed && fn == req_initialize) dap_event(d, "initialized", NULL);
    dj_free(msg);
    return true;
}

/* ---- running --------------------------------------------------------------------------------- */

static void stopped(struct cli_dap *d, const char *reason, int thread, const char *text, int bp)
{
    d->running = false;
    d->step_thread = d->out_thread = -1;
    if (thread > 0) d->cur_thread = thread;
    jbuf b = { 0 };
    jb_kstr(&b, "reason", reason);
    if (thread > 0) jb_kint(&b, "threadId", thread);
    if (text) jb_kstr(&b, "description", text);
    if (text) jb_kstr(&b, "text", text);
    jb_kbool(&b, "allThreadsStopped", true);
    if (bp > 0) jb_add(&b, ",\"hitBreakpointIds\":[%d]", bp);
    dap_event(d, "stopped", b.p);
    jb_free(&b);
}

static void ended(struct cli_dap *d, int code)
{
    d->running = false;
    d->ended = true;
    char body[32];
    snprintf(body, sizeof body, "\"exitCode\":%d", code);
    dap_event(d, "exited", body);
    dap_event(d, "terminated", NULL);
}

/* Run one slice, or until a stop, and tell the client what happened. */
static void run_slice(struct cli_dap *d)
{
    cli_run *r = d->r;
    if (d->faulted) {          /* going on after a fault: the run is over */
        ended(d, 1);
        return;
    }
    uint64_t now = isk_clock(r->sys);
    if (now >= r->limit || cli_run_interrupted(r)) {
        d->last = ISK_OK;
        ended(d, cli_run_interrupted(r) ? EXIT_INTERRUPTED : r->limit_is_end ? 0 : EXIT_LIMIT);
        return;
    }
    d->hit_reason = NULL;
    d->hit_bp = 0;
    int clock_step = d->step_thread > 0 && d->threads.data[d->step_thread - 1].ctx < 0 ? d->step_thread : 0;
    isk_status st = cli_run_advance(r, clock_step ? 1 : r->limit - now < 4096 ? r->limit - now : 4096);
    d->last = st;
    char why[512];
    switch (st) {
    case ISK_BREAK:
        if (d->hit_reason) {
            stopped(d, d->hit_reason, d->hit_thread, d->hit_reason, d->hit_bp);
        } else {       /* the program's own breakpoint instruction */
            snprintf(why, sizeof why, "%s", isk_stop_reason(r->sys));
            stopped(d, "breakpoint", d->cur_thread, why, 0);
        }
        break;
    case ISK_OK:
        if (r->between) r->between(r->between_user);
        if (clock_step) {
            stopped(d, "step", clock_step, NULL, 0);
        } else if (d->pause) {
            d->pause = false;
            stopped(d, "pause", d->cur_thread, NULL, 0);
        }
        break;
    case ISK_STOPPED:
        ended(d, 0);
        break;
    default:           /* a fault, a conflict, an error: stop there so the state can be looked at */
        snprintf(why, sizeof why, "%s", *isk_last_error(r->sys) ? isk_last_error(r->sys) : "the run failed");
        dap_output(d, "stderr", why);
        dap_output(d, "stderr", "\n");
        d->faulted = true;
        stopped(d, "exception", d->cur_thread, why, 0);
        break;
    }
}

isk_status cli_dap_go(cli_run *r, uint64_t clocks)
{
    (void)clocks;      /* the client decides how far the run goes */
    struct cli_dap *d = r->dap;
    while (!d->disconnected) {
        if (!d->started && d->launched && d->configured) {
            d->started = true;
            if (d->stop_on_entry) stopped(d, "entry", d->cur_thread, NULL, 0);
            else resume(d, -1);
        }
        if (d->running && !dap_input_waiting(d)) {
            run_slice(d);
            continue;
        }
        char *text = dap_read_message(d);
        bool ok = text && handle(d, text);
        free(text);
        if (!ok) {
            d->broken = true;
            break;
        }
    }
    if (d->ended || d->faulted) return d->last;
    if (d->detach && !d->broken) {
        /* the client let the program go: it runs to its end without breakpoints */
        isk_set_before_issue(r->sys, NULL, NULL);
        isk_status st;
        do {
            uint64_t now = isk_clock(r->sys);
            if (now >= r->limit || cli_run_interrupted(r)) return ISK_OK;
            st = cli_run_advance(r, r->limit - now < 4096 ? r->limit - now : 4096);
            if (st == ISK_OK && r->between) r->between(r->between_user);
        } while (st == ISK_OK || st == ISK_BREAK);
        return st;
    }
    fprintf(stderr, "%s: the DAP %s at clock %" PRIu64 ", before the program ended\n", r->cmd,
            d->broken ? "session broke off" : "client ended the session", isk_clock(r->sys));
    return ISK_FAILED;
}
