/* Stacks, the ucontext fallback and the sanitizer annotations of the stack switch (coro.h).
 * The assembly variants live in coro_<arch>.S and only move registers; everything that can be
 * written in C is here. */
#include "engine/coro.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(ISK_CORO_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#ifndef MAP_STACK
#define MAP_STACK 0
#endif

/* The ASan protocol: every transfer of control is bracketed by start_switch_fiber (on the old
 * stack, naming the new stack's bounds and saving the old fake stack, or destroying it when the
 * execution is abandoned) and finish_switch_fiber (first thing on the new stack, restoring the
 * fake stack it saved when it was suspended). Without ASan these compile to nothing. */
static inline void fiber_leave(void **fake_stack_save, const void *to_lo, size_t to_size)
{
#if defined(ISK_CORO_ASAN)
    __sanitizer_start_switch_fiber(fake_stack_save, to_lo, to_size);
#else
    (void)fake_stack_save, (void)to_lo, (void)to_size;
#endif
}

static inline void fiber_arrive(void *fake_stack_saved)
{
#if defined(ISK_CORO_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack_saved, NULL, NULL);
#else
    (void)fake_stack_saved;
#endif
}

/* Frames abandoned by isk_coro_jump keep their redzones poisoned; whatever runs on that memory
 * next would be reported as overflowing them. */
static inline void stack_unpoison(const void *lo, size_t size)
{
#if defined(ISK_CORO_ASAN)
    __asan_unpoison_memory_region(lo, size);
#else
    (void)lo, (void)size;
#endif
}

/* ---- stacks ---------------------------------------------------------------------------------- */

static size_t page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

static size_t round_up(size_t n, size_t unit)
{
    return (n + unit - 1) / unit * unit;
}

int isk_stack_alloc(isk_stack *s, size_t size)
{
    memset(s, 0, sizeof *s);
    size_t page = page_size();
    size_t guard = round_up(ISK_STACK_GUARD_SIZE, page);
    if (size == 0 || size > SIZE_MAX / 2 - guard) {
        errno = EINVAL;
        return -1;
    }
    size_t usable = round_up(size, page);
    /* Map everything inaccessible, then open up the part above the guard. */
    void *map = mmap(NULL, guard + usable, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (map == MAP_FAILED)
        return -1;
    char *lo = (char *)map + guard;
    if (mprotect(lo, usable, PROT_READ | PROT_WRITE) != 0) {
        int saved = errno;
        munmap(map, guard + usable);
        errno = saved;
        return -1;
    }
    /* The address range may have held someone's frames before (stale shadow). */
    stack_unpoison(lo, usable);
    s->lo = lo;
    s->size = usable;
    s->map = map;
    s->map_size = guard + usable;
    return 0;
}

void isk_stack_free(isk_stack *s)
{
    if (s->map) {
        /* Leave no poisoned shadow behind for the next mapping at this address. */
        stack_unpoison(s->lo, s->size);
        munmap(s->map, s->map_size);
    }
    memset(s, 0, sizeof *s);
}

/* ---- contexts -------------------------------------------------------------------------------- */

void isk_coro_init_thread(isk_coro *self)
{
    memset(self, 0, sizeof *self);
    /* If the bounds cannot be read they stay 0; only the sanitizer's view of this stack suffers. */
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    void *lo;
    size_t size;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
        self->stack_lo = lo;
        self->stack_size = size;
    }
    pthread_attr_destroy(&attr);
}

/* What the first entry on a new stack needs; kept at the very top of that stack, so it stays valid
 * for as long as the execution it describes and costs no allocation. */
typedef struct start_record {
    void (*fn)(void *arg);
    void *arg;
} start_record;

static start_record *place_start_record(const isk_stack *s, void (*fn)(void *), void *arg)
{
    uintptr_t top = (uintptr_t)s->lo + s->size;
    start_record *rec = (start_record *)((top - sizeof(start_record)) & ~(uintptr_t)15);
    rec->fn = fn;
    rec->arg = arg;
    return rec;
}

/* Reached when a function given to isk_coro_start returns: there is no frame to return to. */
__attribute__((visibility("hidden"))) _Noreturn void isk_coro_fn_returned_(void);
_Noreturn void isk_coro_fn_returned_(void)
{
    static const char msg[] = "isekit: a function started with isk_coro_start returned; "
                              "it must end by switching away\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    abort();
}

#if !defined(ISK_CORO_UCONTEXT)

/* coro_<arch>.S. The saved state lives on the suspended stack itself; *save_sp receives its
 * address. isk_coro_start_on_ switches to stack_top (16-byte aligned) and calls fn(arg) there. */
__attribute__((visibility("hidden"))) void isk_coro_swap_(void **save_sp, void *to_sp);
__attribute__((visibility("hidden"))) void isk_coro_start_on_(void **save_sp, void *stack_top,
                                                              void (*fn)(void *), void *arg);
__attribute__((visibility("hidden"))) _Noreturn void isk_coro_resume_(void *to_sp);

#if defined(ISK_CORO_ASAN)   /* else inline in coro.h */
void isk_coro_switch(isk_coro *self, isk_coro *to)
{
    fiber_leave(&self->asan_fake_stack, to->stack_lo, to->stack_size);
    isk_coro_swap_(&self->sp, to->sp);
    fiber_arrive(self->asan_fake_stack);
}
#endif

/* The first frame on a new stack (called by the assembly trampoline, which catches a return). */
static void first_entry(void *record)
{
    const start_record *rec = record;
    fiber_arrive(NULL); /* completes the switch begun in isk_coro_start; no fake stack yet */
    rec->fn(rec->arg);
}

void isk_coro_start(isk_coro *self, const isk_stack *s, void (*fn)(void *), void *arg)
{
    stack_unpoison(s->lo, s->size);
    start_record *rec = place_start_record(s, fn, arg);
    fiber_leave(&self->asan_fake_stack, s->lo, s->size);
    isk_coro_start_on_(&self->sp, rec, first_entry, rec);
    fiber_arrive(self->asan_fake_stack);
}

_Noreturn void isk_coro_jump(isk_coro *to)
{
    /* NULL: the abandoned execution's fake stack is released, not saved. */
    fiber_leave(NULL, to->stack_lo, to->stack_size);
    isk_coro_resume_(to->sp);
}

#else /* ISK_CORO_UCONTEXT */

/* Under ASan, its swapcontext interceptor prints a one-time "doesn't fully support
 * makecontext/swapcontext" warning; the fiber annotations and unpoisoning here cover what it
 * warns about. */

/* glibc's getcontext/swapcontext do not store uc_stack, so it would keep whatever the struct
 * held; ASan's swapcontext interceptor clears the shadow of the target's uc_stack, so it must be
 * empty for any context that was saved rather than made. */
static void forget_stack(ucontext_t *uc)
{
    uc->uc_stack.ss_sp = NULL;
    uc->uc_stack.ss_size = 0;
    uc->uc_stack.ss_flags = 0;
}

void isk_coro_switch(isk_coro *self, isk_coro *to)
{
    forget_stack(&self->uc);
    fiber_leave(&self->asan_fake_stack, to->stack_lo, to->stack_size);
    swapcontext(&self->uc, &to->uc);
    fiber_arrive(self->asan_fake_stack);
}

/* makecontext passes only int arguments, so the record's address travels as two 32-bit halves. */
static void ucontext_first_entry(int hi, int lo)
{
    uint64_t bits = (uint64_t)(unsigned)hi << 32 | (unsigned)lo;
    const start_record *rec = (const start_record *)(uintptr_t)bits;
    fiber_arrive(NULL);
    rec->fn(rec->arg);
    isk_coro_fn_returned_();
}

void isk_coro_start(isk_coro *self, const isk_stack *s, void (*fn)(void *), void *arg)
{
    stack_unpoison(s->lo, s->size);
    start_record *rec = place_start_record(s, fn, arg);
    /* Only read by swapcontext below; once running, the new execution no longer needs it. */
    ucontext_t fresh;
    getcontext(&fresh);
    fresh.uc_stack.ss_sp = s->lo;
    fresh.uc_stack.ss_size = (size_t)((char *)rec - (char *)s->lo);
    fresh.uc_stack.ss_flags = 0;
    fresh.uc_link = NULL;
    uint64_t bits = (uintptr_t)rec;
    makecontext(&fresh, (void (*)(void))ucontext_first_entry, 2, (int)(unsigned)(bits >> 32),
                (int)(unsigned)(bits & 0xffffffffu));
    forget_stack(&self->uc);
    fiber_leave(&self->asan_fake_stack, s->lo, s->size);
    swapcontext(&self->uc, &fresh);
    fiber_arrive(self->asan_fake_stack);
}

_Noreturn void isk_coro_jump(isk_coro *to)
{
    fiber_leave(NULL, to->stack_lo, to->stack_size);
    setcontext(&to->uc);
    abort(); /* setcontext only returns if the context is invalid */
}

#endif
