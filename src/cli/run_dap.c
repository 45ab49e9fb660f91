/* The Debug Adapter Protocol server of a run (run_observe.h, docs/dap.md): `--dap` serves one
 * client on stdin/stdout (the runner's own stdout goes to stderr meanwhile, so that nothing
 * corrupts the stream), `--dap-port N` one client on 127.0.0.1:N. The client's requests run
 * the system in slices, stopping through the engine's before-issue hook for breakpoints and
 * steps; everything shown is the model's declaration (display names, widths, the address map,
 * the loader's symbols and line table), so any model is debugged without code of its own. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "asm/disasm.h"
#include "asm/loaded.h"
#include "base/num.h"
#include "base/str.h"
#include "base/vec.h"
#include "cli/dap_json.h"
#include "cli/run_observe.h"
#include "cli/runctl.h"
#include "isekit/desc.h"

enum { BP_SOURCE, BP_INSN, BP_FUNC };

/* A processor context, or (ctx -1) an accelerator: a client shows variables only for a thread's
 * frames, and steps an accelerator a clock at a time. */
typedef struct dap_thread {
    isk_inst *inst;
    int ctx, inst_index;
    uint64_t resume_insns, resume_pc;   /* where it stood when the run last went on */
} dap_thread;

typedef struct dap_bp {
    int kind, id;
    char *source;                        /* BP_SOURCE: the client's path */
    isk_inst *inst;
    uint64_t pc;
} dap_bp;

struct cli_dap {
    cli_run *r;
    int in_fd, out_fd, saved_stdout;     /* saved_stdout: -1 unless stdout was redirected */
    char *buf;
    size_t len, cap;
    int64_t seq;
    VEC(dap_thread) threads;
    VEC(dap_bp) bps;
    int next_bp;
    bool detach, broken;
    bool launched, configured, started, stop_on_entry, running, ended, disconnected, pause, faulted;
    int step_thread;                     /* -1: no step under way */
    uint64_t step_insns;
    const char *hit_reason;              /* set by the hook when it stops the run */
    int hit_thread, hit_bp;
    int cur_thread;                      /* the thread of the last stop: memory requests use its instance */
    isk_status last;
    struct sigaction old_sigpipe;
    char msg[256];                       /* the message of a failed request */
};

/* ---- options ---------------------------------------------------------------------------- */

bool cli_dap_option(cli_args *a, cli_run_opts *o)
{
    if (cli_flag(a, "--dap")) o->dap.on = true;
    else if (cli_u64(a, "--dap-port", 0, 65535, ISK_UNIT_NONE, &o->dap.port)) o->dap.tcp = true;
    else return false;
    return true;
}

/* ---- the transport ---------------------------------------------------------------------- */

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static void send_json(struct cli_dap *d, jbuf *msg)
{
    char hdr[64];
    int k = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", msg->len);
    if (!write_all(d->out_fd, hdr, (size_t)k) || !write_all(d->out_fd, msg->p, msg->len)) d->disconnected = true;
}

/* An event; body is the inside of its body object ("" or NULL for none). */
static void event(struct cli_dap *d, const char *name, const char *body)
{
    jbuf m = { 0 };
    jb_add(&m, "{\"seq\":%lld,\"type\":\"event\",\"event\":", (long long)++d->seq);
    jb_str(&m, name);
    if (body && *body) jb_add(&m, ",\"body\":{%s}", body);
    jb_add(&m, "}");
    send_json(d, &m);
    jb_free(&m);
}

static void output(struct cli_dap *d, const char *category, const char *text)
{
    jbuf b = { 0 };
    jb_kstr(&b, "category", category);
    jb_kstr(&b, "output", text);
    event(d, "output", b.p);
    jb_free(&b);
}

/* One message's body (malloc'd, NUL-terminated) or NULL at the end of the input or after bad
 * framing (reported on stderr: the session then ends). */
static char *read_message(struct cli_dap *d)
{
    for (;;) {
        size_t hdr, n;
        char err[160];
        int f = d->len ? dap_frame(d->buf, d->len, &hdr, &n, err, sizeof err) : 0;
        if (f < 0) {
            fprintf(stderr, "%s: DAP: %s: ending the session\n", d->r->cmd, err);
            return NULL;
        }
        if (f > 0) {
            char *body = isk_xcalloc(1, n + 1);
            memcpy(body, d->buf + hdr, n);
            memmove(d->buf, d->buf + hdr + n, d->len - hdr - n);
            d->len -= hdr + n;
            return body;
        }
        if (d->cap - d->len < 65536) {
            d->cap = d->cap * 2 + 65536;
            d->buf = isk_xrealloc(d->buf, d->cap);
        }
        ssize_t k = read(d->in_fd, d->buf + d->len, d->cap - d->len);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (d->len) fprintf(stderr, "%s: DAP: the input ended inside a message: ending the session\n", d->r->cmd);
            return NULL;
        }
        d->len += (size_t)k;
    }
}

static bool input_waiting(struct cli_dap *d)
{
    struct pollfd p = { .fd = d->in_fd, .events = POLLIN };
    return d->len || poll(&p, 1, 0) > 0;
}

static int serve_tcp(const cli_run *r, uint64_t port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return -1;
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);     /* loopback only: the protocol has no authentication */
    socklen_t alen = sizeof a;
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 1) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &alen) != 0) {
        fprintf(stderr, "%s: --dap-port %" PRIu64 ": %s\n", r->cmd, port, strerror(errno));
        close(s);
        return -1;
    }
    fprintf(stderr, "%s: DAP server listening on 127.0.0.1:%u\n", r->cmd, ntohs(a.sin_port));
    int c;
    while ((c = accept(s, NULL, NULL)) < 0 && errno == EINTR) {}
    if (c < 0) fprintf(stderr, "%s: --dap-port: %s\n", r->cmd, strerror(errno));
    close(s);
    return c;
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
    d->step_thread = -1;
    d->last = ISK_OK;
    if (o->dap.tcp) {
        d->in_fd = d->out_fd = serve_tcp(r, o->dap.port);
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
    r->dap = d;
    return true;
}

void cli_dap_end(cli_run *r)
{
    struct cli_dap *d = r->dap;
    if (!d) return;
    isk_set_before_issue(r->sys, NULL, NULL);
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

/* ---- what the requests show ----------------------------------------------------------------- */

static isk_inst *cur_inst(struct cli_dap *d)
{
    if (d->cur_thread > 0) return d->threads.data[d->cur_thread - 1].inst;
    return isk_instance_at(d->r->sys, 0);
}

/* A cell's value as its declaration says: decimal by sign and width, fixed point with frac
 * fraction bits, and the raw bits in hex. */
static void format_value(const isk_storage_info *s, int64_t v, char *out, size_t cap)
{
    int w = s->width > 0 && s->width < 64 ? s->width : 64;
    uint64_t bits = w < 64 ? (uint64_t)v & ((1ull << w) - 1) : (uint64_t)v;
    int64_t sv = s->sign && w < 64 && (bits >> (w - 1)) ? (int64_t)(bits | ~((1ull << w) - 1)) : (int64_t)bits;
    if (s->frac > 0)
        snprintf(out, cap, "%.*g (0x%0*" PRIx64 ")", 12, (double)(s->sign ? sv : (int64_t)bits) / (double)(1ull << s->frac),
                 (w + 3) / 4, bits);
    else if (s->sign) snprintf(out, cap, "%" PRId64 " (0x%0*" PRIx64 ")", sv, (w + 3) / 4, bits);
    else snprintf(out, cap, "%" PRIu64 " (0x%0*" PRIx64 ")", bits, (w + 3) / 4, bits);
}

/* variablesReference: kind (1 registers, 2 memories, 3 a storage's cells), the storage and the
 * instance, packed. */
#define REF(kind, inst, storage) ((int64_t)(kind) + 4 * ((int64_t)(storage) + 1) + 4096 * (int64_t)(inst))
#define INLINE_CELLS 64

static bool is_register(const isk_storage_info *s) { return s->kind == ISK_REGISTER || s->kind == ISK_REGFILE; }

static void cell_name(const isk_storage_info *s, uint64_t i, char *out, size_t cap)
{
    if (s->element_names && s->element_names[i]) snprintf(out, cap, "%s", s->element_names[i]);
    else if (s->count == 1) snprintf(out, cap, "%s", s->name);
    else snprintf(out, cap, "%s[%" PRIu64 "]", s->name, i);
}

static void variable_cell(jbuf *b, isk_inst *inst, int si, uint64_t i)
{
    const isk_storage_info *s = isk_model_storage(isk_inst_model(inst), si);
    char name[160], val[96];
    cell_name(s, i, name, sizeof name);
    isk_ref ref = { inst, si, i };
    format_value(s, isk_ref_read(&ref), val, sizeof val);
    jb_add(b, "%s{", b->p[b->len - 1] == '[' ? "" : ",");
    jb_kstr(b, "name", name);
    jb_kstr(b, "value", val);
    jb_kint(b, "variablesReference", 0);
    jb_add(b, "}");
}

static void variable_storage(jbuf *b, int ii, int si, const isk_storage_info *s)
{
    char val[96];
    snprintf(val, sizeof val, "[%" PRIu64 " x %d bits]", s->count, s->width);
    jb_add(b, "%s{", b->p[b->len - 1] == '[' ? "" : ",");
    jb_kstr(b, "name", s->title && *s->title ? s->title : s->name);
    jb_kstr(b, "value", val);
    jb_kint(b, "variablesReference", REF(3, ii, si));
    jb_kint(b, "indexedVariables", (int64_t)s->count);
    jb_add(b, "}");
}

/* ---- the requests ------------------------------------------------------------------------------- */

typedef const char *(*handler)(struct cli_dap *d, const dj *args, jbuf *body);

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

static const char *req_threads(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)a;
    jb_key(b, "threads");
    jb_add(b, "[");
    for (size_t i = 0; i < d->threads.len; i++) {
        char name[160];
        const dap_thread *t = &d->threads.data[i];
        if (t->ctx < 0) snprintf(name, sizeof name, "%s", isk_inst_name(t->inst));
        else snprintf(name, sizeof name, "%s ctx %d", isk_inst_name(t->inst), t->ctx);
        jb_add(b, "%s{", i ? "," : "");
        jb_kint(b, "id", (int64_t)i + 1);
        jb_kstr(b, "name", name);
        jb_add(b, "}");
    }
    jb_add(b, "]");
    return NULL;
}

static const dap_thread *thread_arg(struct cli_dap *d, const dj *a, const char *key)
{
    int64_t id = dj_int(a, key, -1);
    if (id < 1 || (uint64_t)id > d->threads.len) {
        snprintf(d->msg, sizeof d->msg, "no thread %lld (threads are 1 to %zu)", (long long)id, d->threads.len);
        return NULL;
    }
    return &d->threads.data[id - 1];
}

/* The frame's name: the function the PC lies in, or a nearer code label after it (assembly
 * programs rarely mark their functions as such: `fib` is a label after the runtime's printf). */
static const isk_loaded_sym *nearest_label(const isk_loaded *l, uint64_t pc)
{
    const isk_loaded_sym *fn = l ? isk_loaded_code_at(l, pc) : NULL;
    for (size_t i = 0; l && i < l->syms.len; i++) {
        const isk_loaded_sym *s = &l->syms.data[i];
        if (s->code && s->pc <= pc && (!fn || s->pc > fn->pc) && s->name[0] != '.') fn = s;
    }
    return fn;
}

static void source_json(jbuf *b, const char *file)
{
    char *abs = file[0] == '/' ? NULL : realpath(file, NULL);
    jb_key(b, "source");
    jb_add(b, "{");
    const char *base = strrchr(file, '/');
    jb_kstr(b, "name", base ? base + 1 : file);
    jb_kstr(b, "path", abs ? abs : file);
    jb_add(b, "}");
    free(abs);
}

static const char *req_stack_trace(struct cli_dap *d, const dj *a, jbuf *b)
{
    const dap_thread *t = thread_arg(d, a, "threadId");
    if (!t) return d->msg;
    if (t->ctx < 0) {      /* an accelerator: a frame for its storages, at no PC */
        jb_key(b, "stackFrames");
        jb_add(b, "[{");
        jb_kint(b, "id", (int64_t)(t - d->threads.data) + 1);
        jb_kstr(b, "name", isk_inst_name(t->inst));
        jb_kint(b, "line", 0);
        jb_kint(b, "column", 0);
        jb_add(b, "}]");
        jb_kint(b, "totalFrames", 1);
        return NULL;
    }
    uint64_t pc = isk_context_of(t->inst, t->ctx)->pc, addr = pc;
    const isk_model *m = isk_inst_model(t->inst);
    isk_pc_to_addr(m, pc, &addr);
    const isk_loaded *l = isk_loaded_of(t->inst);
    const isk_loaded_sym *fn = nearest_label(l, pc);
    const isk_line_row *row = l ? isk_loaded_line_at(l, pc) : NULL;
    char name[200], ref[32];
    if (fn && fn->pc != pc) snprintf(name, sizeof name, "%s+%" PRIu64, fn->name, pc - fn->pc);
    else snprintf(name, sizeof name, "%s", fn ? fn->name : "??");
    snprintf(ref, sizeof ref, "0x%" PRIx64, addr);
    jb_key(b, "stackFrames");
    jb_add(b, "[{");
    jb_kint(b, "id", (int64_t)(t - d->threads.data) + 1);
    jb_kstr(b, "name", name);
    jb_kstr(b, "instructionPointerReference", ref);
    if (row && row->file < l->files.len) {
        source_json(b, l->files.data[row->file]);
        jb_kint(b, "line", row->line);
        jb_kint(b, "column", row->column ? row->column : 1);
    } else {
        jb_kint(b, "line", 0);
        jb_kint(b, "column", 0);
    }
    jb_add(b, "}]");
    jb_kint(b, "totalFrames", 1);
    return NULL;
}

static const char *req_scopes(struct cli_dap *d, const dj *a, jbuf *b)
{
    const dap_thread *t = thread_arg(d, a, "frameId");
    if (!t) return d->msg;
    jb_key(b, "scopes");
    jb_add(b, "[{");
    jb_kstr(b, "name", "Registers");
    jb_kstr(b, "presentationHint", "registers");
    jb_kint(b, "variablesReference", REF(1, t->inst_index, -1));
    jb_kbool(b, "expensive", false);
    jb_add(b, "},{");
    jb_kstr(b, "name", "Memories");
    jb_kint(b, "variablesReference", REF(2, t->inst_index, -1));
    jb_kbool(b, "expensive", true);
    jb_add(b, "}]");
    return NULL;
}

/* The instance and storage of a variablesReference; false (d->msg says why) if it is none. */
static bool decode_ref(struct cli_dap *d, int64_t ref, int *kind, isk_inst **inst, int *si)
{
    *kind = (int)(ref % 4);
    *si = (int)(ref / 4 % 1024) - 1;
    *inst = ref > 0 ? isk_instance_at(d->r->sys, (int)(ref / 4096)) : NULL;
    if (!*inst || *kind == 0 || *si >= isk_model_storage_count(isk_inst_model(*inst)) || (*kind == 3) != (*si >= 0)) {
        snprintf(d->msg, sizeof d->msg, "no variables with reference %lld", (long long)ref);
        return false;
    }
    return true;
}

static const char *req_variables(struct cli_dap *d, const dj *a, jbuf *b)
{
    int kind, si, ii = (int)(dj_int(a, "variablesReference", 0) / 4096);
    isk_inst *inst;
    if (!decode_ref(d, dj_int(a, "variablesReference", 0), &kind, &inst, &si)) return d->msg;
    const isk_model *m = isk_inst_model(inst);
    jb_key(b, "variables");
    jb_add(b, "[");
    if (kind == 3) {
        const isk_storage_info *s = isk_model_storage(m, si);
        int64_t start = dj_int(a, "start", 0), count = dj_int(a, "count", 0);
        if (start < 0 || (uint64_t)start > s->count) start = (int64_t)s->count;
        uint64_t n = s->count - (uint64_t)start;
        if (count > 0 && (uint64_t)count < n) n = (uint64_t)count;
        if (n > 4096) n = 4096;     /* clients page through large memories */
        for (uint64_t i = 0; i < n; i++) variable_cell(b, inst, si, (uint64_t)start + i);
    } else {
        for (int i = 0; i < isk_model_storage_count(m); i++) {
            const isk_storage_info *s = isk_model_storage(m, i);
            if (is_register(s) != (kind == 1) || s->kind == ISK_CODE_MEMORY) continue;
            if (kind == 1 && s->count <= INLINE_CELLS)
                for (uint64_t c = 0; c < s->count; c++) variable_cell(b, inst, i, c);
            else variable_storage(b, ii, i, s);
        }
    }
    jb_add(b, "]");
    return NULL;
}

static const char *req_set_variable(struct cli_dap *d, const dj *a, jbuf *b)
{
    int kind, si;
    isk_inst *inst;
    if (!decode_ref(d, dj_int(a, "variablesReference", 0), &kind, &inst, &si)) return d->msg;
    const char *name = dj_str(a, "name", ""), *text = dj_str(a, "value", "");
    isk_ref ref;
    if (kind == 3) {
        uint64_t i;
        const char *open = strrchr(name, '[');
        char digits[32];
        snprintf(digits, sizeof digits, "%.*s", open ? (int)strcspn(open + 1, "]") : 0, open ? open + 1 : "");
        const isk_storage_info *s = isk_model_storage(isk_inst_model(inst), si);
        if (open && isk_parse_u64(digits, 0, s->count - 1, ISK_UNIT_NONE, &i, d->msg, sizeof d->msg)) {
            ref = (isk_ref){ inst, si, i };
        } else {
            /* an element name of this storage (the same name may stand for cells of other
             * storages, or of other contexts further on) */
            for (i = 0; s->element_names && i < s->count && !(s->element_names[i] && strcasecmp(s->element_names[i], name) == 0); i++) {}
            if (!s->element_names || i == s->count) {
                snprintf(d->msg, sizeof d->msg, "%s has no cell '%s'", s->name, name);
                return d->msg;
            }
            ref = (isk_ref){ inst, si, i };
        }
    } else if (isk_resolve(inst, name, &ref, d->msg, sizeof d->msg) != ISK_OK) {
        return d->msg;
    }
    const isk_storage_info *s = isk_model_storage(isk_inst_model(inst), ref.storage);
    char first[64], why[160];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(text, " ("), text);
    int64_t v;
    uint64_t u;
    if (isk_parse_i64(first, INT64_MIN, INT64_MAX, ISK_UNIT_NONE, &v, why, sizeof why)) {
    } else if (isk_parse_u64(first, 0, UINT64_MAX, ISK_UNIT_NONE, &u, why, sizeof why)) {
        v = (int64_t)u;
    } else {
        snprintf(d->msg, sizeof d->msg, "%s: %s", name, why);
        return d->msg;
    }
    isk_ref_write(&ref, v);
    char val[96];
    format_value(s, isk_ref_read(&ref), val, sizeof val);
    jb_kstr(b, "value", val);
    return NULL;
}

/* The byte at addr of inst's address map, false where the simulator holds none. */
static bool mem_byte(isk_inst *inst, uint64_t addr, uint8_t *out, const uint8_t *write)
{
    const isk_model *m = isk_inst_model(inst);
    isk_addr_cell c;
    if (!isk_addr_to_cell(m, addr, &c) || c.storage < 0) return false;
    int bytes = m->map.regions.data[c.region].cell_bytes;
    int shift = 8 * (m->has_elf && m->elf.big_endian ? bytes - 1 - c.byte : c.byte);
    isk_ref ref = { inst, c.storage, c.index };
    uint64_t v = (uint64_t)isk_ref_read(&ref);
    if (write) isk_ref_write(&ref, (int64_t)((v & ~(0xffull << shift)) | (uint64_t)*write << shift));
    else *out = (uint8_t)(v >> shift);
    return true;
}

static bool mem_address(struct cli_dap *d, const dj *a, uint64_t *addr)
{
    const char *ref = dj_str(a, "memoryReference", "");
    char why[128];
    if (!isk_parse_u64(ref, 0, UINT64_MAX, ISK_UNIT_NONE, addr, why, sizeof why)) {
        snprintf(d->msg, sizeof d->msg, "memoryReference: %s", why);
        return false;
    }
    *addr += (uint64_t)dj_int(a, "offset", 0);
    return true;
}

static const char *req_read_memory(struct cli_dap *d, const dj *a, jbuf *b)
{
    uint64_t addr;
    if (!mem_address(d, a, &addr)) return d->msg;
    int64_t count = dj_int(a, "count", 0);
    if (count < 0 || count > (1 << 20)) count = 1 << 20;
    uint8_t *data = isk_xcalloc(1, (size_t)count + 1);
    int64_t n = 0;
    while (n < count && mem_byte(cur_inst(d), addr + (uint64_t)n, &data[n], NULL)) n++;
    char ref[32];
    snprintf(ref, sizeof ref, "0x%" PRIx64, addr);
    jb_kstr(b, "address", ref);
    if (n < count) jb_kint(b, "unreadableBytes", count - n);
    jb_key(b, "data");
    jb_base64(b, data, (size_t)n);
    free(data);
    return NULL;
}

static const char *req_write_memory(struct cli_dap *d, const dj *a, jbuf *b)
{
    uint64_t addr;
    if (!mem_address(d, a, &addr)) return d->msg;
    size_t n;
    uint8_t *data = dj_base64_decode(dj_str(a, "data", ""), &n);
    if (!data) return "writeMemory: data is not base64";
    size_t k = 0;
    while (k < n && mem_byte(cur_inst(d), addr + k, NULL, &data[k])) k++;
    free(data);
    if (k < n) {
        snprintf(d->msg, sizeof d->msg, "0x%" PRIx64 " is not in a memory of %s (%zu bytes written)", addr + k,
                 isk_inst_name(cur_inst(d)), k);
        return d->msg;
    }
    jb_kint(b, "bytesWritten", (int64_t)k);
    return NULL;
}

static const char *req_disassemble(struct cli_dap *d, const dj *a, jbuf *b)
{
    uint64_t addr, pc0;
    if (!mem_address(d, a, &addr)) return d->msg;
    isk_inst *inst = cur_inst(d);
    const isk_model *m = isk_inst_model(inst);
    if (!m->is_processor || !isk_addr_to_pc(m, addr, &pc0)) {
        snprintf(d->msg, sizeof d->msg, "0x%" PRIx64 " is no instruction's address", addr);
        return d->msg;
    }
    int64_t first = (int64_t)pc0 + dj_int(a, "instructionOffset", 0), count = dj_int(a, "instructionCount", 0);
    if (count < 0 || count > 100000) count = 100000;
    uint64_t ncode = isk_model_storage(m, m->code_storage)->count;
    const isk_loaded *l = isk_loaded_of(inst);
    jb_key(b, "instructions");
    jb_add(b, "[");
    for (int64_t i = 0; i < count; i++) {
        int64_t pc = first + i;
        uint64_t at;
        char ref[32], text[320] = "", bytes[40] = "";
        bool valid = pc >= 0 && (uint64_t)pc < ncode && isk_pc_to_addr(m, (uint64_t)pc, &at);
        if (valid) {
            isk_ref cell = { inst, m->code_storage, (uint64_t)pc };
            uint64_t word = (uint64_t)isk_ref_read(&cell);
            isk_disasm_word(m, word, (uint64_t)pc, text, sizeof text);
            snprintf(bytes, sizeof bytes, "%0*" PRIx64, (isk_model_word_bits(m) + 3) / 4, word);
        } else {
            /* the protocol wants exactly `count` entries: placeholders outside the code memory */
            at = (uint64_t)(pc < 0 ? 0 : pc) * (uint64_t)m->map.code_bytes;
        }
        snprintf(ref, sizeof ref, "0x%" PRIx64, at);
        jb_add(b, "%s{", i ? "," : "");
        jb_kstr(b, "address", ref);
        jb_kstr(b, "instruction", valid ? text : "");
        if (valid) jb_kstr(b, "instructionBytes", bytes);
        else jb_kstr(b, "presentationHint", "invalid");
        const isk_loaded_sym *s = valid ? nearest_label(l, (uint64_t)pc) : NULL;
        if (s && s->pc == (uint64_t)pc) jb_kstr(b, "symbol", s->name);
        const isk_line_row *row = valid && l ? isk_loaded_line_at(l, (uint64_t)pc) : NULL;
        if (row && row->file < l->files.len) {
            source_json(b, l->files.data[row->file]);
            jb_kint(b, "line", row->line);
        }
        jb_add(b, "}");
    }
    jb_add(b, "]");
    return NULL;
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
    const dap_thread *t = thread_arg(d, a, "threadId");
    if (!t) return d->msg;
    resume(d, (int)(t - d->threads.data) + 1);
    return NULL;
}

static const char *req_step_out(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)d, (void)a, (void)b;
    return "stepOut: isekit's DAP server knows no call frames (step, or set a breakpoint where to stop)";
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

static const struct { const char *name; handler fn; } requests[] = {
    { "initialize", req_initialize },
    { "launch", req_launch },
    { "attach", req_launch },
    { "configurationDone", req_configuration_done },
    { "setBreakpoints", req_set_breakpoints },
    { "setInstructionBreakpoints", req_set_instruction_breakpoints },
    { "setFunctionBreakpoints", req_set_function_breakpoints },
    { "threads", req_threads },
    { "stackTrace", req_stack_trace },
    { "scopes", req_scopes },
    { "variables", req_variables },
    { "setVariable", req_set_variable },
    { "readMemory", req_read_memory },
    { "writeMemory", req_write_memory },
    { "disassemble", req_disassemble },
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
    handler fn = NULL;
    for (size_t i = 0; i < sizeof requests / sizeof *requests; i++)
        if (strcmp(requests[i].name, cmd) == 0) fn = requests[i].fn;
    jbuf body = { 0 };
    jb_add(&body, "{");
    const char *failed = NULL;
    if (!fn) {
        snprintf(d->msg, sizeof d->msg, "isekit does not support the request '%s'", cmd);
        failed = d->msg;
    } else if (d->running && fn != req_pause && fn != req_disconnect && fn != req_threads &&
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
    send_json(d, &m);
    jb_free(&m);
    jb_free(&body);
    if (!failed && fn == req_initialize) event(d, "initialized", NULL);
    dj_free(msg);
    return true;
}

/* ---- running --------------------------------------------------------------------------------- */

static void stopped(struct cli_dap *d, const char *reason, int thread, const char *text, int bp)
{
    d->running = false;
    d->step_thread = -1;
    if (thread > 0) d->cur_thread = thread;
    jbuf b = { 0 };
    jb_kstr(&b, "reason", reason);
    if (thread > 0) jb_kint(&b, "threadId", thread);
    if (text) jb_kstr(&b, "description", text);
    if (text) jb_kstr(&b, "text", text);
    jb_kbool(&b, "allThreadsStopped", true);
    if (bp > 0) jb_add(&b, ",\"hitBreakpointIds\":[%d]", bp);
    event(d, "stopped", b.p);
    jb_free(&b);
}

static void ended(struct cli_dap *d, int code)
{
    d->running = false;
    d->ended = true;
    char body[32];
    snprintf(body, sizeof body, "\"exitCode\":%d", code);
    event(d, "exited", body);
    event(d, "terminated", NULL);
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
        ended(d, cli_run_interrupted(r) ? EXIT_INTERRUPTED : EXIT_LIMIT);
        return;
    }
    d->hit_reason = NULL;
    d->hit_bp = 0;
    int clock_step = d->step_thread > 0 && d->threads.data[d->step_thread - 1].ctx < 0 ? d->step_thread : 0;
    isk_status st = isk_run(r->sys, clock_step ? 1 : r->limit - now < 4096 ? r->limit - now : 4096);
    d->last = st;
    char why[512];
    switch (st) {
    case ISK_BREAK:
        if (d->hit_reason) {
            snprintf(why, sizeof why, "%s", d->hit_reason);
            stopped(d, strcmp(d->hit_reason, "step") == 0 ? "step" : strstr(d->hit_reason, "instruction") ? "instruction breakpoint"
                       : strstr(d->hit_reason, "function") ? "function breakpoint" : "breakpoint",
                    d->hit_thread, why, d->hit_bp);
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
        output(d, "stderr", why);
        output(d, "stderr", "\n");
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
        if (d->running && !input_waiting(d)) {
            run_slice(d);
            continue;
        }
        char *text = read_message(d);
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
            st = isk_run(r->sys, r->limit - now < 4096 ? r->limit - now : 4096);
            if (st == ISK_OK && r->between) r->between(r->between_user);
        } while (st == ISK_OK || st == ISK_BREAK);
        return st;
    }
    fprintf(stderr, "%s: the DAP %s at clock %" PRIu64 ", before the program ended\n", r->cmd,
            d->broken ? "session broke off" : "client ended the session", isk_clock(r->sys));
    return ISK_FAILED;
}
