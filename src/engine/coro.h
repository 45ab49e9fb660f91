/* Stack switching for the simulation engine.
 *
 * Behaviours may call FinishCycle() anywhere in their C control flow; the engine suspends them by
 * saving their execution (registers + stack) into an isk_coro and resuming another one. The switch
 * is a few instructions of hand-written assembly (coro_x86_64.S, coro_aarch64.S) that save only
 * what the ABI says a call preserves: a few tens of cycles, mostly the mispredicted return. Builds
 * configured with ISK_CORO_UCONTEXT use getcontext/makecontext/swapcontext instead (portable,
 * but swapcontext also saves and restores the signal mask with system calls: 15-20x slower).
 *
 * Under AddressSanitizer every switch is announced with __sanitizer_start_switch_fiber /
 * __sanitizer_finish_switch_fiber, which is why each context records the bounds of its stack.
 * Leave a stack only through these functions: a longjmp to another stack is invisible to ASan.
 *
 * Nothing here has global or thread-local state: independent threads may run their own sets of
 * contexts concurrently. A context must only be resumed on the thread that saved it. */
#ifndef ISK_ENGINE_CORO_H
#define ISK_ENGINE_CORO_H

#include <stddef.h>
#if defined(ISK_CORO_UCONTEXT)
#include <ucontext.h>
#endif

/* A stack for contexts: usable region [lo, lo+size), with an inaccessible guard region (at least
 * one page) right below lo so that an overflow faults instead of corrupting other memory. */
typedef struct isk_stack {
    void *lo;
    size_t size;
    void *map;          /* the whole mapping, guard included (for munmap) */
    size_t map_size;
} isk_stack;

/* Bytes of PROT_NONE memory below each stack. More than one page so that a frame with a few
 * kilobytes of locals cannot step over the guard; it costs address space only. */
#define ISK_STACK_GUARD_SIZE ((size_t)64 * 1024)

/* Map a stack of at least `size` bytes (rounded up to whole pages). Returns 0, or -1 with errno
 * set (EINVAL for size 0, or mmap's error); on failure *s is zeroed. */
int isk_stack_alloc(isk_stack *s, size_t size);

/* Unmap a stack from isk_stack_alloc (nothing may be running on it). A zeroed *s is accepted. */
void isk_stack_free(isk_stack *s);

/* A suspended (or running) execution. */
typedef struct isk_coro {
    void *sp;                   /* saved stack pointer (assembly variant) */
    const void *stack_lo;       /* bounds of the stack this context runs on (for sanitizers) */
    size_t stack_size;
    void *asan_fake_stack;      /* ASan's fake-stack handle while suspended; unused without ASan */
#if defined(ISK_CORO_UCONTEXT)
    ucontext_t uc;
#endif
} isk_coro;

/* Make *self describe the calling thread's own stack (bounds from pthread_getattr_np), so it can
 * be switched away from and back to. Call once per thread before the first switch. */
void isk_coro_init_thread(isk_coro *self);

/* Whether this build announces switches to AddressSanitizer (coro.c's fiber_leave/fiber_arrive). */
#if defined(__SANITIZE_ADDRESS__)
#define ISK_CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISK_CORO_ASAN 1
#endif
#endif

/* Save the current execution into *self and resume *to. Returns when something later switches to
 * *self. The caller guarantees self->stack_lo/stack_size already name the stack it is running on.
 * With the assembly switch and no sanitizer to tell, it is the assembly alone, inlined: the engine
 * switches twice per clock of a multi-clock command, and the call and jump were a tenth of that. */
#if !defined(ISK_CORO_UCONTEXT) && !defined(ISK_CORO_ASAN)
__attribute__((visibility("hidden"))) void isk_coro_swap_(void **save_sp, void *to_sp);
static inline void isk_coro_switch(isk_coro *self, isk_coro *to) { isk_coro_swap_(&self->sp, to->sp); }
#else
void isk_coro_switch(isk_coro *self, isk_coro *to);
#endif

/* Save the current execution into *self and run fn(arg) from the top of stack s (s's previous
 * contents are discarded). Code in fn that later saves itself with isk_coro_switch(x, ...) must set
 * x->stack_lo/stack_size to s's bounds first. fn must never return: it ends by switching away
 * (returning aborts the process with a message). */
void isk_coro_start(isk_coro *self, const isk_stack *s, void (*fn)(void *arg), void *arg);

/* Resume *to and abandon the current execution for ever; its stack may be reused by a later
 * isk_coro_start (under ASan, the abandoned frames' fake stack is released here). */
_Noreturn void isk_coro_jump(isk_coro *to);

#endif
