/* The EdkDSP basic computing element (BCE) as a simulated system, and its host API.
 *
 * A BCE is a PicoBlaze (KCPSM3 by default, as the UTIA "pb3a" builds; KCPSM6 on request) running
 * firmware written against pbbcelib, a data flow unit (DFU, the built-in model "edkdsp_dfu")
 * with four data memories A-D, and a control/status memory (CMEM, 256 x 32 bits) shared with the
 * host. The host program uses the functions below, in the spirit of UTIA's WAL library:
 *
 *     edk_bce *bce = edk_open(NULL);                      // KCPSM3, default DFU parameters
 *     edk_set_firmware(bce, EDK_SLOT_P0, fw, FW_WORDS);   // from `isekit psm fw.psm -o fw.h`
 *     edk_start(bce, EDK_SLOT_P0);                        // reset, run, wait for "running"
 *     edk_write_dmem_f32(bce, EDK_MEM_A, 0x100, x, 16);   // data in
 *     edk_mb2pb(bce, 0x10);                               // send the firmware a byte (rendezvous)
 *     uint32_t rc; edk_pb2mb(bce, &rc);                   // receive its reply (rendezvous)
 *     edk_read_dmem_f32(bce, EDK_MEM_B, 0x08, y, 16);     // results out
 *     edk_close(bce);
 *
 * Time. Host, PicoBlaze and DFU share one clock. The host is a program that calls this API
 * between clocks and takes no simulated time itself; every call that waits (a rendezvous,
 * edk_start, edk_wait_dfu, edk_run) advances the whole system with isk_step until its condition
 * holds and returns at that very clock, so the number of clocks a run takes does not depend on
 * the host machine.
 * Calls that only read or write memories take no time, like a DMA finished between two clocks.
 * A wait gives up after the timeout (edk_config.timeout_clocks) with EDK_ERR_TIMEOUT.
 *
 * The firmware side (pbbcelib, models/edkdsp/pbbcelib/pbbcelib.psm) reaches the DFU, the
 * mailbox, the counters and CMEM through the PicoBlaze's ports; the port map and the DFU are
 * described in docs/edkdsp.md.
 */
#ifndef ISEKIT_EDKDSP_H
#define ISEKIT_EDKDSP_H

#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"
#include "isekit/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Results, after WAL's (WAL_RES_*). */
enum edk_result {
    EDK_OK = 0,
    EDK_ERR_NULL,            /* a NULL argument */
    EDK_ERR,                 /* generic error: the simulation stopped (see edk_last_error) */
    EDK_ERR_NOINIT,          /* no firmware in that slot / the firmware is not running */
    EDK_ERR_RUNNING,         /* the firmware is running (e.g. a rendezvous is still open) */
    EDK_ERR_RANGE,           /* an index, address or size out of range */
    EDK_ERR_TIMEOUT,         /* a wait exceeded edk_config.timeout_clocks */
    EDK_ERR_FIRMWARE         /* the firmware answered with a non-zero return code */
};

/* Firmware slots, data memories, CMEM regions. */
enum { EDK_SLOT_P0, EDK_SLOT_P1, EDK_SLOTS = 8 };
enum { EDK_MEM_A, EDK_MEM_B, EDK_MEM_C, EDK_MEM_D };
#define EDK_CMEM_WORDS 256u
#define EDK_CMEM_OUTPUT 0x80u          /* 0x00-0x7F: host -> PB; 0x80-0xFF: PB -> host */
#define EDK_CMEM_BCE_ID 0x80u          /* write_bce_id_to_cmem() */
#define EDK_CMEM_CAPS 0x81u            /* write_dfu_caps_to_cmem(): 8 words */

/* Command bytes WAL reserves (values proposed by the reference pack; user ops start at 0x10). */
#define WAL_OP_EXIT 0x00
#define WAL_OP_GETCAP 0x01
#define WAL_OP_GETID 0x02

/* DFU operation codes (pbbcelib: DFU_VCOPY ...). */
enum edk_dfu_op { EDK_VCOPY, EDK_VADD, EDK_VMUL, EDK_VMAC, EDK_DPROD, EDK_VSUB, EDK_VMSUBAC, EDK_DFU_OPS };

/* Status bits the firmware reports (pb2mb_report_running: R and B). */
#define EDK_STATUS_RUNNING 1u
#define EDK_STATUS_BUSY 2u

typedef struct edk_config {
    const char *core;                /* "kcpsm3" (default) or "kcpsm6", or a PicoBlaze model file */
    /* DFU and PicoBlaze parameters, "name=value" ("memory_words=1024", "latency_vmul=9",
     * "pb.scratchpad_size=128" for the PicoBlaze); NULL-terminated, may be NULL. */
    const char *const *params;
    uint64_t timeout_clocks;         /* per waiting call; 0 = 10 000 000 */
    isk_diag *diag;                  /* where errors go; NULL = stderr */
    /* The engine's options for the BCE's system (watchdog, crashes in model code, behaviour
     * stacks); NULL = the defaults. diag above takes precedence over theirs. A trace subscribes
     * to the system's events (isk_subscribe on edk_system(bce)). */
    const isk_system_options *system;
} edk_config;

typedef struct edk_bce edk_bce;

edk_bce *edk_open(const edk_config *cfg);       /* NULL after reporting an error */
void edk_close(edk_bce *bce);
const char *edk_last_error(const edk_bce *bce);
const char *edk_result_name(int result);

/* ---- firmware ------------------------------------------------------------------------------ */

/* Store an image in a slot: one 18-bit instruction per element (a `isekit psm -o fw.h` array). */
int edk_set_firmware(edk_bce *bce, int slot, const uint32_t *words, size_t n);
/* The same from a file: .psm (assembled for the BCE's core, pbbcelib.psm available to INCLUDE),
 * .hex, .mem, .dec or .bin (4 bytes per instruction, little-endian). */
int edk_set_firmware_file(edk_bce *bce, int slot, const char *path);
/* Hold the PicoBlaze in reset: it stops; the mailbox, the status bits, the DFU registers and the
 * program-time counter are reset; registers, scratchpad and data memories keep their values. */
int edk_reset(edk_bce *bce);
/* Reset, load the slot into the program memory, run from 000 and wait until the firmware calls
 * pb2mb_report_running (EDK_ERR_TIMEOUT if it never does). */
int edk_start(edk_bce *bce, int slot);
/* The same without the wait: the firmware is loaded and released from reset (a run without a
 * host, whose firmware need not report running). */
int edk_launch(edk_bce *bce, int slot);
/* Stop the firmware (the PicoBlaze stays in reset). */
int edk_end(edk_bce *bce);
/* The R/B status bits the firmware reported (EDK_STATUS_*). */
unsigned edk_status(const edk_bce *bce);

/* ---- byte exchange: one call pairs with one mbpb_exchange_data() of the firmware ---------- */

/* The firmware's mbpb_exchange_data() returns `value` (low 8 bits); waits until it has. */
int edk_mb2pb(edk_bce *bce, uint32_t value);
/* Receive the byte the firmware passed to mbpb_exchange_data() (which then returns 0); `value`
 * may be NULL. Waits until the firmware arrives: the end of a computation. */
int edk_pb2mb(edk_bce *bce, uint32_t *value);

/* ---- memories ------------------------------------------------------------------------------- */

/* CMEM: the host writes the input region (words 0x00-0x7F) and reads any word. */
int edk_write_cmem(edk_bce *bce, unsigned word, const uint32_t *src, size_t n);
int edk_read_cmem(edk_bce *bce, unsigned word, uint32_t *dst, size_t n);
/* Data memories A-D: raw 32-bit words, or floats (IEEE single precision, the DFU's default). */
int edk_write_dmem(edk_bce *bce, int mem, unsigned pos, const uint32_t *src, size_t n);
int edk_read_dmem(edk_bce *bce, int mem, unsigned pos, uint32_t *dst, size_t n);
int edk_write_dmem_f32(edk_bce *bce, int mem, unsigned pos, const float *src, size_t n);
int edk_read_dmem_f32(edk_bce *bce, int mem, unsigned pos, float *dst, size_t n);
size_t edk_dmem_words(const edk_bce *bce);

/* ---- queries (the firmware must answer WAL_OP_GETCAP / WAL_OP_GETID) ------------------------ */

/* Send WAL_OP_GETCAP, receive the return code, read the 256-bit capability bitmap (CMEM
 * 0x81-0x88). EDK_ERR_FIRMWARE if the return code is not 0. */
int edk_get_capability(edk_bce *bce, uint32_t caps[8]);
/* Send WAL_OP_GETID, receive the return code, read the BCE ID (CMEM 0x80). */
int edk_get_id(edk_bce *bce, uint32_t *id);

/* ---- time ------------------------------------------------------------------------------------ */

/* Advance the system by `clocks` clocks. */
int edk_run(edk_bce *bce, uint64_t clocks);
/* Advance until the DFU is idle. */
int edk_wait_dfu(edk_bce *bce);
/* For a program that runs the BCE under a debugger (`isekit debug edkdsp --host`): the waits
 * above advance the clock with step(user, clocks), which must behave as isk_step on the BCE's
 * system does, instead of isk_step itself; step NULL restores isk_step. */
void edk_set_step(edk_bce *bce, isk_status (*step)(void *user, uint64_t clocks), void *user);
uint64_t edk_clock(const edk_bce *bce);

/* Every DFU operation the firmware started, with the DFU's operation-time counter once it has
 * finished (the value pcnt_get_dfutime() reads). */
typedef struct edk_dfu_record {
    int op;                          /* enum edk_dfu_op */
    unsigned n, rep;                 /* elements per repetition, repetitions */
    uint64_t started;                /* the clock of the start */
    int finished;                    /* 0 while it runs */
    unsigned dfutime;                /* the 16-bit operation-time counter at the end */
    unsigned error;                  /* the DFU error code at the end (0 = OK) */
} edk_dfu_record;
const edk_dfu_record *edk_dfu_log(edk_bce *bce, size_t *n);
const char *edk_dfu_op_name(int op);

/* The glue logic of a BCE between a PicoBlaze `pb` and a DFU `dfu` that are already in `sys`
 * (a system description's `ports = edkdsp_bce DFU`, docs/systems.md): their ports, mailbox and
 * counters, without owning the system or loading firmware (the description loads it, and the
 * PicoBlaze runs from 000). NULL with the reason in `why` if `dfu` lacks the DFU's storages.
 * edk_close leaves the system alone. The host calls that wait work on it as on edk_open's. */
edk_bce *edk_bce_attach(isk_system *sys, isk_inst *pb, isk_inst *dfu, char *why, size_t cap);

/* Several BCEs driven by one host: `isekit run edkdsp --system F.sys --host h.c` runs a system
 * description with several BCEs (`ports = edkdsp_bce DFU`) and hands EDK_HOST_MAIN the first;
 * edk_bce_count tells how many there are and edk_bce_at(bce, i) gives the i-th, in the order of
 * the description's PicoBlaze instances. They share one system and one clock: a call that waits
 * on one BCE runs the others too. A BCE of edk_open is a group of one. edk_bce_group makes n
 * BCEs of one system a group (the array must outlive their use; edk_close leaves it alone). */
size_t edk_bce_count(const edk_bce *bce);
edk_bce *edk_bce_at(const edk_bce *bce, size_t i);     /* NULL past the last */
void edk_bce_group(edk_bce *const *bces, size_t n);

/* The simulated system, for tools that look deeper (storage by name, statistics). The
 * instances are named "pb" (the PicoBlaze) and "dfu". */
isk_system *edk_system(edk_bce *bce);

/* The pbbcelib firmware library (pbbcelib.psm) built into isekit, for INCLUDE. */
const char *edk_pbbcelib_source(void);

/* A host program for `isekit run edkdsp --firmware fw.psm --host host.c` defines
 *
 *     EDK_HOST_MAIN(bce) { ... return 0; }
 *
 * The firmware is in slot EDK_SLOT_P0 when it is called; the program starts it itself. */
#define EDK_HOST_MAIN(bce) \
    __attribute__((visibility("default"))) int edk_host_main(edk_bce *bce, int argc, char **argv)
typedef int (*edk_host_main_fn)(edk_bce *bce, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
