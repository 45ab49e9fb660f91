/* The BCE's glue logic as a port device of system descriptions (docs/systems.md):
 *
 *     [instance pb0]
 *     model = kcpsm3
 *     program = fw.psm
 *     ports = edkdsp_bce dfu0        # pb0's ports reach DFU dfu0 as in a BCE
 *
 * so that a description may hold several BCEs, each a PicoBlaze and a DFU with its own memories. */
#include <stdio.h>

#include "bce_int.h"
#include "cli/ports.h"

static void *open_bce(isk_system *sys, isk_inst *proc, isk_inst *const *args, int nargs, char *why, size_t cap)
{
    if (nargs != 1) {
        snprintf(why, cap, "names one DFU instance, not %d instances", nargs);
        return NULL;
    }
    return edk_bce_attach(sys, proc, args[0], why, cap);
}

static void close_bce(void *user) { edk_close(user); }

SYS_PORT_DEVICE(edkdsp_bce, "edkdsp_bce", "the EdkDSP BCE's glue: a PicoBlaze's ports to a DFU", "DFU", open_bce,
                bce_port_read, bce_port_write, close_bce);
