/* isekit model API: describe a processor or an accelerator in C.
 *
 * A model is one C file (it may #include its own headers). It declares, in this order:
 *
 *   1. storage          STATE_BEGIN ... DECLARE_MEMORY(INT(16, 3), 2048) LDM; ... STATE_END
 *   2. operations       ordinary C functions taking STATE, using UseResources(mask)
 *   3. behaviours       ACC_FUNCTION(Name, operand, ...) { ... FinishCycle(); ... }
 *   4. the description  MODEL_BEGIN(name, "title") MEMORY(..) REGFILE_BEGIN(..) INSTRUCTION(..) MODEL_END
 *
 * The vocabulary is that of the ISP RAS ISE article (see docs/model-api.md for the mapping). The
 * differences forced by C: storage is read with GET(X, i) and written with SET(X, i, v) (C has no
 * operator overloading), and every behaviour and operation sees the model instance as `S`.
 * Nothing here is global: each instance owns its storage, so a process may hold thousands.
 *
 * This header is the language; what it compiles to (the instance header, the engine's services,
 * the declaration structs and the entry point) is isekit/abi.h, which the engine shares.
 */
#ifndef ISEKIT_MODEL_H
#define ISEKIT_MODEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isekit/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- preprocessor plumbing ------------------------------------------------------------- */
#define ISK_CAT_(a, b) a##b
#define ISK_CAT(a, b) ISK_CAT_(a, b)
#define ISK_EXPAND(...) __VA_ARGS__
#define ISK_NARGS(...) ISK_NARGS_(0 __VA_OPT__(,) __VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define ISK_NARGS_(z, a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n

/* =========================================================================================
 * 1. Storage
 * =========================================================================================
 * A storage is an array of cells of one width (1..64 bits), signedness and write latency:
 *
 *   DECLARE_MEMORY(INT(16, 3), 2048) LDM;      2048 signed 16-bit cells, latency 3
 *   DECLARE_REGISTERS_FILE(INT(16), 2) GRF;    two 16-bit registers, latency 1 (the default)
 *   DECLARE_REGISTER(UINT(36)) ACR;            one unsigned 36-bit register
 *   DECLARE_REGISTER(FIXED(4, 12)) K;          signed fixed point: 4 integer, 12 fraction bits
 *   DECLARE_REGISTERS_FILE(FLOAT(32, 0), 16) A;   16 cells shown as IEEE binary32
 *   DECLARE_CODE_MEMORY(UINT(48, 0), 4096) IRAM;  instruction memory of a processor
 *
 * Latency L: a value written in clock k is readable from clock k+L; reads in between see the
 * old value. L = 0 means immediate update (fast ISA models). Writes wrap to the cell width and
 * sign-extend (INT) or zero-extend (UINT). Declarations go between STATE_BEGIN and STATE_END;
 * each must also be named in the description (MEMORY, REGFILE_BEGIN, REG): the model is refused
 * otherwise. The cells of one instance may take ISEKIT_MAX_STORAGE bytes (default 1 GiB).
 *
 * FLOAT(16), FLOAT(32), FLOAT(64) and FLOAT(16x2) (two binary16 halves in 32 bits, the low half
 * first), each with an optional latency, declare a display format: the cells are UINT of that
 * width (GET gives the raw bits; the model converts, e.g. with memcpy), and the debugger, the DAP
 * server, `--show`, `isekit info` and VCD traces show them as floats and accept float literals
 * in `set`. */

#define INT(...) ISK_CAT(ISK_SPEC_, ISK_NARGS(__VA_ARGS__))(1, __VA_ARGS__)
#define UINT(...) ISK_CAT(ISK_SPEC_, ISK_NARGS(__VA_ARGS__))(0, __VA_ARGS__)
#define FIXED(...) ISK_CAT(ISK_FIXED_, ISK_NARGS(__VA_ARGS__))(1, __VA_ARGS__)
#define UFIXED(...) ISK_CAT(ISK_FIXED_, ISK_NARGS(__VA_ARGS__))(0, __VA_ARGS__)
#define FLOAT(...) ISK_CAT(ISK_FLOAT_, ISK_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define ISK_SPEC_1(sgn, w) (sgn, w, 1, 0, ISK_DISPLAY_INT)
#define ISK_SPEC_2(sgn, w, lat) (sgn, w, lat, 0, ISK_DISPLAY_INT)
#define ISK_FIXED_2(sgn, i, f) (sgn, (i) + (f), 1, f, ISK_DISPLAY_INT)
#define ISK_FIXED_3(sgn, i, f, lat) (sgn, (i) + (f), lat, f, ISK_DISPLAY_INT)
/* A format other than 16, 32, 64, 16x2 fails to compile naming ISK_FLOAT_WIDTH_<it>. */
#define ISK_FLOAT_1(fmt) ISK_FLOAT_2(fmt, 1)
#define ISK_FLOAT_2(fmt, lat) (0, ISK_FLOAT_WIDTH_##fmt, lat, 0, ISK_FLOAT_DISPLAY_##fmt)
#define ISK_FLOAT_WIDTH_16 16
#define ISK_FLOAT_WIDTH_32 32
#define ISK_FLOAT_WIDTH_64 64
#define ISK_FLOAT_WIDTH_16x2 32
#define ISK_FLOAT_DISPLAY_16 ISK_DISPLAY_F16
#define ISK_FLOAT_DISPLAY_32 ISK_DISPLAY_F32
#define ISK_FLOAT_DISPLAY_64 ISK_DISPLAY_F64
#define ISK_FLOAT_DISPLAY_16x2 ISK_DISPLAY_F16X2

/* The container of a cell: the smallest standard integer type that holds the width, signed for
 * INT so that a plain read already has the right sign. */
#define ISK_CELL_CLASS(sgn, w) ((sgn) * 4 + ((w) <= 8 ? 1 : (w) <= 16 ? 2 : (w) <= 32 ? 3 : 4))
#define ISK_CELL_T(sgn, w) __typeof__(_Generic((char (*)[ISK_CELL_CLASS(sgn, w)])0, \
    char (*)[1]: (uint8_t)0, char (*)[2]: (uint16_t)0, char (*)[3]: (uint32_t)0, char (*)[4]: (uint64_t)0, \
    char (*)[5]: (int8_t)0, char (*)[6]: (int16_t)0, char (*)[7]: (int32_t)0, char (*)[8]: (int64_t)0))

/* A storage member: the engine points `v` at `n` cells. The static shape (display, kind, sign,
 * latency, fraction bits, width) and the declared count live in the types of never-used pointers, so
 * that accessors see them as compile-time constants at no run-time cost; so do the declaration's
 * line and its number from __COUNTER__, which tell the engine whether the description named
 * every declared storage (C cannot list the members of a struct). */
#define ISK_STORAGE(kind, count, spec) ISK_STORAGE_(kind, count, __COUNTER__, ISK_EXPAND spec)
#define ISK_STORAGE_(kind, count, seq, ...) ISK_STORAGE__(kind, count, seq, __VA_ARGS__)
#define ISK_STORAGE__(kind, count, seq, sgn, w, lat, frac, disp) struct { \
    ISK_CELL_T(sgn, w) *v; \
    uint64_t n; \
    char (*isk_shape)[(disp) + 1][(kind) + 1][(sgn) + 1][(lat) + 1][(frac) + 1][(w)]; \
    char (*isk_count)[(count)]; \
    char (*isk_where)[(seq) + 1][__LINE__]; \
    _Static_assert((w) >= 1 && (w) <= 64, "storage width must be 1..64 bits"); \
    _Static_assert((lat) >= 0 && (lat) <= ISK_MAX_LATENCY, "storage latency must be 0..63 clocks"); \
    _Static_assert((frac) >= 0 && (frac) <= (w), "fraction bits exceed the width"); \
    _Static_assert((count) >= 1, "a storage needs at least one cell"); }

#define DECLARE_MEMORY(spec, count) ISK_STORAGE(ISK_MEMORY, count, spec)
#define DECLARE_CODE_MEMORY(spec, count) ISK_STORAGE(ISK_CODE_MEMORY, count, spec)
#define DECLARE_REGISTERS_FILE(spec, count) ISK_STORAGE(ISK_REGFILE, count, spec)
#define DECLARE_REGISTER(spec) ISK_STORAGE(ISK_REGISTER, 1, spec)

/* Static properties of a storage member X of the current state (usable in constant expressions). */
#define ISK_SHAPE_OF(st, X) ((*((st *)0)->X.isk_shape)[0])
#define ISK_DISPLAY_OF(st, X) ((int)(sizeof(*((st *)0)->X.isk_shape) / sizeof(ISK_SHAPE_OF(st, X))) - 1)
#define ISK_WIDTH_OF(st, X) ((int)sizeof(ISK_SHAPE_OF(st, X)[0][0][0][0]))
#define ISK_FRAC_OF(st, X) ((int)(sizeof(ISK_SHAPE_OF(st, X)[0][0][0]) / sizeof(ISK_SHAPE_OF(st, X)[0][0][0][0])) - 1)
#define ISK_LAT_OF(st, X) ((int)(sizeof(ISK_SHAPE_OF(st, X)[0][0]) / sizeof(ISK_SHAPE_OF(st, X)[0][0][0])) - 1)
#define ISK_SIGN_OF(st, X) ((int)(sizeof(ISK_SHAPE_OF(st, X)[0]) / sizeof(ISK_SHAPE_OF(st, X)[0][0])) - 1)
#define ISK_KIND_OF(st, X) ((int)(sizeof(ISK_SHAPE_OF(st, X)) / sizeof(ISK_SHAPE_OF(st, X)[0])) - 1)
#define ISK_COUNT_OF(st, X) ((uint64_t)sizeof(*((st *)0)->X.isk_count))
#define ISK_CELL_BYTES_OF(st, X) ((int)sizeof(*((st *)0)->X.v))
#define ISK_SEQ_OF(st, X) ((int)(sizeof(*((st *)0)->X.isk_where) / sizeof((*((st *)0)->X.isk_where)[0])) - 1)
#define ISK_LINE_OF(st, X) ((int)sizeof((*((st *)0)->X.isk_where)[0]))

/* =========================================================================================
 * 2. The instance header and the engine's services
 * ========================================================================================= */

/* The one name a behaviour or operation needs: S, the model instance. */
#define STATE struct isk_state *S
/* Both ends take a number from __COUNTER__ too: the storages declared between them are those
 * numbered in between (a model's own use of __COUNTER__ inside the state would upset this). */
#define STATE_BEGIN __attribute__((unused)) static const char isk_state_file[] = __FILE__; \
    enum { isk_state_first = __COUNTER__, isk_state_line = __LINE__ }; \
    struct isk_state { isk_hdr isk;
#define STATE_END }; enum { isk_state_last = __COUNTER__ };

/* The cell count is passed by address and read after the trap's cold call, not before: a value
 * loaded before a call that returns into the behaviour must survive it in a callee-saved
 * register, which the behaviour's prologue saves on every run. */
ISK_INLINE uint64_t isk_index_at(isk_hdr *h, int64_t i, const uint64_t *n, const char *name)
{
    if (ISK_UNLIKELY(h->trap)) h->ops->boundary(h);
    if (ISK_UNLIKELY((uint64_t)i >= *n)) h->ops->index_fault(h, name, i, *n);
    return (uint64_t)i;
}
ISK_INLINE uint64_t isk_index(isk_hdr *h, int64_t i, uint64_t n, const char *name)
{
    return isk_index_at(h, i, &n, name);
}

#define ISK_WRITE_BYTES(n) ((unsigned)(n) << 8)
#define ISK_WRITE_CODE (1u << 16)
#define ISK_WRITE_INLINE (1u << 17)

ISK_INLINE void isk_store(isk_hdr *h, void *cell, int bytes, int64_t v, int lat, int code)
{
    if (lat == 0 && !code && !h->checking) {   /* checking: a CREW log, an issue group */
        switch (bytes) {
        case 1: *(uint8_t *)cell = (uint8_t)v; break;
        case 2: *(uint16_t *)cell = (uint16_t)v; break;
        case 4: *(uint32_t *)cell = (uint32_t)v; break;
        default: *(uint64_t *)cell = (uint64_t)v; break;
        }
    } else if (lat == 1 && !code && h->inline_entry) {
        /* a command's first write of the clock to a latency-1 cell, the log empty: nothing to
         * conflict with, no call; the engine filled in the entry's writer when it armed it
         * (abi.h isk_hdr.inline_entry), and a second write goes through ops->write */
        isk_write_entry *const e = h->inline_entry;
        e->cell = cell;
        e->value = v;
        e->how = 1u | ISK_WRITE_BYTES(bytes) | ISK_WRITE_INLINE;
        h->inline_entry = NULL;
        h->wlog->len = 1;
        /* no h->attention: only a command gets here, and the clock's end commits its log
         * whatever attention says; attention is read only from a processor's own header, by
         * the issue loops, for what its instruction did */
    } else {
        h->ops->write(h, cell, v, (unsigned)lat | ISK_WRITE_BYTES(bytes) | (code ? ISK_WRITE_CODE : 0));
    }
}

#if defined(__GNUC__) || defined(__clang__)
#define ISK_COLD static __attribute__((noinline, cold, unused))   /* a cold path, out of line */
#else
#define ISK_COLD static
#endif

#define ISK_OVERLOAD_2(_1, _2, name, ...) name
#define ISK_OVERLOAD_3(_1, _2, _3, name, ...) name

/* GET(X) / GET(X, i): read cell i (0 for a single register). Sees the value committed before
 * this clock for latency >= 1, the latest value for latency 0. Index out of range is a fault. */
#define GET(...) ISK_OVERLOAD_2(__VA_ARGS__, ISK_GET2, ISK_GET1, ~)(__VA_ARGS__)
#define ISK_GET1(X) ISK_GET2(X, 0)
#define ISK_GET2(X, i) (*(__typeof__(S->X.v))isk_index_read(&S->isk, (int64_t)(i), &S->X.n, #X, \
    offsetof(struct isk_state, X), (void *const *)&S->X.v, sizeof S->X.v[0]))
/* isk_index for a read: the same single test of h->trap on the fast path, and one cold call
 * (ops->read takes a pending FinishCycle() and, while reads are watched, reports this one), so
 * that a GET adds no call site to a behaviour. It returns the cell's address, the count and the
 * cells' base loaded after the cold call (as in isk_index). */
ISK_INLINE void *isk_index_read(isk_hdr *h, int64_t i, const uint64_t *n, const char *name, size_t storage,
                                void *const *cells, size_t bytes)
{
    if (ISK_UNLIKELY(h->trap)) h->ops->read(h, storage, i, 1);
    if (ISK_UNLIKELY((uint64_t)i >= *n)) h->ops->index_fault(h, name, i, *n);
    return (char *)*cells + (uint64_t)i * bytes;
}

/* SET(X, v) / SET(X, i, v): write cell i, visible after the storage's latency. */
#define SET(...) ISK_OVERLOAD_3(__VA_ARGS__, ISK_SET3, ISK_SET2, ~)(__VA_ARGS__)
#define ISK_SET2(X, val) ISK_SET3(X, 0, val)
#define ISK_SET3(X, i, val) do { \
        _Static_assert(offsetof(__typeof__(S->X), n) == offsetof(isk_storage_head, n), "storage layout"); \
        isk_set(&S->isk, (int64_t)(i), isk_wrap((int64_t)(val), ISK_WIDTH_OF(struct isk_state, X), \
                                                ISK_SIGN_OF(struct isk_state, X)), \
                &S->X, ISK_CELL_BYTES_OF(struct isk_state, X), ISK_LAT_OF(struct isk_state, X), \
                ISK_KIND_OF(struct isk_state, X) == ISK_CODE_MEMORY, #X); \
    } while (0)
/* A storage member's first two fields, as SET's cold path reads them. */
typedef struct isk_storage_head { void *v; uint64_t n; } isk_storage_head;
/* SET's cold path, out of line: the pending boundary, the index check and the store, all here,
 * so that the behaviour's only call on it is this one, with the same six arguments as its
 * inline path has at hand; when the SET is a behaviour's last statement the call is a tail jump
 * and the behaviour needs no frame. */
ISK_COLD void isk_set_cold(isk_hdr *h, int64_t i, int64_t v, void *storage, unsigned how,
                          const char *name)
{
    const isk_storage_head *const st = storage;
    const unsigned bytes = (how >> 8) & 0xff;
    isk_store(h, (char *)st->v + isk_index_at(h, i, &st->n, name) * bytes, (int)bytes, v,
              (int)(how & 0xff), (how & ISK_WRITE_CODE) != 0);
}
/* The fast path tests the trap and the index once each and stores as isk_store does; a trap or
 * an index out of range goes to isk_set_cold, which does it all again in order. */
ISK_INLINE void isk_set(isk_hdr *h, int64_t i, int64_t v, void *storage, int bytes, int lat, int code,
                        const char *name)
{
    isk_storage_head *const st = storage;
    if (ISK_LIKELY(!h->trap) && ISK_LIKELY((uint64_t)i < st->n))
        isk_store(h, (char *)st->v + (uint64_t)i * (unsigned)bytes, bytes, v, lat, code);
    else
        isk_set_cold(h, i, v, storage, (unsigned)lat | ISK_WRITE_BYTES(bytes) | (code ? ISK_WRITE_CODE : 0), name);
}

/* CELLS(X): the raw cell array, for hot paths of latency-0 storage that want plain C access.
 * It bypasses width wrapping, latency, CREW checks and bounds checks: use with care. */
#define CELLS(X) (S->X.v)
/* CODE_CHANGED(i): cell i of the code memory was written through CELLS; the engine drops its
 * decoded instruction (SET and the host's writes do this themselves). */
#define CODE_CHANGED(i) S->isk.ops->invalidate_code(&S->isk, (uint64_t)(i))
/* NOTE_READ(X, first, n): a read of cells first..first+n-1 of X through CELLS (a load, a DMA),
 * for the debugger's read watchpoints; after the path's own bounds check, and best last in the
 * behaviour (after the write-back), where its cold call is a tail call that costs a leaf
 * behaviour no saved registers. Costs one test of h->trap while nobody watches; like GET, it
 * also takes a pending FinishCycle(). */
#define NOTE_READ(X, first, n) do { \
        if (ISK_UNLIKELY(S->isk.trap)) \
            S->isk.ops->read(&S->isk, offsetof(struct isk_state, X), (int64_t)(first), (uint64_t)(n)); \
    } while (0)
/* COUNT(X): the number of cells (may be configured below the declared count at run time). */
#define COUNT(X) (S->X.n)
#define WIDTH(X) ISK_WIDTH_OF(struct isk_state, X)

/* The clock. FinishCycle() ends this clock's operations; the behaviour continues in the next
 * clock. Returning from a behaviour ends the command; a FinishCycle() right before the return
 * adds no clock. Between FinishCycle() and the next storage access only local computation may
 * happen (locals are kept across clocks; a pointer into storage read after FinishCycle() is
 * not intercepted, so always access storage through GET/SET). */
#define FinishCycle() isk_finish_cycle(&S->isk)
/* Its cold path out of line too, so that a FinishCycle() that ends a behaviour is a tail jump
 * there. */
ISK_COLD void isk_finish_cold(isk_hdr *h)
{
    h->ops->boundary(h);
    h->trap = 1;
}
ISK_INLINE void isk_finish_cycle(isk_hdr *h)
{
    if (ISK_UNLIKELY(h->trap)) isk_finish_cold(h);
    else h->trap = 1;
}

/* Functional resources: an enum of powers of two. Operations running in the same clock, in
 * all active slots of an accelerator, must use pairwise disjoint resources. */
#define UseResources(...) isk_use_resources(&S->isk, (uint64_t)(0 __VA_OPT__(|) __VA_ARGS__))
ISK_INLINE void isk_use_resources(isk_hdr *h, uint64_t mask)
{
    if (ISK_UNLIKELY(h->trap)) h->ops->boundary(h);
    if (mask) h->ops->use_resources(h, mask);
}

/* Raise the interrupt line of the processor that drives this accelerator (seen next clock). */
#define InterruptProcessor() isk_interrupt(&S->isk, 0)
#define InterruptLine(line) isk_interrupt(&S->isk, (line))
/* In the first clock of a command declared .interrupts_at_end: its interrupt rises in its
 * `clocks`-th clock, this one the first (docs/model-api.md "Inert commands"). */
#define PromiseEnd(clocks) isk_promise_end(&S->isk, (clocks))
ISK_INLINE void isk_promise_end(isk_hdr *h, int64_t clocks)
{
    if (ISK_UNLIKELY(h->trap)) h->ops->boundary(h);
    h->ops->promise_end(h, clocks < 1 ? 0 : (uint64_t)clocks);   /* 0: reported */
}
ISK_INLINE void isk_interrupt(isk_hdr *h, int line)
{
    if (ISK_UNLIKELY(h->trap)) h->ops->boundary(h);
    h->ops->interrupt(h, line);
}

/* Stop the simulation with a fault report (clock, context or slot, PC and this message). */
#define FAULT(code, ...) isk_fault(&S->isk, (code), __VA_ARGS__)
__attribute__((format(printf, 3, 4))) ISK_NORETURN
static inline void isk_fault(isk_hdr *h, int code, const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    h->ops->fault(h, code, message);
}

/* ---- processor models ---------------------------------------------------------------------
 * PC is the address (in the model's PC units) of the instruction being executed; the engine
 * continues at NEXT_PC, which is PC + 1 unless the behaviour JUMPs. */
#define PC (S->isk.pc)
#define NEXT_PC (S->isk.next_pc)
#define JUMP(target) (S->isk.next_pc = (uint64_t)(target))
#define CLOCK (S->isk.clock)
#define CONTEXT (S->isk.context)
#define NCONTEXTS (S->isk.ncontexts)
/* Another context's state (its PC, state, counts). The issuing context's own PC is PC: while a
 * CPI processor issues back to back its context's pc field is not kept per instruction. */
#define CONTEXT_OF(id) (S->isk.contexts[(id)])
/* Contexts change state only through the macros below: they also set isk_hdr.attention, which
 * the engine's fast issue loops test after each instruction.
 * Block the issuing context for n clocks (e.g. a DMA); it issues again at clock + n. A context
 * the same behaviour already stopped or exited (an exception before the cost) stays so. */
#define BLOCK_FOR(n) isk_block_for(&S->isk, (uint64_t)(n))
ISK_INLINE void isk_block_for(isk_hdr *h, uint64_t n)
{
    isk_context *c = &h->contexts[h->context];
    if (c->state != ISK_CTX_RUNNING && c->state != ISK_CTX_BLOCKED) return;
    c->state = ISK_CTX_BLOCKED;
    c->ready_at = h->clock + n;
    h->attention = 1;
}
#define STOP_CONTEXT(id) isk_set_context_state(&S->isk, (id), ISK_CTX_STOPPED)
#define SLEEP_CONTEXT(id) isk_set_context_state(&S->isk, (id), ISK_CTX_SLEEPING)
ISK_INLINE void isk_set_context_state(isk_hdr *h, uint32_t id, uint32_t state)
{
    h->contexts[id].state = state;
    h->attention = 1;
}
#define START_CONTEXT(id, at) isk_start_context(&S->isk, (id), (uint64_t)(at))
#define WAKE_CONTEXT(id) isk_wake_context(&S->isk, (id))
ISK_INLINE void isk_start_context(isk_hdr *h, uint32_t id, uint64_t pc)
{
    isk_context *c = &h->contexts[id];
    c->pc = pc;
    c->state = ISK_CTX_RUNNING;
    if (c->ready_at < h->clock + 1) c->ready_at = h->clock + 1;
    h->attention = 1;
}
ISK_INLINE void isk_wake_context(isk_hdr *h, uint32_t id)
{
    isk_context *c = &h->contexts[id];
    if (c->state == ISK_CTX_SLEEPING || c->state == ISK_CTX_STOPPED) {
        c->state = ISK_CTX_RUNNING;
        if (c->ready_at < h->clock + 1) c->ready_at = h->clock + 1;
    }
    h->attention = 1;
}
/* The issuing context stops; a later WAKE_CONTEXT continues at `resume_pc`. */
#define STOP_SELF(resume_pc) isk_stop_self(&S->isk, (uint64_t)(resume_pc))
ISK_INLINE void isk_stop_self(isk_hdr *h, uint64_t resume_pc)
{
    isk_context *c = &h->contexts[h->context];
    c->state = ISK_CTX_STOPPED;
    c->pc = resume_pc;
    h->next_pc = resume_pc;
    h->attention = 1;
}
/* The instruction set context `id` decodes with from its next instruction (INSTRUCTION .iset). */
#define SET_ISET(id, n) isk_set_iset(&S->isk, (id), (uint32_t)(n))
ISK_INLINE void isk_set_iset(isk_hdr *h, uint32_t id, uint32_t n)
{
    h->contexts[id].iset = n;
    h->attention = 1;
}
/* Interrupt lines (isk_route_interrupt routes an accelerator's line to a processor's input):
 * PENDING_LINES is the mask of raised lines not yet acknowledged, ACK_LINE(n) acknowledges one.
 * A SLEEPING context whose WAKE_ON_LINES mask (default: all) holds a raised line runs again
 * from the next clock. */
#define PENDING_LINES (S->isk.lines)
#define ACK_LINE(n) (S->isk.lines &= ~(UINT32_C(1) << (n)))
#define WAKE_ON_LINES(id, mask) (S->isk.contexts[(id)].wake_lines = (uint32_t)(mask))
/* Instructions this processor issued before the current one, all contexts (exact at any time). */
#define INSTRUCTIONS_ISSUED isk_issued(&S->isk)
/* Choose the issue policy, e.g. from a parameter in ON_RESET: SCHEDULE(ISK_ISSUE_REVOLVER, 11),
 * or a model's own scheduler: SCHEDULE_OWN(&my_scheduler). */
#define SCHEDULE(issue, gap) S->isk.ops->schedule(&S->isk, (issue), (uint64_t)(gap), NULL)
#define SCHEDULE_OWN(scheduler) S->isk.ops->schedule(&S->isk, ISK_ISSUE_MODEL, 0, (scheduler))
/* Architectural exceptions, handled by the model (ON_EXCEPTION) while the rest of the system
 * runs on: RAISE(cause, "...") calls the handler for the issuing context, which may vector
 * (JUMP and set a cause register) or EXIT_CONTEXT. RAISE returns: the behaviour should then
 * return. Without a handler an exception is a fault. Causes below ISK_EXC_MODEL are the
 * engine's (enum isk_exception_cause). */
#define RAISE(cause, ...) isk_raise(&S->isk, (cause), __VA_ARGS__)
__attribute__((format(printf, 3, 4)))
static inline void isk_raise(isk_hdr *h, int cause, const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    h->ops->exception(h, cause, message);
}
/* Stop only context `id`, with an exit status (its state becomes ISK_CTX_EXITED); reported as
 * a warning naming the context, its PC and the clock. */
#define EXIT_CONTEXT(id, status, message) S->isk.ops->exit_context(&S->isk, (id), (status), (message))
/* A breakpoint instruction (bkp): the run stops after this instruction and resumes from there
 * when isk_run is called again (ISK_BREAK, not a fault). */
#define BREAKPOINT(message) S->isk.ops->breakpoint(&S->isk, (message))
/* Hand an instruction word to accelerator number n; its command starts in this clock. */
#define LAUNCH(n, word) S->isk.ops->launch(&S->isk, (n), (uint64_t)(word))
/* I/O ports, connected by the system (see isekit/sim.h: isk_set_ports). */
#define OUTPUT(port, value) S->isk.ops->port_write(&S->isk, (uint64_t)(port), (uint64_t)(value))
#define INPUT(port) S->isk.ops->port_read(&S->isk, (uint64_t)(port))
/* The system's bus (isk_map_storage, a system file's `map ADDR = INSTANCE.STORAGE`): a
 * little-endian access of `bytes` (1..8) at byte address `addr` reaches the storage of another
 * instance mapped there, e.g. an accelerator's shared memory. Each returns non-zero if every
 * byte is mapped; otherwise nothing is accessed and the model raises its own access fault:
 *     uint64_t v; if (!BUS_READ(addr, 4, &v)) { RAISE(LOAD_FAULT, "..."); return; }
 * A write takes effect at once, as the host's isk_write does (docs/semantics.md). */
#define BUS_READ(addr, bytes, out) S->isk.ops->bus_read(&S->isk, (uint64_t)(addr), (bytes), (out))
#define BUS_WRITE(addr, bytes, value) S->isk.ops->bus_write(&S->isk, (uint64_t)(addr), (bytes), (uint64_t)(value))
/* A model parameter of this instance, as declared in the description (PARAM_INT, ...). Its
 * value was checked when it was set, so a model reads it without parsing:
 * GET_PARAM("key") is an integer parameter's value, an enumeration's index of the word (0 for
 * the first), a boolean's 0 or 1; PARAM_VALUE("key") the text of any parameter. Reading a
 * parameter the model does not declare (or GET_PARAM of a text) is an error of the run that
 * gives 0 (NULL). Read them in the ON_RESET function: a lookup by name is not free. */
#define GET_PARAM(key) S->isk.ops->param_number(&S->isk, (key))
#define PARAM_VALUE(key) S->isk.ops->param(&S->isk, (key))
/* A transfer between memories (a DMA), for the run's event subscribers: `what` names it
 * ("ldma"), `from` and `to` are addresses in the model's own terms, `bytes` its size. */
#define DMA_EVENT(what, from, to, bytes) \
    S->isk.ops->dma(&S->isk, (what), (uint64_t)(from), (uint64_t)(to), (uint64_t)(bytes))
/* A line in the --trace output (a NOTE event), attributed to this clock and context/slot. */
#define TRACE(...) isk_tracef(&S->isk, __VA_ARGS__)
__attribute__((format(printf, 2, 3)))
static inline void isk_tracef(isk_hdr *h, const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    h->ops->trace(h, message);
}

/* ---- values: N-bit integers and fixed point ---------------------------------------------- */
#define SEXT(v, w) isk_wrap((int64_t)(v), (w), 1)            /* low w bits, sign-extended */
#define ZEXT(v, w) isk_wrap((int64_t)(v), (w), 0)            /* low w bits, zero-extended */
#define BITS(v, hi, lo) ((int64_t)(((uint64_t)(v) >> (lo)) & (((hi) - (lo) >= 63) ? ~UINT64_C(0) : ((UINT64_C(1) << ((hi) - (lo) + 1)) - 1))))
#define BIT(v, n) ((int)(((uint64_t)(v) >> (n)) & 1))
/* Fixed point with f fraction bits: product and quotient keep f fraction bits (truncating). */
#define FX_MUL(a, b, f) ((int64_t)(((__int128)(a) * (__int128)(b)) >> (f)))
#define FX_DIV(a, b, f) ((int64_t)((((__int128)(a)) * ((__int128)1 << (f))) / (b)))
#define FX_FROM_DOUBLE(x, f) ((int64_t)((x) * (double)(INT64_C(1) << (f))))
#define FX_TO_DOUBLE(v, f) ((double)(v) / (double)(INT64_C(1) << (f)))

/* =========================================================================================
 * 3. Behaviours
 * =========================================================================================
 * ACC_FUNCTION(Name, a, b) { ... } defines the behaviour of a command (accelerator) or an
 * instruction (processor). Its parameters receive the decoded operand fields of the format, in
 * the order the fields first appear in the format string, left to right (a parameter named like
 * a field must be at that field's position). Parameters are int64_t; a field's signedness and
 * scale come from the format. BEHAVIOUR is the same macro under a name that reads better in
 * processor models. */

#define ISK_PARAMS(...) ISK_CAT(ISK_PARAMS_, ISK_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define ISK_PARAMS_0()
#define ISK_PARAMS_1(a) , int64_t a
#define ISK_PARAMS_2(a, b) , int64_t a, int64_t b
#define ISK_PARAMS_3(a, b, c) , int64_t a, int64_t b, int64_t c
#define ISK_PARAMS_4(a, b, c, d) , int64_t a, int64_t b, int64_t c, int64_t d
#define ISK_PARAMS_5(a, b, c, d, e) , int64_t a, int64_t b, int64_t c, int64_t d, int64_t e
#define ISK_PARAMS_6(a, b, c, d, e, f) , int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f
#define ISK_ARGS(...) ISK_CAT(ISK_ARGS_, ISK_NARGS(__VA_ARGS__))
#define ISK_ARGS_0
#define ISK_ARGS_1 , op[0]
#define ISK_ARGS_2 , op[0], op[1]
#define ISK_ARGS_3 , op[0], op[1], op[2]
#define ISK_ARGS_4 , op[0], op[1], op[2], op[3]
#define ISK_ARGS_5 , op[0], op[1], op[2], op[3], op[4]
#define ISK_ARGS_6 , op[0], op[1], op[2], op[3], op[4], op[5]

/* The frame every behaviour of a model shares (ArchC's generic behaviour): a model that defines
 * INSTRUCTION_FRAME as a prefix, say `#define INSTRUCTION_FRAME pb`, before its first behaviour
 * and defines
 *     static inline uint64_t pb_before(struct isk_state *S)    runs before each behaviour
 *     static inline void pb_after(struct isk_state *S, uint64_t before)   and after it, with
 *                                                                 what pb_before returned
 * has them inlined into every behaviour, at no cost to models without a frame (the defaults
 * below, INSTRUCTION_FRAME_before/_after, are empty). */
struct isk_state;
ISK_INLINE uint64_t INSTRUCTION_FRAME_before(struct isk_state *S) { (void)S; return 0; }
ISK_INLINE void INSTRUCTION_FRAME_after(struct isk_state *S, uint64_t before) { (void)S; (void)before; }

/* The behaviour proper, its operands taken from the decoded instruction, inside the frame. */
#define ISK_BEHAVIOUR_RUN(name, ...) \
    ISK_INLINE void name##_isk_run(isk_hdr *h, const int64_t *op) \
    { \
        (void)op; \
        struct isk_state *const isk_s_ = (struct isk_state *)(void *)h; \
        const uint64_t isk_frame_ = ISK_CAT(INSTRUCTION_FRAME, _before)(isk_s_); \
        name##_isk_body(isk_s_ ISK_ARGS(__VA_ARGS__)); \
        ISK_CAT(INSTRUCTION_FRAME, _after)(isk_s_, isk_frame_); \
    }
#define ISK_BEHAVIOUR_INFO(name, ...) \
    static const isk_behaviour_info name##_isk_info = { #name, #__VA_ARGS__, ISK_NARGS(__VA_ARGS__), name };
/* A command tests h->trap at nearly every GET and SET. Tested once at its entry, it sends a
 * trapped run (the only trap a command can start with is a read watch) to a copy out of line,
 * and the compiler drops the tests that follow until something may set the trap (a call, a
 * FinishCycle()): a one-clock command then makes no call that returns into it. */
#define ACC_FUNCTION(name, ...) \
    static void name##_isk_body(struct isk_state *S ISK_PARAMS(__VA_ARGS__)); \
    ISK_BEHAVIOUR_RUN(name, __VA_ARGS__) \
    ISK_COLD void name##_isk_trapped(isk_hdr *h, const int64_t *op) { name##_isk_run(h, op); } \
    static void name(isk_hdr *h, const int64_t *op) \
    { \
        if (ISK_UNLIKELY(h->trap)) name##_isk_trapped(h, op); \
        else name##_isk_run(h, op); \
    } \
    ISK_BEHAVIOUR_INFO(name, __VA_ARGS__) \
    ISK_INLINE void name##_isk_body(struct isk_state *S ISK_PARAMS(__VA_ARGS__))
/* A processor's instruction: many touch no storage through GET and SET, and would only pay the
 * entry's test. The body is inlined wherever it runs: into the behaviour, and into a model's own
 * loop that runs it (name##_isk_run; PROCESSOR .burst, .round). */
#define BEHAVIOUR(name, ...) \
    ISK_INLINE void name##_isk_body(struct isk_state *S ISK_PARAMS(__VA_ARGS__)); \
    ISK_BEHAVIOUR_RUN(name, __VA_ARGS__) \
    static void name(isk_hdr *h, const int64_t *op) { name##_isk_run(h, op); } \
    ISK_BEHAVIOUR_INFO(name, __VA_ARGS__) \
    ISK_INLINE void name##_isk_body(struct isk_state *S ISK_PARAMS(__VA_ARGS__))

/* =========================================================================================
 * 4. The description
 * =========================================================================================
 * MODEL_BEGIN(name, "title") ... MODEL_END is the body of a function the engine calls once
 * when it loads the model. Each line declares one thing; the order is free but a model reads
 * best in datasheet order: parameters, storage names, resources, operand kinds, instructions. */


#ifdef ISK_BUILTIN_MODEL
#define ISK_ENTRY_NAME(name) isk_model_##name
#else
#define ISK_ENTRY_NAME(name) isk_model_entry
#endif
/* A built-in model compiled with ISK_REGISTER_BUILTIN (a model folder's description, see
 * docs/layers.md) also puts a pointer to its entry in the section the engine lists built-in
 * models from: linking the object is all it takes to add the model. */
#if defined(ISK_BUILTIN_MODEL) && defined(ISK_REGISTER_BUILTIN)
#define ISK_REGISTER_ENTRY(name) \
    __attribute__((used, section("isk_builtin_models"))) \
    static const struct isk_model_entry *const isk_register_##name = &isk_model_##name;
#else
#define ISK_REGISTER_ENTRY(name)
#endif

#define MODEL_BEGIN(name, title) \
    static void isk_describe_##name(isk_builder *B); \
    __attribute__((visibility("default"))) \
    const struct isk_model_entry ISK_ENTRY_NAME(name) = \
        { ISK_ABI_VERSION, #name, sizeof(struct isk_state), isk_describe_##name, __FILE__, isk_state_file, \
          isk_state_line, isk_state_last - isk_state_first - 1 }; \
    ISK_REGISTER_ENTRY(name) \
    static void isk_describe_##name(isk_builder *B) { B->ops->model(B, #name, (title));
#define MODEL_END }

/* Every declaration below first tells the engine its line, for the messages about it. */
#define ISK_AT B->ops->line(B, __LINE__)

/* The machine word of the instruction formats (the article's "word width"), 8..64 bits. */
#define WORD_BITS(n) (ISK_AT, B->ops->word_bits(B, (n)))
/* Accelerators: the number of control slots N_s (commands executing at once). */
#define SLOTS(n) (ISK_AT, B->ops->slots(B, (n)))
/* Parameters, overridable per instance with isk_set_param / --param NAME=VALUE:
 *   PARAM_INT("latency_vmul", 9, 1, 1000, "VMUL pipeline latency, clocks")   an integer in 1..1000
 *   PARAM_INT("memory_words", 1024, 1, 65536, "words per memory", .pow2 = 1)  also a power of two
 *   PARAM_INT("vector", 0x3FF, 0, 0xFFF, "interrupt vector", .hex = 1)  shown in hexadecimal
 *   PARAM_ENUM("mode", "functional", "functional cycle", "how instructions issue")
 *   PARAM_BOOL("trace_dma", 0, "print each DMA")
 *   PARAM_TEXT("firmware", "", "a file name")
 * The default is checked like any value. PARAM("key", "value") is PARAM_TEXT without help. */
#define ISK_PARAM_DECL(...) (ISK_AT, B->ops->param(B, &(isk_param_decl){ __VA_ARGS__ }))
#define PARAM_INT(pname, pdef, pmin, pmax, phelp, ...) ISK_PARAM_DECL(.name = (pname), \
    .type = ISK_PARAM_INT, .value = (pdef), .min = (pmin), .max = (pmax), .help = (phelp), __VA_ARGS__)
#define PARAM_ENUM(pname, pdef, pwords, phelp) ISK_PARAM_DECL(.name = (pname), .type = ISK_PARAM_ENUM, \
    .text = (pdef), .words = (pwords), .help = (phelp))
#define PARAM_BOOL(pname, pdef, phelp) ISK_PARAM_DECL(.name = (pname), .type = ISK_PARAM_BOOL, \
    .value = (pdef), .help = (phelp))
#define PARAM_TEXT(pname, pdef, phelp) ISK_PARAM_DECL(.name = (pname), .type = ISK_PARAM_TEXT, \
    .text = (pdef), .help = (phelp))
#define PARAM(pname, pdef) PARAM_TEXT(pname, pdef, NULL)
/* A function run on each new instance after its storage exists (reset values, parameters). */
#define ON_RESET(fn) (ISK_AT, B->ops->init(B, (fn)))
/* Processors: the handler of architectural exceptions, void fn(isk_hdr *h, int cause, const
 * char *message), run for the issuing context (see RAISE). */
#define ON_EXCEPTION(fn) (ISK_AT, B->ops->exception_handler(B, (fn)))

#define ISK_STORAGE_DECL(X, ttl, shr) (&(isk_storage_decl){ .name = #X, .title = (ttl), \
    .kind = ISK_KIND_OF(struct isk_state, X), .sign = ISK_SIGN_OF(struct isk_state, X), \
    .width = ISK_WIDTH_OF(struct isk_state, X), .latency = ISK_LAT_OF(struct isk_state, X), \
    .frac = ISK_FRAC_OF(struct isk_state, X), .cell_bytes = ISK_CELL_BYTES_OF(struct isk_state, X), \
    .count = ISK_COUNT_OF(struct isk_state, X), .offset = offsetof(struct isk_state, X), .shared = (shr) == 1, \
    .private_storage = (shr) == 2, \
    .seq = ISK_SEQ_OF(struct isk_state, X) - isk_state_first, .line = ISK_LINE_OF(struct isk_state, X), \
    .display = ISK_DISPLAY_OF(struct isk_state, X) })

/* Debugger names: MEMORY(LDM, "Acc LDM"); REG(ACR, "Accumulator");
 * REGFILE_BEGIN(GRF, "General Registers") REGISTER(0, "GR0"); ... REGFILE_END()
 * SHARED_MEMORY(SHM, "Shared") marks a memory shared with the processor and the other
 * accelerators of a system (bound by name when the system is built). */
#define MEMORY(X, title) (ISK_AT, B->ops->storage(B, ISK_STORAGE_DECL(X, title, 0)))
#define SHARED_MEMORY(X, title) (ISK_AT, B->ops->storage(B, ISK_STORAGE_DECL(X, title, 1)))
#define REG(X, title) (ISK_AT, B->ops->storage(B, ISK_STORAGE_DECL(X, title, 0)))
#define REGFILE_BEGIN(X, title) ISK_AT; B->ops->storage(B, ISK_STORAGE_DECL(X, title, 0));
/* PRIVATE_MEMORY, PRIVATE_REG, PRIVATE_REGFILE_BEGIN: as above, and no processor reads or writes
 * the storage raw: it is never shared, and isk_map_storage refuses to map it. A processor may run
 * ahead of an accelerator's inert commands only while all its storages are private in the
 * system (INSTRUCTION .inert; docs/model-api.md "Inert commands"). */
#define PRIVATE_MEMORY(X, title) (ISK_AT, B->ops->storage(B, ISK_STORAGE_DECL(X, title, 2)))
#define PRIVATE_REG(X, title) (ISK_AT, B->ops->storage(B, ISK_STORAGE_DECL(X, title, 2)))
#define PRIVATE_REGFILE_BEGIN(X, title) ISK_AT; B->ops->storage(B, ISK_STORAGE_DECL(X, title, 2));
#define REGISTER(index, name) (ISK_AT, B->ops->element(B, (index), (name)))
/* REGISTERS("LR%u"): name every register of the file by its index (one %d, %u, %x or %X,
 * optionally with a width like %02u). */
#define REGISTERS(pattern) (ISK_AT, B->ops->elements(B, (pattern)))
#define REGFILE_END() ISK_AT; B->ops->end_group(B);

/* RESOURCE(MAC_ADDER, "MAC adder"): a name for a resource bit in reports. */
#define RESOURCE(mask, name) (ISK_AT, B->ops->resource(B, (uint64_t)(mask), (name)))

/* Operand kinds. */
#define KIND(...) (ISK_AT, B->ops->kind(B, &(isk_kind_decl){ __VA_ARGS__ }))
#define KIND_NAMES(kname, table, ...) KIND(.name = (kname), .type = ISK_KIND_NAMES, .names = (table), __VA_ARGS__)
#define KIND_INT(kname, ...) KIND(.name = (kname), .type = ISK_KIND_INT, __VA_ARGS__)
#define KIND_PCREL(kname, ...) KIND(.name = (kname), .type = ISK_KIND_PCREL, __VA_ARGS__)
#define KIND_ABS(kname, ...) KIND(.name = (kname), .type = ISK_KIND_ABS, __VA_ARGS__)

/* INSTRUCTION(format, Behaviour[, "syntax"][, .fields = ..., .priority = ..., .inert = 1,
 *             .interrupts_at_end = 1]) */
#define INSTRUCTION(format_string, beh, ...) (ISK_AT, B->ops->instruction(B, &(isk_insn_decl){ \
    .format = (format_string), .behaviour = &beh##_isk_info, __VA_ARGS__ }))

#define PROCESSOR(...) (ISK_AT, B->ops->processor(B, &(isk_processor_decl){ __VA_ARGS__ }))
/* Toolchain: ELF_FORMAT(.machine = 0xf5, .elfclass = 32, ...), REGION(.name = "IRAM", ...),
 * RELOCATION(.type = 1, .name = "R_DPU_32", .bytes = 4) */
#define ELF_FORMAT(...) (ISK_AT, B->ops->elf(B, &(isk_elf_decl){ __VA_ARGS__ }))
#define REGION(...) (ISK_AT, B->ops->region(B, &(isk_region_decl){ __VA_ARGS__ }))
#define RELOCATION(...) (ISK_AT, B->ops->reloc(B, &(isk_reloc_decl){ __VA_ARGS__ }))
/* gdb: GDB_TARGET(.arch = "riscv:rv32", .registers = "X[0..31] pc", .feature = "org.gnu.gdb.riscv.cpu")
 * (isekit debug --gdb PORT, docs/gdb.md). */
#define GDB_TARGET(...) (ISK_AT, B->ops->gdb(B, &(isk_gdb_decl){ __VA_ARGS__ }))

#ifdef __cplusplus
}
#endif
#endif
