/* A Value Change Dump writer (IEEE 1364-2005 §18): the declarations, then the values as they
 * change, written as they come (nothing of the dump is kept in memory beyond one value per
 * variable). It knows nothing of the simulator: scopes, variables up to 64 bits, times.
 *
 *     isk_vcd *v = isk_vcd_new(f, "1ns");
 *     isk_vcd_scope(v, "acc0");  int pc = isk_vcd_var(v, "pc", 32, 0);  isk_vcd_upscope(v);
 *     isk_vcd_begin(v);          // $enddefinitions, then $dumpvars with the initial values
 *     isk_vcd_time(v, 5);  isk_vcd_set(v, pc, 0x40);
 *     isk_vcd_finish(v, 9);      // the last time, flushed; false after a write error
 *
 * Values set at one time are coalesced: only the last counts, and a variable set back to the
 * value it had at the previous time writes nothing. */
#ifndef ISK_OBSERVE_VCD_H
#define ISK_OBSERVE_VCD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct isk_vcd isk_vcd;

/* A writer on f (not closed by it), with the timescale text ("1ns"). NULL if out of memory. */
isk_vcd *isk_vcd_new(FILE *f, const char *timescale);
/* Declarations, before isk_vcd_begin: a module scope (the name's blanks and dots become '_': a
 * viewer would take a dot for one more scope), its end, and a wire of `width` bits (1..64) with its initial value; the variable's number. */
void isk_vcd_scope(isk_vcd *v, const char *name);
void isk_vcd_upscope(isk_vcd *v);
int isk_vcd_var(isk_vcd *v, const char *name, int width, uint64_t initial);
/* Mark variable var as unknown ('x') initially, before isk_vcd_begin. */
void isk_vcd_init_x(isk_vcd *v, int var);
void isk_vcd_begin(isk_vcd *v);
/* Move to time t (a time before the current one stays at the current one: a late event). */
void isk_vcd_time(isk_vcd *v, uint64_t t);
uint64_t isk_vcd_now(const isk_vcd *v);
/* The variable's value from the current time on; unknown ('x') with isk_vcd_set_x. */
void isk_vcd_set(isk_vcd *v, int var, uint64_t value);
void isk_vcd_set_x(isk_vcd *v, int var);
/* The variable's value from the next time unit on (a command busy through clock c falls at
 * c + 1), applied before anything set at that time. */
void isk_vcd_set_next(isk_vcd *v, int var, uint64_t value);
void isk_vcd_set_next_x(isk_vcd *v, int var);
/* Write what is pending up to time `end`, then free the writer: false if the file had a write
 * error. */
bool isk_vcd_finish(isk_vcd *v, uint64_t end);
/* Free without writing more (after an error). */
void isk_vcd_free(isk_vcd *v);

/* The identifier code of variable n: printable ASCII '!'..'~' as digits of base 94, shortest
 * first ("!", "\"", ... "~", "!!", ...). Returns out (at least 12 bytes). */
char *isk_vcd_id(uint64_t n, char *out);
/* A value as the dump writes it for a variable of `width` bits, without the identifier:
 * "0"/"1"/"x" for width 1, "b101 " / "bx " for a vector (the value masked to width, leading
 * zeros dropped). Returns out (at least 68 bytes). */
char *isk_vcd_value_text(uint64_t value, bool unknown, int width, char *out);

#endif
