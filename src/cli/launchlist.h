/* Launch lists: the program of an accelerator that has no processor model of its own.
 *
 * One line per step of an imaginary main processor, each taking at most one clock:
 *
 *     ldi lr1, 5              launch a command (written in the model's syntax): one clock
 *     @12 mac gr0, gr1        launch in clock 12 exactly (the list waits until then)
 *     word 0xc00112           launch a raw instruction word
 *     wait irq                wait for an interrupt from the accelerator (and take it)
 *     wait flag SHM[0] == 1   poll a cell until the comparison holds
 *     wait idle               wait until every slot is free
 *     wait 5                  let 5 clocks pass
 *     write SHM[3] = 7        store into the accelerator's storage: one clock
 *     init DM0[0] = 1, 2, 3   initial contents, applied before clock 0 (no clock)
 *     expect ACR == 18        check a value now (no clock); also "expect clock == 7"
 *
 * Comments start with '#', ';' or "//". Conditions that already hold cost no clock. A wait
 * that does not hold while nothing in the system is active can never end: it is reported as a
 * deadlock with its line. */
#ifndef ISK_CLI_LAUNCHLIST_H
#define ISK_CLI_LAUNCHLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isekit/sim.h"

typedef struct launch_list launch_list;

/* Parse `path` for accelerator `acc`; NULL after reporting every error to diag. The file is
 * read as text (isk_file_read_text: bounded, binary refused); CRLF line ends are accepted. */
launch_list *launch_list_load(const char *path, isk_system *sys, isk_inst *acc, isk_diag *diag);
/* A list that launches these words one per clock (a launch program assembled from a .s). */
launch_list *launch_list_from_words(const char *path, isk_system *sys, isk_inst *acc, const uint64_t *words,
                                    size_t n, isk_diag *diag);
void launch_list_free(launch_list *l);
/* Apply the init lines and install the list as the system's driver. `limit` is the clock the
 * run stops at: a wait past it with nothing active ends the list at once (see
 * launch_list_beyond_limit) instead of idling up to the limit. */
isk_status launch_list_start(launch_list *l, uint64_t limit);
/* Number of failures so far: failed expectations, and waits that can never end (a deadlock:
 * the wait does not hold and nothing in the system is active, isk_describe_activity). */
int launch_list_failures(const launch_list *l);
/* The list stopped at a wait that ends after the clock limit. */
bool launch_list_beyond_limit(const launch_list *l);
/* Where the list is, for a report: "the launch list waits at FILE:LINE for clock N: TEXT". */
bool launch_list_where(const launch_list *l, char *buf, size_t cap);

/* ---- for a debugger: the list is the program of an imaginary main processor ----
 * Steps are numbered from 0 in the order of the list (a launch program: one per word). */

/* Called once per step when the list comes to it, before the step acts (a launch at @CLOCK:
 * in that clock, after the wait): non-zero stops the run before this clock has any effect
 * (ISK_DRIVER_BREAK: the run returns ISK_BREAK); when the run goes on, the step acts without
 * the hook being asked again. NULL (the default) costs one test per step. */
typedef int (*launch_list_hook)(void *user, launch_list *l, size_t step);
void launch_list_set_before_line(launch_list *l, launch_list_hook fn, void *user);
/* A launch program's word `step` came from `file`:`line` (its line table); a label at a step. */
void launch_list_set_source(launch_list *l, size_t step, const char *file, int line);
void launch_list_add_label(launch_list *l, const char *name, size_t step);
size_t launch_list_steps(const launch_list *l);
/* The step the list is at (launch_list_steps once it has finished). */
size_t launch_list_next(const launch_list *l);
/* Where step came from and its text ("mac gr0, gr1"); line 0 if unknown. */
bool launch_list_step_source(const launch_list *l, size_t step, const char **file, int *line, const char **text);
/* The steps that begin line `line` of `file` (NULL: any file; a name matches a path's last
 * components), at most cap of them; how many there are. */
int launch_list_line_steps(const launch_list *l, const char *file, int line, size_t *steps, int cap);
/* The step at a launch program's label. */
bool launch_list_label(const launch_list *l, const char *name, size_t *step);

#endif
