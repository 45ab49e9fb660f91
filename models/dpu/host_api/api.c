/* isekit's UPMEM host API (models/dpu/include/dpu.h): sets, loads, copies, launches. Every
 * rank operation goes through the rank's hapi_rank_ops (hostapi.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/elf_file.h"
#include "hostapi.h"

dpu_error_t hapi_error(dpu_error_t code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "dpu: %s\n", msg);
    return code;
}

const char *dpu_error_to_string(dpu_error_t status)
{
    static const char *const text[] = {
        [DPU_OK] = "success",
        [DPU_ERR_INTERNAL] = "internal error",
        [DPU_ERR_SYSTEM] = "system error (out of memory or threads)",
        [DPU_ERR_DRIVER] = "driver error",
        [DPU_ERR_ALLOCATION] = "cannot allocate the DPUs",
        [DPU_ERR_INVALID_DPU_SET] = "invalid operation on this DPU set",
        [DPU_ERR_INVALID_THREAD_ID] = "invalid thread id",
        [DPU_ERR_INVALID_NOTIFY_ID] = "invalid notify id",
        [DPU_ERR_INVALID_WRAM_ACCESS] = "invalid WRAM access",
        [DPU_ERR_INVALID_IRAM_ACCESS] = "invalid IRAM access",
        [DPU_ERR_INVALID_MRAM_ACCESS] = "invalid MRAM access",
        [DPU_ERR_INVALID_SYMBOL_ACCESS] = "invalid symbol access (out of the symbol or its memory)",
        [DPU_ERR_MRAM_BUSY] = "MRAM busy",
        [DPU_ERR_TRANSFER_ALREADY_SET] = "transfer buffer already set",
        [DPU_ERR_DIFFERENT_DPU_PROGRAMS] = "the DPUs run different programs",
        [DPU_ERR_CORRUPTED_MEMORY] = "corrupted memory",
        [DPU_ERR_DPU_DISABLED] = "DPU disabled",
        [DPU_ERR_DPU_ALREADY_RUNNING] = "DPU already running",
        [DPU_ERR_INVALID_MEMORY_TRANSFER] = "invalid memory transfer",
        [DPU_ERR_INVALID_LAUNCH_POLICY] = "invalid launch policy",
        [DPU_ERR_DPU_FAULT] = "the DPU is in fault",
        [DPU_ERR_ELF_INVALID_FILE] = "invalid DPU executable",
        [DPU_ERR_ELF_NO_SUCH_FILE] = "no such DPU executable",
        [DPU_ERR_ELF_NO_SUCH_SECTION] = "no such section in the executable",
        [DPU_ERR_TIMEOUT] = "timeout (the profile's maxCycles)",
        [DPU_ERR_INVALID_PROFILE] = "invalid profile",
        [DPU_ERR_UNKNOWN_SYMBOL] = "unknown symbol",
        [DPU_ERR_LOG_FORMAT] = "malformed log",
        [DPU_ERR_LOG_CONTEXT_MISSING] = "the program has no log buffer",
        [DPU_ERR_LOG_BUFFER_TOO_SMALL] = "log buffer too small",
    };
    if ((unsigned)status < sizeof text / sizeof text[0] && text[status]) return text[status];
    return "unknown DPU error";
}

/* ---- sets ----------------------------------------------------------------------------------- */

static hapi_ctx *ctx_of(struct dpu_set_t set)
{
    if (set.kind == DPU_SET_DPU) return set.dpu ? set.dpu->rank->ctx : NULL;
    if (set.kind == DPU_SET_RANKS && set.list.nr_ranks && set.list.ranks) return set.list.ranks[0]->ctx;
    return NULL;
}

/* Call fn for every DPU of the set, stopping at the first error. */
#define FOR_DPUS(set, d)                                                                                       \
    for (uint32_t r_ = 0, nr_ = (set).kind == DPU_SET_DPU ? 1 : (set).list.nr_ranks; r_ < nr_; r_++)          \
        for (uint32_t i_ = 0, ni_ = (set).kind == DPU_SET_DPU ? 1 : (set).list.ranks[r_]->nr_dpus; i_ < ni_; i_++) \
            for (struct dpu_t *d = (set).kind == DPU_SET_DPU ? (set).dpu : &(set).list.ranks[r_]->dpus[i_]; d; d = NULL)

static bool valid_set(struct dpu_set_t set)
{
    return ctx_of(set) != NULL;
}

dpu_error_t dpu_get_nr_ranks(struct dpu_set_t set, uint32_t *nr_ranks)
{
    if (!valid_set(set)) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_get_nr_ranks: not a DPU set");
    *nr_ranks = set.kind == DPU_SET_DPU ? 1 : set.list.nr_ranks;
    return DPU_OK;
}

dpu_error_t dpu_get_nr_dpus(struct dpu_set_t set, uint32_t *nr_dpus)
{
    if (!valid_set(set)) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_get_nr_dpus: not a DPU set");
    uint32_t n = 0;
    FOR_DPUS(set, d) n++;
    *nr_dpus = n;
    return DPU_OK;
}

struct dpu_set_rank_iterator_t dpu_set_rank_iterator_from(struct dpu_set_t *set)
{
    struct dpu_set_rank_iterator_t it = { .set = set };
    if (set->kind == DPU_SET_DPU) {
        it.has_next = set->dpu != NULL;
        it.next = *set;
    } else if (set->list.nr_ranks) {
        it.has_next = true;
        it.next = (struct dpu_set_t){ .kind = DPU_SET_RANKS, .list = { 1, &set->list.ranks[0] } };
    }
    return it;
}

void dpu_set_rank_iterator_next(struct dpu_set_rank_iterator_t *it)
{
    it->count++;
    it->next_idx++;
    if (it->set->kind == DPU_SET_DPU || it->next_idx >= it->set->list.nr_ranks) {
        it->has_next = false;
        return;
    }
    it->next.list.ranks = &it->set->list.ranks[it->next_idx];
}

static void dpu_it_settle(struct dpu_set_dpu_iterator_t *it)
{
    /* the DPU next_idx of the current rank, or the first DPU of a later rank */
    for (;;) {
        struct dpu_set_rank_iterator_t *ri = &it->rank_iterator;
        if (!ri->has_next) {
            it->has_next = false;
            return;
        }
        if (ri->next.kind == DPU_SET_DPU) {
            if (it->next_idx == 0) {
                it->next = ri->next;
                it->has_next = true;
                return;
            }
        } else if (it->next_idx < ri->next.list.ranks[0]->nr_dpus) {
            it->next = (struct dpu_set_t){ .kind = DPU_SET_DPU, .dpu = &ri->next.list.ranks[0]->dpus[it->next_idx] };
            it->has_next = true;
            return;
        }
        dpu_set_rank_iterator_next(ri);
        it->next_idx = 0;
    }
}

struct dpu_set_dpu_iterator_t dpu_set_dpu_iterator_from(struct dpu_set_t *set)
{
    struct dpu_set_dpu_iterator_t it = { .rank_iterator = dpu_set_rank_iterator_from(set) };
    dpu_it_settle(&it);
    return it;
}

void dpu_set_dpu_iterator_next(struct dpu_set_dpu_iterator_t *it)
{
    it->count++;
    it->next_idx++;
    dpu_it_settle(it);
}

/* ---- allocation ---------------------------------------------------------------------------- */

static void ctx_free(hapi_ctx *ctx)
{
    hapi_pool_free(ctx->pool);
    for (uint32_t r = 0; r < ctx->nr_ranks; r++) {
        struct dpu_rank_t *rank = ctx->ranks[r];
        if (!rank) continue;
        if (rank->ops) rank->ops->close(rank);
        free(rank->dpus);
        free(rank);
    }
    free(ctx->ranks);
    for (struct dpu_program_t *p = ctx->programs, *next; p; p = next) {
        next = p->next;
        dpu_program_close(&p->p);
        free(p);
    }
    if (ctx->model) isk_model_release(ctx->model);
    pthread_mutex_destroy(&ctx->lock);
    pthread_cond_destroy(&ctx->done);
    free(ctx);
}

static dpu_error_t alloc(uint32_t nr_dpus, uint32_t nr_ranks, const char *profile, struct dpu_set_t *set)
{
#ifdef HAPI_MPI
    /* MPI's processes other than 0 serve ranks from here on and never return */
    dpu_error_t started = hapi_mpi_start();
    if (started != DPU_OK) return started;
#endif
    hapi_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_cond_init(&ctx->done, NULL);
    isk_diag diag;
    isk_diag_init(&diag);
    ctx->model = isk_model_load("dpu", &diag);
    dpu_error_t rc = DPU_OK;
    if (!ctx->model) rc = hapi_error(DPU_ERR_INTERNAL, "cannot load isekit's DPU model");
    if (rc == DPU_OK) rc = hapi_profile_parse(&ctx->prof, profile, ctx->model);
    if (rc == DPU_OK) {
        if (nr_ranks) nr_dpus = nr_ranks * ctx->prof.dpus_per_rank;
        else if (nr_dpus == DPU_ALLOCATE_ALL) nr_dpus = ctx->prof.nr_dpus_all;
        if (!nr_dpus) rc = hapi_error(DPU_ERR_ALLOCATION, "dpu_alloc: 0 DPUs");
    }
    if (rc == DPU_OK) {
        ctx->nr_ranks = (nr_dpus + ctx->prof.dpus_per_rank - 1) / ctx->prof.dpus_per_rank;
        ctx->ranks = calloc(ctx->nr_ranks, sizeof *ctx->ranks);
        if (!ctx->ranks) rc = hapi_error(DPU_ERR_SYSTEM, "out of memory");
    }
    for (uint32_t r = 0; rc == DPU_OK && r < ctx->nr_ranks; r++) {
        struct dpu_rank_t *rank = calloc(1, sizeof *rank);
        if (!rank) {
            rc = hapi_error(DPU_ERR_SYSTEM, "out of memory");
            break;
        }
        ctx->ranks[r] = rank;
        rank->ctx = ctx;
        rank->index = r;
        rank->nr_dpus = r + 1 < ctx->nr_ranks ? ctx->prof.dpus_per_rank : nr_dpus - r * ctx->prof.dpus_per_rank;
        rank->dpus = calloc(rank->nr_dpus, sizeof *rank->dpus);
        if (!rank->dpus) {
            rc = hapi_error(DPU_ERR_SYSTEM, "out of memory");
            break;
        }
        for (uint32_t i = 0; i < rank->nr_dpus; i++) rank->dpus[i] = (struct dpu_t){ .rank = rank, .index = i };
        rc = HAPI_RANK_OPEN(ctx, rank);
    }
    if (rc == DPU_OK) {
        /* nrThreads simulate; a thread driving a rank of another process (MPI) only waits for
         * its reply, so each such rank gets a thread of its own on top */
        uint32_t threads = ctx->prof.threads;
        for (uint32_t r = 0; r < ctx->nr_ranks; r++) threads += ctx->ranks[r]->process != 0;
        if (threads > ctx->nr_ranks) threads = ctx->nr_ranks;
        ctx->pool = hapi_pool_new(threads);
        if (!ctx->pool) rc = hapi_error(DPU_ERR_SYSTEM, "cannot start %u threads", (unsigned)threads);
    }
    if (rc != DPU_OK) {
        ctx_free(ctx);
        return rc;
    }
    ctx->time.cycle_mode = false;
    for (int k = 0; k < ctx->prof.nparams; k++)
        if (strcmp(ctx->prof.params[k][0], "mode") == 0) ctx->time.cycle_mode = strcmp(ctx->prof.params[k][1], "cycle") == 0;
    *set = (struct dpu_set_t){ .kind = DPU_SET_RANKS, .list = { ctx->nr_ranks, ctx->ranks } };
    return DPU_OK;
}

dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set)
{
    return alloc(nr_dpus, 0, profile, dpu_set);
}

dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set)
{
    if (!nr_ranks) return hapi_error(DPU_ERR_ALLOCATION, "dpu_alloc_ranks: 0 ranks");
    return alloc(0, nr_ranks, profile, dpu_set);
}

/* Wait until no launch or callback of these ranks is pending; the first launch error. */
static dpu_error_t wait_set(hapi_ctx *ctx, struct dpu_set_t set)
{
    dpu_error_t rc = DPU_OK;
    pthread_mutex_lock(&ctx->lock);
    for (;;) {
        bool busy = ctx->callbacks_pending > 0;
        FOR_DPUS(set, d) busy |= d->rank->pending > 0;
        if (!busy) break;
        pthread_cond_wait(&ctx->done, &ctx->lock);
    }
    FOR_DPUS(set, d) if (rc == DPU_OK && d->rank->last_error != DPU_OK) rc = d->rank->last_error;
    if (rc == DPU_OK) rc = ctx->callback_error;
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

static void print_report(hapi_ctx *ctx)
{
    struct dpu_isekit_time *t = &ctx->time;
    fprintf(stderr, "dpu: simulated time: %u launches, %" PRIu64 " %s (%.6f s at %.0f MHz), transfers %" PRIu64
            " bytes to and %" PRIu64 " bytes from the DPUs in %.6f s\n", (unsigned)t->launches, t->kernel_cycles,
            t->cycle_mode ? "cycles" : "clocks (functional mode)", t->kernel_seconds, ctx->mhz, t->bytes_to_dpus,
            t->bytes_from_dpus, t->transfer_seconds);
}

dpu_error_t dpu_free(struct dpu_set_t set)
{
    hapi_ctx *ctx = ctx_of(set);
    if (!ctx || set.kind != DPU_SET_RANKS || set.list.ranks != ctx->ranks || set.list.nr_ranks != ctx->nr_ranks)
        return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_free: give the set dpu_alloc returned");
    wait_set(ctx, set);
    if (ctx->prof.report) print_report(ctx);
    ctx_free(ctx);
    return DPU_OK;
}

static dpu_error_t check_idle(struct dpu_set_t set, const char *what)
{
    hapi_ctx *ctx = ctx_of(set);
    if (!ctx) return hapi_error(DPU_ERR_INVALID_DPU_SET, "%s: not a DPU set", what);
    /* operations keep their order with launches: a rank still running finishes first */
    wait_set(ctx, set);
    return DPU_OK;
}

/* ---- programs ------------------------------------------------------------------------------- */

static dpu_error_t load(struct dpu_set_t set, isk_obj *exe, const char *name, isk_diag *diag,
                        struct dpu_program_t **program)
{
    hapi_ctx *ctx = ctx_of(set);
    struct dpu_program_t *prog = calloc(1, sizeof *prog);
    if (!prog) {
        isk_obj_free(exe);
        return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    }
    if (dpu_program_from_obj(&prog->p, exe, diag) != 0) {
        free(prog);
        return hapi_error(DPU_ERR_ELF_INVALID_FILE, "dpu_load: %s is not a DPU executable isekit can run", name);
    }
    prog->next = ctx->programs;
    ctx->programs = prog;
    /* the MRAM heap: __sys_used_mram_end, else past the program's MRAM sections */
    int mram = isk_model_find_storage(ctx->model, "MRAM");
    uint64_t v, end = 0;
    isk_addr_cell c;
    if (dpu_symbol(&prog->p, DPU_MRAM_HEAP_POINTER_NAME, &v) && isk_addr_to_cell(ctx->model, v, &c) && c.storage == mram) {
        end = c.index;
    } else {
        for (size_t i = 1; i < exe->secs.len; i++) {
            const isk_section *s = &exe->secs.data[i];
            if (s->size && isk_addr_to_cell(ctx->model, s->addr, &c) && c.storage == mram && c.index + s->size > end)
                end = c.index + s->size;
        }
        end = (end + 7) & ~(uint64_t)7;
    }
    prog->heap = (uint32_t)end;
    dpu_error_t rc = DPU_OK;
    FOR_DPUS(set, d) if (rc == DPU_OK) rc = d->rank->ops->load(d->rank, d, prog);
    if (rc == DPU_OK && program) *program = prog;
    return rc;
}

static void diag_to_stderr(isk_diag *diag)
{
    isk_diag_init(diag);
    diag->max_errors = 20;
}

dpu_error_t dpu_load(struct dpu_set_t set, const char *binary_path, struct dpu_program_t **program)
{
    dpu_error_t rc = check_idle(set, "dpu_load");
    if (rc != DPU_OK) return rc;
    if (!binary_path || access(binary_path, R_OK) != 0)
        return hapi_error(DPU_ERR_ELF_NO_SUCH_FILE, "dpu_load: cannot read the DPU executable '%s': %s",
                          binary_path ? binary_path : "(null)", strerror(errno));
    isk_diag diag;
    diag_to_stderr(&diag);
    isk_obj *exe = isk_elf_read_file(binary_path, &diag);
    if (!exe) return hapi_error(DPU_ERR_ELF_INVALID_FILE, "dpu_load: %s is not a readable ELF file", binary_path);
    return load(set, exe, binary_path, &diag, program);
}

dpu_error_t dpu_load_from_memory(struct dpu_set_t set, uint8_t *buffer, size_t buffer_size,
                                 struct dpu_program_t **program)
{
    dpu_error_t rc = check_idle(set, "dpu_load_from_memory");
    if (rc != DPU_OK) return rc;
    isk_diag diag;
    diag_to_stderr(&diag);
    isk_obj *exe = buffer ? isk_elf_read_mem(buffer, buffer_size, "<memory>", &diag) : NULL;
    if (!exe) return hapi_error(DPU_ERR_ELF_INVALID_FILE, "dpu_load_from_memory: the %zu bytes are not an ELF file", buffer_size);
    return load(set, exe, "the executable in memory", &diag, program);
}

dpu_error_t dpu_get_symbol(struct dpu_program_t *program, const char *symbol_name, struct dpu_symbol_t *symbol)
{
    if (!program || !program->p.exe) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_get_symbol: no program");
    uint32_t i = isk_obj_lookup(program->p.exe, symbol_name);
    if (!i || program->p.exe->syms.data[i].shndx == ISK_SHN_UNDEF)
        return hapi_error(DPU_ERR_UNKNOWN_SYMBOL, "dpu_get_symbol: the program defines no symbol '%s'", symbol_name);
    symbol->address = (dpu_mem_max_addr_t)program->p.exe->syms.data[i].value;
    symbol->size = (dpu_mem_max_size_t)program->p.exe->syms.data[i].size;
    return DPU_OK;
}

/* ---- copies ------------------------------------------------------------------------------------ */

/* The bandwidth model: each rank moves its bytes at the profile's GB/s, the ranks in parallel,
 * after a fixed latency per call. */
static void account(hapi_ctx *ctx, struct dpu_set_t set, const uint64_t *rank_bytes, bool to_dpu)
{
    (void)set;
    uint64_t most = 0, all = 0;
    for (uint32_t r = 0; r < ctx->nr_ranks; r++) {
        all += rank_bytes[r];
        if (rank_bytes[r] > most) most = rank_bytes[r];
    }
    if (!all) return;
    double gbps = to_dpu ? ctx->prof.to_gbps : ctx->prof.from_gbps;
    pthread_mutex_lock(&ctx->lock);
    ctx->time.transfer_seconds += ctx->prof.latency_us * 1e-6 + (double)most / (gbps * 1e9);
    if (to_dpu) ctx->time.bytes_to_dpus += all;
    else ctx->time.bytes_from_dpus += all;
    pthread_mutex_unlock(&ctx->lock);
}

/* One copy on one DPU; buf NULL: the DPU's prepared buffer (skipped if it has none). */
static dpu_error_t copy_one(struct dpu_t *d, const char *symbol, uint32_t offset, void *buf, size_t len, bool to_dpu)
{
    if (!d->prog)
        return hapi_error(DPU_ERR_INVALID_DPU_SET, "rank %u, DPU %u: no program loaded (dpu_load first)",
                          (unsigned)d->rank->index, (unsigned)d->index);
    if (symbol && strcmp(symbol, DPU_MRAM_HEAP_POINTER_NAME) == 0) {
        if ((uint64_t)d->prog->heap + offset > UINT32_MAX)
            return hapi_error(DPU_ERR_INVALID_MRAM_ACCESS, "rank %u, DPU %u: MRAM heap offset %u is past the MRAM",
                              (unsigned)d->rank->index, (unsigned)d->index, (unsigned)offset);
        dpu_error_t rc = d->rank->ops->copy(d->rank, d, NULL, d->prog->heap + offset, buf, len, to_dpu);
        return rc == DPU_OK ? rc : DPU_ERR_INVALID_MRAM_ACCESS;
    }
    return d->rank->ops->copy(d->rank, d, symbol, offset, buf, len, to_dpu);
}

static dpu_error_t copy_set(struct dpu_set_t set, const char *what, const char *symbol, uint32_t offset, const void *src,
                            void *dst, size_t len, bool prepared)
{
    dpu_error_t rc = check_idle(set, what);
    if (rc != DPU_OK) return rc;
    if (!symbol) return hapi_error(DPU_ERR_UNKNOWN_SYMBOL, "%s: no symbol name", what);
    hapi_ctx *ctx = ctx_of(set);
    bool to_dpu = dst == NULL;
    uint64_t *bytes = calloc(ctx->nr_ranks, sizeof *bytes);
    if (!bytes) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    FOR_DPUS(set, d) {
        if (rc != DPU_OK) break;
        void *buf = prepared ? d->xfer : to_dpu ? (void *)(uintptr_t)src : dst;
        if (!buf) continue;
        rc = copy_one(d, symbol, offset, buf, len, to_dpu);
        if (rc == DPU_OK) bytes[d->rank->index] += len;
        else hapi_error(rc, "%s: '%s' on rank %u, DPU %u failed", what, symbol, (unsigned)d->rank->index, (unsigned)d->index);
    }
    account(ctx, set, bytes, to_dpu);
    free(bytes);
    return rc;
}

dpu_error_t dpu_copy_to(struct dpu_set_t set, const char *symbol_name, uint32_t symbol_offset, const void *src,
                        size_t length)
{
    return copy_set(set, "dpu_copy_to", symbol_name, symbol_offset, src, NULL, length, false);
}

dpu_error_t dpu_copy_from(struct dpu_set_t set, const char *symbol_name, uint32_t symbol_offset, void *dst,
                          size_t length)
{
    if (set.kind != DPU_SET_DPU)
        return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_copy_from: copy from one DPU (DPU_FOREACH), or use "
                          "dpu_prepare_xfer and dpu_push_xfer for many");
    return copy_set(set, "dpu_copy_from", symbol_name, symbol_offset, NULL, dst, length, false);
}

dpu_error_t dpu_broadcast_to(struct dpu_set_t set, const char *symbol_name, uint32_t symbol_offset, const void *src,
                             size_t length, dpu_xfer_flags_t flags)
{
    (void)flags;
    return copy_set(set, "dpu_broadcast_to", symbol_name, symbol_offset, src, NULL, length, false);
}

dpu_error_t dpu_prepare_xfer(struct dpu_set_t set, void *buffer)
{
    dpu_error_t rc = check_idle(set, "dpu_prepare_xfer");
    if (rc != DPU_OK) return rc;
    FOR_DPUS(set, d) d->xfer = buffer;
    return DPU_OK;
}

dpu_error_t dpu_push_xfer(struct dpu_set_t set, dpu_xfer_t xfer, const char *symbol_name, uint32_t symbol_offset,
                          size_t length, dpu_xfer_flags_t flags)
{
    if (xfer != DPU_XFER_TO_DPU && xfer != DPU_XFER_FROM_DPU)
        return hapi_error(DPU_ERR_INVALID_MEMORY_TRANSFER, "dpu_push_xfer: direction %d is neither DPU_XFER_TO_DPU "
                          "nor DPU_XFER_FROM_DPU", (int)xfer);
    static char from_marker;   /* a non-NULL dst says "from the DPUs"; the buffers are the prepared ones */
    dpu_error_t rc = copy_set(set, "dpu_push_xfer", symbol_name, symbol_offset, NULL,
                              xfer == DPU_XFER_FROM_DPU ? &from_marker : NULL, length, true);
    if (!(flags & DPU_XFER_NO_RESET)) FOR_DPUS(set, d) d->xfer = NULL;
    return rc;
}

/* ---- launches ---------------------------------------------------------------------------------- */

typedef struct launch {
    hapi_ctx *ctx;
    int ranks_left;
    uint64_t cycles;           /* the most any rank took */
} launch;

typedef struct rank_job { struct dpu_rank_t *rank; launch *l; } rank_job;

static void run_rank(void *arg)
{
    rank_job *j = arg;
    struct dpu_rank_t *r = j->rank;
    uint64_t cycles = 0;
    dpu_error_t rc = r->ops->run(r, &cycles);
    hapi_ctx *ctx = r->ctx;
    pthread_mutex_lock(&ctx->lock);
    r->last_error = rc;
    r->pending--;
    launch *l = j->l;
    if (cycles > l->cycles) l->cycles = cycles;
    if (--l->ranks_left == 0) {
        ctx->time.launches++;
        ctx->time.last_kernel_cycles = l->cycles;
        ctx->time.kernel_cycles += l->cycles;
        ctx->time.kernel_seconds = (double)ctx->time.kernel_cycles / (ctx->mhz * 1e6);
        free(l);
    }
    pthread_cond_broadcast(&ctx->done);
    pthread_mutex_unlock(&ctx->lock);
    free(j);
}

dpu_error_t dpu_launch(struct dpu_set_t set, dpu_launch_policy_t policy)
{
    if (policy != DPU_SYNCHRONOUS && policy != DPU_ASYNCHRONOUS)
        return hapi_error(DPU_ERR_INVALID_LAUNCH_POLICY, "dpu_launch: policy %d is neither DPU_SYNCHRONOUS nor "
                          "DPU_ASYNCHRONOUS", (int)policy);
    dpu_error_t rc = check_idle(set, "dpu_launch");
    if (rc != DPU_OK) return rc;
    hapi_ctx *ctx = ctx_of(set);
    FOR_DPUS(set, d) {
        if (!d->prog)
            return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_launch: rank %u, DPU %u has no program (dpu_load first)",
                              (unsigned)d->rank->index, (unsigned)d->index);
    }
    for (uint32_t r = 0; r < ctx->nr_ranks; r++)
        for (uint32_t i = 0; i < ctx->ranks[r]->nr_dpus; i++) ctx->ranks[r]->dpus[i].boot = false;
    if (!ctx->mhz) {
        /* rank 0 is simulated in this process whatever the backend */
        const char *chip = isk_get_param(ctx->ranks[0]->dpus[0].inst, "chip");
        ctx->mhz = chip && strcmp(chip, "v1B") == 0 ? 400.0 : 350.0;
    }
    launch *l = calloc(1, sizeof *l);
    if (!l) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    l->ctx = ctx;
    /* the ranks this launch touches, each once */
    struct dpu_rank_t *last = NULL;
    FOR_DPUS(set, d) {
        d->boot = true;
        if (d->rank != last) l->ranks_left++;
        last = d->rank;
    }
    pthread_mutex_lock(&ctx->lock);
    last = NULL;
    FOR_DPUS(set, d) {
        if (d->rank == last) continue;
        last = d->rank;
        last->pending++;
        last->last_error = DPU_OK;
        rank_job *j = malloc(sizeof *j);
        if (!j) abort();
        *j = (rank_job){ last, l };
        hapi_pool_submit(ctx->pool, run_rank, j);
    }
    pthread_mutex_unlock(&ctx->lock);
    return policy == DPU_SYNCHRONOUS ? wait_set(ctx, set) : DPU_OK;
}

dpu_error_t dpu_status(struct dpu_set_t set, bool *done, bool *fault)
{
    hapi_ctx *ctx = ctx_of(set);
    if (!ctx) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_status: not a DPU set");
    bool busy = false, bad = false;
    pthread_mutex_lock(&ctx->lock);
    FOR_DPUS(set, d) {
        busy |= d->rank->pending > 0;
        bad |= d->rank->pending == 0 && d->fault;
    }
    pthread_mutex_unlock(&ctx->lock);
    *done = !busy;
    *fault = bad;
    return DPU_OK;
}

dpu_error_t dpu_sync(struct dpu_set_t set)
{
    hapi_ctx *ctx = ctx_of(set);
    if (!ctx) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_sync: not a DPU set");
    return wait_set(ctx, set);
}

typedef struct callback_job {
    struct dpu_set_t set;
    dpu_error_t (*fn)(struct dpu_set_t, uint32_t, void *);
    void *args;
    bool single;
} callback_job;

static dpu_error_t call_back(callback_job *cb)
{
    if (cb->single) return cb->fn(cb->set, 0, cb->args);
    dpu_error_t rc = DPU_OK;
    struct dpu_set_t rank;
    uint32_t i;
    DPU_RANK_FOREACH(cb->set, rank, i) {
        if (rc == DPU_OK) rc = cb->fn(rank, i, cb->args);
    }
    return rc;
}

static void callback_on_pool(void *arg)
{
    callback_job *cb = arg;
    hapi_ctx *ctx = ctx_of(cb->set);
    /* after the set's launches: jobs start in order, so theirs are running or done */
    pthread_mutex_lock(&ctx->lock);
    for (;;) {
        bool busy = false;
        FOR_DPUS(cb->set, d) busy |= d->rank->pending > 0;
        if (!busy) break;
        pthread_cond_wait(&ctx->done, &ctx->lock);
    }
    pthread_mutex_unlock(&ctx->lock);
    dpu_error_t rc = call_back(cb);
    pthread_mutex_lock(&ctx->lock);
    if (rc != DPU_OK && ctx->callback_error == DPU_OK) ctx->callback_error = rc;
    ctx->callbacks_pending--;
    pthread_cond_broadcast(&ctx->done);
    pthread_mutex_unlock(&ctx->lock);
    free(cb);
}

dpu_error_t dpu_callback(struct dpu_set_t set, dpu_error_t (*callback)(struct dpu_set_t, uint32_t, void *), void *args,
                         dpu_callback_flags_t flags)
{
    hapi_ctx *ctx = ctx_of(set);
    if (!ctx || !callback) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_callback: not a DPU set or no callback");
    callback_job job = { set, callback, args, (flags & DPU_CALLBACK_SINGLE_CALL) != 0 };
    if (!(flags & DPU_CALLBACK_ASYNC)) {
        dpu_error_t rc = wait_set(ctx, set);
        return rc != DPU_OK ? rc : call_back(&job);
    }
    callback_job *cb = malloc(sizeof *cb);
    if (!cb) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    *cb = job;
    pthread_mutex_lock(&ctx->lock);
    ctx->callbacks_pending++;
    pthread_mutex_unlock(&ctx->lock);
    hapi_pool_submit(ctx->pool, callback_on_pool, cb);
    return flags & DPU_CALLBACK_NONBLOCKING ? DPU_OK : wait_set(ctx, set);
}

/* ---- the log, time ----------------------------------------------------------------------------- */

dpu_error_t dpu_log_read(struct dpu_set_t set, FILE *stream)
{
    if (set.kind != DPU_SET_DPU || !set.dpu)
        return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_log_read: read the log of one DPU (DPU_FOREACH)");
    dpu_error_t rc = check_idle(set, "dpu_log_read");
    if (rc != DPU_OK) return rc;
    struct dpu_t *d = set.dpu;
    if (!d->prog)
        return hapi_error(DPU_ERR_LOG_CONTEXT_MISSING, "dpu_log_read: rank %u, DPU %u has no program",
                          (unsigned)d->rank->index, (unsigned)d->index);
    char *text = NULL;
    size_t len = 0;
    rc = d->rank->ops->log(d->rank, d, &text, &len);
    if (rc == DPU_OK && fwrite(text, 1, len, stream) != len) rc = hapi_error(DPU_ERR_SYSTEM, "dpu_log_read: cannot write the log");
    free(text);
    return rc;
}

dpu_error_t dpu_isekit_get_time(struct dpu_set_t set, struct dpu_isekit_time *time)
{
    hapi_ctx *ctx = ctx_of(set);
    if (!ctx) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_isekit_get_time: not a DPU set");
    pthread_mutex_lock(&ctx->lock);
    *time = ctx->time;
    pthread_mutex_unlock(&ctx->lock);
    return DPU_OK;
}

dpu_error_t dpu_isekit_get_process(struct dpu_set_t set, int *process)
{
    if (!valid_set(set)) return hapi_error(DPU_ERR_INVALID_DPU_SET, "dpu_isekit_get_process: not a DPU set");
    *process = set.kind == DPU_SET_DPU ? set.dpu->rank->process : set.list.ranks[0]->process;
    return DPU_OK;
}
