/* The MPI rank backend (hostapi.h, docs/dpu-host-api.md "MPI"): built into libdpu-mpi.so only.
 *
 * Every process of `mpirun -np N ./host` runs the host program until dpu_alloc. There MPI
 * starts; process 0 returns and runs the host program; processes 1..N-1 never return: they
 * serve rank requests until process 0 exits. Rank r lives on process r % N (so rank 0 is
 * always on process 0, simulated by the local backend there); a rank on another process is a
 * stub whose five operations are one request and one reply each. The server simulates the
 * rank with the local backend, so a remote rank behaves as a local one, its messages included:
 * the server captures what the local backend writes to stderr and process 0 prints it.
 *
 * Messages: a request goes to the server with tag 0: a req header, then the operation's bytes.
 * The reply comes back with the rank's tag (1 + its id modulo the smallest MPI_TAG_UB), so the
 * pool threads of process 0 driving ranks of the same server get their own replies; a server
 * serves its requests one at a time. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "elf/elf_file.h"
#include "../hostapi.h"

enum { OP_OPEN, OP_LOAD, OP_COPY, OP_RUN, OP_LOG, OP_CLOSE, OP_QUIT };

typedef struct req {
    uint32_t op, id;           /* id: the rank's, unique among the ranks open on process 0 */
    uint32_t dpu, nr_dpus;     /* OPEN: nr_dpus, LOAD/COPY/LOG: dpu */
    uint32_t offset, to_dpu;   /* COPY */
    uint64_t len;              /* COPY: bytes; LOAD: the executable's bytes, 0 = the rank's last */
    uint32_t symlen;           /* COPY: the symbol's length + 1, 0 = MRAM by offset */
    uint32_t pad;
} req;                         /* then OPEN: the hapi_profile; LOAD: the executable; COPY: symbol, data */

typedef struct rep {
    int32_t rc;
    uint32_t msglen;           /* what the server printed */
    uint64_t cycles;           /* RUN */
    uint64_t len;              /* COPY from, LOG: data bytes */
} rep;                         /* then the message, then the data; RUN: one fault byte per DPU */

#define TAG_REQ 0
#define TAG_SPAN 32766         /* the MPI standard's smallest MPI_TAG_UB is 32767 */

/* ---- both sides ------------------------------------------------------------------------------ */

static void *recv_msg(int source, int tag, int *from, size_t *size)
{
    MPI_Message m;
    MPI_Status st;
    int n, found = 0;
    /* A matched probe: another thread cannot take this message between probe and receive.
     * Polled with a growing sleep, not MPI_Mprobe: Open MPI's blocking calls spin, and an idle
     * server or a pool thread waiting for a launch would take a core from the simulation (on
     * 2 cores, -np 2 took 4.0 s of CPU for 2.5 s of simulation).
     * A quick reply (a copy) is caught while yielding; a launch's after sleeps of up to 1 ms. */
    for (unsigned tries = 0;; tries++) {
        MPI_Improbe(source, tag, MPI_COMM_WORLD, &found, &m, &st);
        if (found) break;
        if (tries < 64) sched_yield();
        else nanosleep(&(struct timespec){ .tv_nsec = tries < 64 + 10 ? 1000L << (tries - 64) : 1000000L }, NULL);
    }
    MPI_Get_count(&st, MPI_BYTE, &n);
    char *buf = malloc(n ? (size_t)n : 1);
    if (!buf) abort();
    MPI_Mrecv(buf, n, MPI_BYTE, &m, MPI_STATUS_IGNORE);
    if (from) *from = st.MPI_SOURCE;
    *size = (size_t)n;
    return buf;
}

/* Send head (hlen bytes) followed by up to three parts as one message. */
static void send_msg(int dest, int tag, const void *head, size_t hlen, const void *a, size_t alen, const void *b,
                     size_t blen, const void *c, size_t clen)
{
    size_t n = hlen + alen + blen + clen;
    if (n > INT32_MAX) {
        fprintf(stderr, "dpu: MPI: a message of %zu bytes is too big (at most 2 GiB)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *buf = malloc(n);
    if (!buf) abort();
    memcpy(buf, head, hlen);
    if (alen) memcpy(buf + hlen, a, alen);
    if (blen) memcpy(buf + hlen + alen, b, blen);
    if (clen) memcpy(buf + hlen + alen + blen, c, clen);
    MPI_Send(buf, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
    free(buf);
}

static int rank_tag(uint32_t id)
{
    return 1 + (int)(id % TAG_SPAN);
}

/* ---- the server -------------------------------------------------------------------------------- */

typedef struct served {
    uint32_t id;
    hapi_ctx ctx;              /* model and profile only: what the local backend reads */
    struct dpu_rank_t rank;
    struct dpu_rank_t *ranks[1];
    struct dpu_program_t *prog;  /* the rank's last program */
    struct served *next;
} served;

static void served_free(served *s)
{
    if (s->rank.ops) s->rank.ops->close(&s->rank);
    for (struct dpu_program_t *p = s->ctx.programs, *next; p; p = next) {
        next = p->next;
        dpu_program_close(&p->p);
        free(p);
    }
    free(s->rank.dpus);
    if (s->ctx.model) isk_model_release(s->ctx.model);
    free(s);
}

static dpu_error_t serve_open(served *s, const req *q, const void *body, size_t blen)
{
    if (blen != sizeof s->ctx.prof) return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed open request");
    memcpy(&s->ctx.prof, body, sizeof s->ctx.prof);
    isk_diag diag;
    isk_diag_init(&diag);
    s->ctx.model = isk_model_load("dpu", &diag);
    if (!s->ctx.model) return hapi_error(DPU_ERR_INTERNAL, "cannot load isekit's DPU model");
    s->ranks[0] = &s->rank;
    s->ctx.ranks = s->ranks;
    s->ctx.nr_ranks = 1;
    s->rank.ctx = &s->ctx;
    s->rank.index = q->dpu;    /* the rank's index on process 0, for messages */
    s->rank.nr_dpus = q->nr_dpus;
    s->rank.dpus = calloc(q->nr_dpus, sizeof *s->rank.dpus);
    if (!s->rank.dpus) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    for (uint32_t i = 0; i < q->nr_dpus; i++) s->rank.dpus[i] = (struct dpu_t){ .rank = &s->rank, .index = i };
    return hapi_local_rank_open(&s->ctx, &s->rank);
}

static dpu_error_t serve_load(served *s, const req *q, const void *body, size_t blen)
{
    if (q->dpu >= s->rank.nr_dpus || blen != q->len) return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed load request");
    if (q->len) {
        isk_diag diag;
        isk_diag_init(&diag);
        diag.max_errors = 20;
        struct dpu_program_t *prog = calloc(1, sizeof *prog);
        isk_obj *exe = prog ? isk_elf_read_mem(body, blen, "<from process 0>", &diag) : NULL;
        if (!exe || dpu_program_from_obj(&prog->p, exe, &diag) != 0) {
            free(prog);
            return hapi_error(DPU_ERR_ELF_INVALID_FILE, "MPI: the executable process 0 sent does not load here");
        }
        prog->next = s->ctx.programs;
        s->ctx.programs = prog;
        s->prog = prog;
    }
    if (!s->prog) return hapi_error(DPU_ERR_INTERNAL, "MPI: a load with no program");
    return s->rank.ops->load(&s->rank, &s->rank.dpus[q->dpu], s->prog);
}

/* Run one request on s; *data, *dlen: what goes back after the message. */
static dpu_error_t serve_one(served *s, const req *q, char *body, size_t blen, rep *r, char **data, uint64_t *dlen)
{
    switch (q->op) {
    case OP_OPEN:
        return serve_open(s, q, body, blen);
    case OP_LOAD:
        return serve_load(s, q, body, blen);
    case OP_COPY: {
        size_t need = q->symlen + (q->to_dpu ? q->len : 0);
        if (q->dpu >= s->rank.nr_dpus || blen != need || (q->symlen && body[q->symlen - 1]))
            return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed copy request");
        struct dpu_t *d = &s->rank.dpus[q->dpu];
        if (!d->prog) return hapi_error(DPU_ERR_INVALID_DPU_SET, "MPI: a copy before the load");
        void *buf = body + q->symlen;
        if (!q->to_dpu) {
            buf = *data = malloc(q->len ? q->len : 1);
            if (!buf) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
            *dlen = q->len;
        }
        return s->rank.ops->copy(&s->rank, d, q->symlen ? body : NULL, q->offset, buf, q->len, q->to_dpu);
    }
    case OP_RUN: {
        if (blen != s->rank.nr_dpus) return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed run request");
        for (uint32_t i = 0; i < s->rank.nr_dpus; i++) s->rank.dpus[i].boot = body[i] != 0;
        dpu_error_t rc = s->rank.ops->run(&s->rank, &r->cycles);
        *data = malloc(s->rank.nr_dpus);
        if (!*data) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
        for (uint32_t i = 0; i < s->rank.nr_dpus; i++) (*data)[i] = s->rank.dpus[i].fault;
        *dlen = s->rank.nr_dpus;
        return rc;
    }
    case OP_LOG: {
        if (q->dpu >= s->rank.nr_dpus || !s->rank.dpus[q->dpu].prog)
            return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed log request");
        size_t len = 0;
        dpu_error_t rc = s->rank.ops->log(&s->rank, &s->rank.dpus[q->dpu], data, &len);
        *dlen = *data ? len : 0;
        return rc;
    }
    }
    return hapi_error(DPU_ERR_INTERNAL, "MPI: unknown request %u", (unsigned)q->op);
}

/* stderr into a temporary file while a request runs, so its messages go back to process 0 */
static FILE *capture_begin(int *saved)
{
    FILE *tmp = tmpfile();
    fflush(stderr);
    *saved = tmp ? dup(2) : -1;
    if (*saved >= 0) dup2(fileno(tmp), 2);
    return tmp;
}

static char *capture_end(FILE *tmp, int saved, size_t *len)
{
    *len = 0;
    if (!tmp) return NULL;
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    long n = ftell(tmp);
    char *text = n > 0 ? malloc((size_t)n) : NULL;
    rewind(tmp);
    if (text) *len = fread(text, 1, (size_t)n, tmp);
    fclose(tmp);
    return text;
}

static _Noreturn void serve(void)
{
    served *list = NULL;
    for (;;) {
        size_t size;
        char *msg = recv_msg(0, TAG_REQ, NULL, &size);
        req q;
        if (size < sizeof q) {
            fprintf(stderr, "dpu: MPI: a malformed request of %zu bytes\n", size);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        memcpy(&q, msg, sizeof q);
        if (q.op == OP_QUIT) {
            free(msg);
            break;
        }
        served **at = &list;
        while (*at && (*at)->id != q.id) at = &(*at)->next;
        if (q.op == OP_OPEN && !*at) {
            *at = calloc(1, sizeof **at);
            if (!*at) abort();
            (*at)->id = q.id;
        }
        rep r = { 0 };
        char *data = NULL;
        uint64_t dlen = 0;
        int saved;
        FILE *tmp = capture_begin(&saved);
        if (!*at) r.rc = hapi_error(DPU_ERR_INTERNAL, "MPI: a request for rank id %u, which is not open here", (unsigned)q.id);
        else if (q.op == OP_CLOSE) {
            served *s = *at;
            *at = s->next;
            served_free(s);
        } else
            r.rc = serve_one(*at, &q, msg + sizeof q, size - sizeof q, &r, &data, &dlen);
        size_t mlen;
        char *text = capture_end(tmp, saved, &mlen);
        r.msglen = (uint32_t)mlen;
        r.len = dlen;
        send_msg(0, rank_tag(q.id), &r, sizeof r, text, mlen, data, dlen, NULL, 0);
        free(text);
        free(data);
        free(msg);
    }
    while (list) {
        served *s = list;
        list = s->next;
        served_free(s);
    }
    MPI_Finalize();
    exit(0);
}

/* ---- process 0 --------------------------------------------------------------------------------- */

typedef struct mpi_rank {
    int proc;
    uint32_t id;
    const struct dpu_program_t *sent;   /* the program the server holds for this rank */
} mpi_rank;

static int nprocs;           /* set once by hapi_mpi_start, before any rank exists */
static bool we_initialised;

static void quit_servers(void)
{
    static bool sent;
    if (sent) return;
    sent = true;
    req q = { .op = OP_QUIT };
    for (int p = 1; p < nprocs; p++) MPI_Send(&q, sizeof q, MPI_BYTE, p, TAG_REQ, MPI_COMM_WORLD);
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: a program that finalises MPI itself
 * lets the servers go there (their MPI_Finalize and its would wait for each other otherwise). */
static int quit_at_finalize(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)value, (void)extra;
    quit_servers();
    return MPI_SUCCESS;
}

static void quit_at_exit(void)
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    quit_servers();
    if (we_initialised) MPI_Finalize();
}

/* One request and its reply; prints the server's message; data: the reply's data (malloc'd). */
static dpu_error_t call(mpi_rank *m, req *q, const void *a, size_t alen, const void *b, size_t blen, rep *r,
                        char **data)
{
    q->id = m->id;
    memset(r, 0, sizeof *r);   /* what the callers read when the reply is malformed */
    send_msg(m->proc, TAG_REQ, q, sizeof *q, a, alen, b, blen, NULL, 0);
    size_t size;
    char *msg = recv_msg(m->proc, rank_tag(m->id), NULL, &size);
    if (size < sizeof *r) {
        free(msg);
        return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed reply from process %d", m->proc);
    }
    memcpy(r, msg, sizeof *r);
    if (sizeof *r + r->msglen + r->len != size) {
        free(msg);
        return hapi_error(DPU_ERR_INTERNAL, "MPI: a malformed reply from process %d", m->proc);
    }
    if (r->msglen) {
        /* the server's messages, as the local backend wrote them, named by process */
        fprintf(stderr, "dpu: on MPI process %d:\n", m->proc);
        fwrite(msg + sizeof *r, 1, r->msglen, stderr);
    }
    if (data) {
        *data = NULL;
        if (r->len) {
            *data = malloc(r->len);
            if (!*data) abort();
            memcpy(*data, msg + sizeof *r + r->msglen, r->len);
        }
    }
    free(msg);
    return (dpu_error_t)r->rc;
}

static dpu_error_t remote_load(struct dpu_rank_t *rk, struct dpu_t *dpu, struct dpu_program_t *prog)
{
    mpi_rank *m = rk->backend;
    req q = { .op = OP_LOAD, .dpu = dpu->index };
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (m->sent != prog) {
        /* the executable goes once per rank; the server keeps it for the rank's other DPUs */
        isk_diag diag;
        isk_diag_init(&diag);
        if (isk_elf_write_mem(prog->p.exe, &bytes, &n, &diag) != 0)
            return hapi_error(DPU_ERR_ELF_INVALID_FILE, "rank %u: cannot serialise the executable for MPI process %d",
                              (unsigned)rk->index, m->proc);
        q.len = n;
    }
    rep r;
    dpu_error_t rc = call(m, &q, bytes, n, NULL, 0, &r, NULL);
    free(bytes);
    if (q.len && r.rc != DPU_ERR_ELF_INVALID_FILE) m->sent = prog;
    if (rc != DPU_OK) return rc;
    dpu->prog = prog;
    dpu->fault = false;
    return DPU_OK;
}

static dpu_error_t remote_copy(struct dpu_rank_t *rk, struct dpu_t *dpu, const char *symbol, uint32_t offset, void *buf,
                               size_t len, bool to_dpu)
{
    size_t symlen = symbol ? strlen(symbol) + 1 : 0;
    req q = { .op = OP_COPY, .dpu = dpu->index, .offset = offset, .to_dpu = to_dpu, .len = len, .symlen = (uint32_t)symlen };
    rep r;
    char *data = NULL;
    dpu_error_t rc = call(rk->backend, &q, symbol, symlen, buf, to_dpu ? len : 0, &r, &data);
    if (rc == DPU_OK && !to_dpu) {
        if (r.len != len) rc = hapi_error(DPU_ERR_INTERNAL, "MPI: a copy came back with %" PRIu64 " bytes, not %zu", r.len, len);
        else memcpy(buf, data, len);
    }
    free(data);
    return rc;
}

static dpu_error_t remote_run(struct dpu_rank_t *rk, uint64_t *cycles)
{
    char *boot = malloc(rk->nr_dpus), *faults = NULL;
    if (!boot) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    for (uint32_t i = 0; i < rk->nr_dpus; i++) boot[i] = rk->dpus[i].boot;
    req q = { .op = OP_RUN };
    rep r;
    dpu_error_t rc = call(rk->backend, &q, boot, rk->nr_dpus, NULL, 0, &r, &faults);
    free(boot);
    *cycles = r.cycles;
    if (faults && r.len == rk->nr_dpus)
        for (uint32_t i = 0; i < rk->nr_dpus; i++) rk->dpus[i].fault = faults[i] != 0;
    free(faults);
    return rc;
}

static dpu_error_t remote_log(struct dpu_rank_t *rk, struct dpu_t *dpu, char **text, size_t *len)
{
    req q = { .op = OP_LOG, .dpu = dpu->index };
    rep r;
    dpu_error_t rc = call(rk->backend, &q, NULL, 0, NULL, 0, &r, text);
    *len = (size_t)r.len;
    if (rc == DPU_OK && !*text) {
        /* an empty log: the caller writes nothing, but wants a buffer */
        *text = malloc(1);
        if (!*text) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    }
    return rc;
}

static void remote_close(struct dpu_rank_t *rk)
{
    mpi_rank *m = rk->backend;
    if (!m) return;
    req q = { .op = OP_CLOSE };
    rep r;
    call(m, &q, NULL, 0, NULL, 0, &r, NULL);
    free(m);
    rk->backend = NULL;
}

static const hapi_rank_ops remote_ops = { remote_load, remote_copy, remote_run, remote_log, remote_close };

dpu_error_t hapi_mpi_start(void)
{
    int inited = 0, provided = 0, me = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            return hapi_error(DPU_ERR_SYSTEM, "MPI: MPI_Init_thread failed");
        we_initialised = true;
    } else {
        MPI_Query_thread(&provided);
    }
    /* launches talk to servers from the pool's threads at once */
    if (provided < MPI_THREAD_MULTIPLE)
        return hapi_error(DPU_ERR_SYSTEM, "MPI: the library gives thread level %d, the host API needs "
                          "MPI_THREAD_MULTIPLE (%d)", provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me != 0) serve();
    if (!nprocs) {
        MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
        int key;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, quit_at_finalize, &key, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
        atexit(quit_at_exit);
    }
    return DPU_OK;
}

dpu_error_t hapi_mpi_rank_open(hapi_ctx *ctx, struct dpu_rank_t *r)
{
    static uint32_t next_id;   /* process 0's rank ids: ranks of every allocation are told apart */
    int proc = (int)(r->index % (uint32_t)nprocs);
    r->process = proc;
    if (proc == 0) return hapi_local_rank_open(ctx, r);
    mpi_rank *m = calloc(1, sizeof *m);
    if (!m) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    m->proc = proc;
    m->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    r->backend = m;
    r->ops = &remote_ops;
    req q = { .op = OP_OPEN, .dpu = r->index, .nr_dpus = r->nr_dpus };
    rep rp;
    return call(m, &q, &ctx->prof, sizeof ctx->prof, NULL, 0, &rp, NULL);
}
