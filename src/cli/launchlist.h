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
 * Comments start with '#', ';' or "//". Conditions that already hold cost no clock. */
#ifndef ISK_CLI_LAUNCHLIST_H
#define ISK_CLI_LAUNCHLIST_H

#include "isekit/sim.h"

typedef struct launch_list launch_list;

/* Parse `path` for accelerator `acc`; NULL after reporting every error to diag. */
launch_list *launch_list_load(const char *path, isk_system *sys, isk_inst *acc, isk_diag *diag);
void launch_list_free(launch_list *l);
/* Apply the init lines and install the list as the system's driver. */
isk_status launch_list_start(launch_list *l);
/* Number of failed expectations so far. */
int launch_list_failures(const launch_list *l);

#endif
