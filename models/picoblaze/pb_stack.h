/* The call stack, the interrupt response and the KCPSM6 internal reset (picoblaze-isa.md
 * sections 6-8).
 *
 * The hardware writes the address of the current instruction (KCPSM6: with C, Z and the bank)
 * into ram[sp] in the first clock of EVERY instruction; a push then increments sp, a pop
 * decrements it and reads ram[sp]. Only the last such write before sp moves can ever be read
 * back, so the model performs it only when sp moves: the result is identical, including the
 * KCPSM3 wrap-around (the 32nd nested CALL's slot holds the last instruction executed there)
 * and stale-data underflows, at no cost for the other instructions.
 */
#ifndef PB_STACK_H
#define PB_STACK_H

#include "pb_state.h"

/* A stack entry for return address `pc`, with the flags and bank of the moment on KCPSM6. */
static inline unsigned pb_stack_entry(const uint8_t *control, uint64_t pc)
{
    unsigned e = (unsigned)pc & 0xFFFu;
    if (!PB_SHADOW_FLAGS)
        e |= (unsigned)control[PB_C] << 12 | (unsigned)control[PB_Z] << 13 | (unsigned)control[PB_BANK] << 14;
    return e;
}

/* sp has moved: on KCPSM6, reaching 31 (31 pushes deep, or a pop from empty) resets the core
 * after the next instruction. */
static inline void pb_sp_moved(uint8_t *control, unsigned sp)
{
    control[PB_SP] = (uint8_t)sp;
    if (PB_STACK_RESETS && sp == 31) control[PB_RESET_PENDING] = 2;
}

/* Push: ram[sp] = entry, sp + 1. CALL pushes its own address, the interrupt response the
 * address of the instruction it abandons. pb_push_at takes the cells from its caller (the fast
 * loop, pb_run.h, which keeps them in registers). */
static inline void pb_push_at(uint8_t *control, uint16_t *stack, unsigned sp, uint64_t pc)
{
    stack[sp] = (uint16_t)pb_stack_entry(control, pc);
    pb_sp_moved(control, (sp + 1) & 31u);
}

static inline void pb_push(STATE, uint64_t pc)
{
    uint8_t *const control = CELLS(CONTROL);
    pb_push_at(control, CELLS(STACK), control[PB_SP], pc);
}

/* Pop: ram[sp] = this instruction's entry (`pc`), sp - 1, return ram[sp] (read first: the entry
 * written is at the other index). */
static inline unsigned pb_pop_at(uint8_t *control, uint16_t *stack, unsigned sp, uint64_t pc)
{
    unsigned below = (sp - 1) & 31u;
    unsigned popped = stack[below];
    stack[sp] = (uint16_t)pb_stack_entry(control, pc);
    pb_sp_moved(control, below);
    return popped;
}

static inline unsigned pb_pop(STATE)
{
    uint8_t *const control = CELLS(CONTROL);
    return pb_pop_at(control, CELLS(STACK), control[PB_SP], PC);
}

/* Response slot (section 7): two clocks replace the next instruction, which is abandoned. */
static void pb_interrupt_response(STATE)
{
    uint8_t *const control = CELLS(CONTROL);
    uint64_t abandoned = NEXT_PC;
    if (PB_SHADOW_FLAGS) control[PB_SHADOW] = (uint8_t)(control[PB_C] | control[PB_Z] << 1);
    pb_push(S, abandoned);
    /* An overflow by the response resets after the vector's instruction, the "next" one here. */
    if (control[PB_RESET_PENDING] == 2) control[PB_RESET_PENDING] = 1;
    /* KCPSM6 quirk: the bank flip-flop is not gated, so an abandoned REGBANK still switches the
     * bank (after the old bank was saved for RETURNI). */
    if (PB_BANKS > 1) {
        uint32_t w = CELLS(IROM)[abandoned];
        if ((w & 0x3FFFEu) == 0x37000u) control[PB_BANK] = (uint8_t)(w & 1u);
    }
    control[PB_IE] = 0;
    CELLS(INTERRUPTS)[0]++;
    OUTPUT(PB_PIN_INTERRUPT_ACK, 1);
    JUMP(S->vector);
    BLOCK_FOR(4);                  /* this instruction's 2 clocks and the response's 2 */
}

/* Internal reset (KCPSM6, section 6): after the instruction that followed the overflow, 2 idle
 * clocks, then 000 with the control state of a reset; registers and scratchpad survive. */
static void pb_internal_reset(STATE)
{
    uint8_t *const control = CELLS(CONTROL);
    unsigned sp = control[PB_SP];
    CELLS(STACK)[sp] = (uint16_t)pb_stack_entry(control, PC);   /* this instruction's write at sp */
    control[PB_SP] = 0;
    control[PB_C] = 0;
    control[PB_Z] = 0;
    control[PB_IE] = 0;
    control[PB_BANK] = 0;
    CELLS(RESETS)[0]++;
    JUMP(0);
    BLOCK_FOR(4);
}

static void pb_after_instruction(STATE, unsigned irq_sampled)
{
    uint8_t *const control = CELLS(CONTROL);
    NEXT_PC &= PB_PC_MASK;         /* a step past the last address wraps to 000 */
    if (S->fetched) {              /* a watched FETCH (pb_fetch), reported before an interrupt */
        NOTE_READ(SPM, S->fetched - 1, 1);
        S->fetched = 0;
    }
    unsigned pending = control[PB_RESET_PENDING];
    if (pending) {
        control[PB_RESET_PENDING] = (uint8_t)(pending - 1);
        if (pending == 1) {
            pb_internal_reset(S);
            return;
        }
    }
    if (irq_sampled & control[PB_IE]) pb_interrupt_response(S);
}

#endif
