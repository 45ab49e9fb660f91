/* The DAP server's parts (run_dap.c: options, the hook, running and the requests' dispatch;
 * dap_transport.c: the stream; dap_inspect.c: the requests that look at the system). */
#ifndef ISK_CLI_DAP_INT_H
#define ISK_CLI_DAP_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/vec.h"
#include "cli/dap_json.h"
#include "cli/debug_core.h"
#include "cli/runctl.h"

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
    int out_thread;                      /* stepOut: the thread whose routine must return, or -1 */
    long out_depth;                      /* ... its call depth when it asked */
    dbg_callstacks calls;                /* the contexts' call frames (stackTrace, stepOut) */
    uint64_t step_insns;
    const char *hit_reason;              /* the stopped event's reason, set by the hook when it stops the run */
    int hit_thread, hit_bp;
    int cur_thread;                      /* the thread of the last stop: memory requests use its instance */
    isk_status last;
    struct sigaction old_sigpipe;
    char msg[256];                       /* the message of a failed request */
};


/* ---- the transport (dap_transport.c) ---- */
void dap_send_json(struct cli_dap *d, jbuf *msg);
/* An event; body is the inside of its body object ("" or NULL for none). */
void dap_event(struct cli_dap *d, const char *name, const char *body);
void dap_output(struct cli_dap *d, const char *category, const char *text);
/* One message's body (malloc'd, NUL-terminated) or NULL at the end of the input or after bad
 * framing (reported on stderr: the session then ends). */
char *dap_read_message(struct cli_dap *d);
/* Is a message (or part of one) waiting? Never blocks. */
bool dap_input_waiting(struct cli_dap *d);
/* --dap-port: listen on 127.0.0.1:port, accept one client: its socket, or -1 (reported). */
int dap_serve_tcp(const cli_run *r, uint64_t port);

/* ---- requests that look at the system (dap_inspect.c) ---- */
/* A handler: NULL on success (body filled), else the message of the failure. */
typedef const char *(*dap_handler)(struct cli_dap *d, const dj *args, jbuf *body);
const char *dap_req_threads(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_stack_trace(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_scopes(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_variables(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_set_variable(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_read_memory(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_write_memory(struct cli_dap *d, const dj *a, jbuf *b);
const char *dap_req_disassemble(struct cli_dap *d, const dj *a, jbuf *b);
/* The thread a request's `threadId` names, or NULL (d->msg says why). */
const dap_thread *dap_thread_arg(struct cli_dap *d, const dj *a);

#endif
