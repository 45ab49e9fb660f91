/* The PicoBlaze models (built-in "kcpsm3" and "kcpsm6") as seen from the system around them:
 * the public header of the folder (its descriptions include it too, for the port numbers).
 *
 * Ports. INPUT and OUTPUT use the engine's ports (isekit/sim.h: isk_set_ports) with the 8-bit
 * port_id as the port number. The core's other output pins are reported through port numbers
 * above 0xFF, so that one port handler sees every strobe in program order:
 *
 *   0x000..0x0FF          OUTPUT sX, pp / (sY): write_strobe with port_id = pp
 *   PB_PORT_OUTPUTK(p)    OUTPUTK kk, p (KCPSM6): k_write_strobe; the decoders see port_id[3:0] = p
 *   PB_PIN_INTERRUPT_ACK  interrupt_ack, asserted in the interrupt response (value 1)
 *
 * The interrupt input is the storage "INTERRUPT" (a level: write 1 to request, 0 to withdraw);
 * a closed-loop request is cleared by the port handler when it sees PB_PIN_INTERRUPT_ACK.
 *
 * Parameters (isk_set_param or --param before the first clock; `isekit info kcpsm6` lists them):
 *   scratchpad_size   64 (KCPSM3: only 64; KCPSM6: 64, 128 or 256)
 *   interrupt_vector  0x3FF (KCPSM6: any program address; KCPSM3: fixed)
 *   hwbuild           0 (KCPSM6: the value HWBUILD loads)
 * and two facts with one allowed value, which host code and tools read rather than guess:
 *   core              3 or 6: KCPSM3 or KCPSM6 (pb_reset below: where the stack pointer starts)
 *   syntax            psm (the .psm front end takes only models that declare it)
 *
 * Timing: 2 clocks per instruction (PROCESSOR .cpi = 2); an interrupt response and a KCPSM6
 * internal reset add 2 clocks each. Clock k of the engine is clock k+1 of the Xilinx manuals'
 * numbering (the first clock of the instruction at 000 is clock 1 there); an OUTPUT issued in
 * engine clock k has its write_strobe in the manuals' clock k+2.
 */
#ifndef ISEKIT_MODELS_PICOBLAZE_H
#define ISEKIT_MODELS_PICOBLAZE_H

#define PB_PORT_OUTPUTK(p) (0x100u | ((unsigned)(p) & 0xFu))
#define PB_PIN_INTERRUPT_ACK 0x200u

/* Is a port number an OUTPUTK port? Its p is then (port & 0xF). */
#define PB_IS_OUTPUTK_PORT(port) (((port) & ~0xFull) == 0x100u)

#ifdef ISEKIT_SIM_H
/* Host code (pb_host.c): the control part of the reset (picoblaze-isa.md section 8): C = Z =
 * IE = 0, bank A, stack pointer 31 (KCPSM3) or 0 (KCPSM6); registers, scratchpad and stack RAM
 * keep their values. Then the core runs from address 000 (or stays stopped there if `run` is 0). */
isk_status pb_reset(isk_inst *pb, int run);
#endif

#endif
