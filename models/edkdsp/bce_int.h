/* The EdkDSP BCE system behind isekit/edkdsp.h: its parts and the state of the glue logic that
 * connects them (the PicoBlaze's port map, the mailbox, the program-time counter). */
#ifndef EDKDSP_BCE_INT_H
#define EDKDSP_BCE_INT_H

#include <stdbool.h>

#include "base/vec.h"
#include "elf/obj.h"
#include "isekit/edkdsp.h"

/* The storages of the DFU the glue reads and writes, looked up once by name. */
typedef struct dfu_refs {
    isk_ref ag_bank, ag_addr, ag_inc, ag_lo, ag_hi, ag_flags;   /* index 0: the register file */
    isk_ref cnt, rep, status, error, dfutime, started, ops, caps, cmem;
    isk_ref mem[4];
} dfu_refs;

typedef struct mailbox {
    bool pb_arrived, host_arrived;
    uint8_t pb_byte, host_byte;
    uint8_t delivered;               /* the PB's byte of the last completed exchange */
    uint64_t exchanges;              /* completed rendezvous */
} mailbox;

/* A slot's words, and for a .psm its labels and lines (psm_program_obj), which edk_start hands
 * to the PicoBlaze with the words (asm/loaded.h: the debugger, the profile). */
typedef struct firmware_slot { uint32_t *words; size_t n; isk_obj *symbols; } firmware_slot;

struct edk_bce {
    isk_diag own_diag, *diag;
    isk_system *sys;
    bool owns_system;                /* edk_open's; a system description's is not (edk_bce_attach) */
    bool waiting;                    /* a host call waits in bce_wait: port events end its steps */
    isk_status (*step)(void *user, uint64_t clocks);   /* edk_set_step; NULL: isk_step */
    void *step_user;
    isk_model *pb_model, *dfu_model;
    isk_inst *pb, *dfu;
    dfu_refs r;
    uint64_t timeout;
    size_t dmem_words;
    firmware_slot slots[EDK_SLOTS];
    /* glue registers */
    unsigned ag_select;              /* OUTPUT 0x00 */
    unsigned cmem_addr, cmem_byte;   /* OUTPUT 0x18, 0x19 */
    unsigned host_status;            /* OUTPUT 0x11: R and B */
    uint64_t prg_base;               /* the clock the program-time counter was cleared */
    uint32_t prg_latch;              /* INPUT 0x03 latches all four bytes */
    mailbox mb;
    VEC(edk_dfu_record) log;
    bool pb_cmem_warning;            /* the PB wrote the host's region (reported once) */
    edk_bce *const *group;           /* edk_bce_group: the BCEs one host drives (not owned) */
    size_t ngroup;
};

/* bce_ports.c: the PicoBlaze's port handlers (isk_set_ports). */
uint64_t bce_port_read(void *user, isk_inst *pb, uint64_t port);
void bce_port_write(void *user, isk_inst *pb, uint64_t port, uint64_t value);
/* The DFU registers back to the seed's Table 1 defaults. */
void bce_reset_dfu_registers(edk_bce *bce);
/* Fill in the DFU time of finished operations in the log. */
void bce_update_log(edk_bce *bce);

/* bce.c: advance the system until cond(bce, arg) holds: EDK_OK, EDK_ERR, EDK_ERR_TIMEOUT. A condition on what the
 * firmware does through its ports is checked when a port handler reports a change (bce_event);
 * a `polled` one (the DFU going idle, which no port shows) after every clock. */
int bce_wait(edk_bce *bce, bool (*cond)(edk_bce *bce, const void *arg), const void *arg, bool polled);
/* A port access changed what a waiting host call may wait for: end the current step there. */
void bce_event(edk_bce *bce);

#endif
