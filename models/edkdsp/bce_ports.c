/* The BCE's glue logic: what the PicoBlaze's OUTPUT and INPUT ports reach (docs/edkdsp.md has
 * the same table for firmware writers; pbbcelib.psm is its only user). Multi-byte values are
 * little-endian, one byte per port.
 *
 *   OUTPUT                                         INPUT
 *   00     AG_SEL: the generator 0..7 of 01-0A     00     DFU status: bit0 busy, bit1 error,
 *   01/02  start address lo/hi                            bit2 licence expired
 *   03/04  increment lo/hi (signed)                01/02  DFU operation time lo/hi (16-bit counter)
 *   05/06  lower bound lo/hi                       03-06  program time bytes 0..3 (32-bit counter;
 *   07/08  upper bound lo/hi                              reading 03 latches all four)
 *   09     bank (0 = A .. 3 = D)                   07     licence: 0 = valid, 1 = run out
 *   0A     flags (bit0 USE_IDX, bit1 STEP_IDXBND)  08     DFU error code (0 = OK, see dfu.c)
 *   0B/0C  N lo/hi                                 10     mailbox: the host's byte; reading it
 *   0D     REP                                            completes the rendezvous
 *   0E     START: the operation code 0..6          11     mailbox: bit0 = the host has arrived
 *   0F     1 = clear the program-time counter      1A     CMEM byte at CMEM_ADDR/CMEM_BYTE
 *   10     mailbox: the PB's byte; arrive          20-3F  capability bitmap bytes 0..31
 *   11     host status: bit0 R(unning), bit1 B(usy)
 *   18     CMEM_ADDR (word 00-FF)
 *   19     CMEM_BYTE (0 = bits 7:0 .. 3 = bits 31:24)
 *   1A     CMEM byte write (words 80-FF only)
 *
 * Unlisted ports read 0 and ignore writes. A START while an operation runs is refused with DFU
 * error 1, an unknown operation code with error 2 (both set the error bit of the status). */
#include <string.h>

#include "bce_int.h"

enum {
    OUT_AG_SEL = 0x00, OUT_AG_ADDR = 0x01, OUT_AG_INC = 0x03, OUT_AG_LO = 0x05, OUT_AG_HI = 0x07,
    OUT_AG_BANK = 0x09, OUT_AG_FLAGS = 0x0A, OUT_CNT = 0x0B, OUT_REP = 0x0D, OUT_START = 0x0E,
    OUT_PRGTIME = 0x0F, OUT_MAILBOX = 0x10, OUT_HOST_STATUS = 0x11,
    OUT_CMEM_ADDR = 0x18, OUT_CMEM_BYTE = 0x19, OUT_CMEM_DATA = 0x1A,
};
enum {
    IN_STATUS = 0x00, IN_DFUTIME = 0x01, IN_PRGTIME = 0x03, IN_LICENCE = 0x07, IN_ERROR = 0x08,
    IN_MAILBOX = 0x10, IN_MAILBOX_STATUS = 0x11, IN_CMEM_DATA = 0x1A, IN_CAPS = 0x20,
};
enum { DFU_BUSY = 1, DFU_FAILED = 2, DFU_LICENCE_EXPIRED = 4 };
enum { DFU_ERR_BUSY = 1, DFU_ERR_OPCODE = 2 };

static isk_ref element(isk_ref r, unsigned i)
{
    r.index = i;
    return r;
}

static void set_byte(isk_ref r, unsigned byte, uint64_t value)
{
    uint64_t v = (uint64_t)isk_ref_read(&r);
    unsigned shift = 8 * byte;
    v = (v & ~((uint64_t)0xFF << shift)) | (value & 0xFF) << shift;
    isk_ref_write(&r, (int64_t)v);
}

static unsigned get_byte(isk_ref r, unsigned byte)
{
    return (unsigned)((uint64_t)isk_ref_read(&r) >> (8 * byte)) & 0xFF;
}

void bce_reset_dfu_registers(edk_bce *bce)
{
    dfu_refs *r = &bce->r;
    for (unsigned k = 0; k < 8; k++) {
        isk_ref b = element(r->ag_bank, k), a = element(r->ag_addr, k), i = element(r->ag_inc, k), lo = element(r->ag_lo, k),
                hi = element(r->ag_hi, k), fl = element(r->ag_flags, k);
        isk_ref_write(&b, 0);
        isk_ref_write(&a, 0);
        isk_ref_write(&i, 0);
        isk_ref_write(&lo, 0);
        isk_ref_write(&hi, 0xFFFF);
        isk_ref_write(&fl, 0);
    }
    isk_ref_write(&r->cnt, 0);
    isk_ref_write(&r->rep, 1);
    isk_ref_write(&r->status, 0);
    isk_ref_write(&r->error, 0);
    isk_ref_write(&r->dfutime, 0);
}

/* Fill in the counter of operations that have finished since they were logged. */
void bce_update_log(edk_bce *bce)
{
    if (!bce->log.len || isk_busy_slots(bce->dfu)) return;
    edk_dfu_record *last = &VEC_LAST(&bce->log);
    if (last->finished) return;
    last->finished = 1;
    last->dfutime = (unsigned)isk_ref_read(&bce->r.dfutime);
    last->error = (unsigned)isk_ref_read(&bce->r.error);
}

static void refuse_start(edk_bce *bce, unsigned error)
{
    isk_ref_write(&bce->r.error, error);
    isk_ref_write(&bce->r.status, isk_ref_read(&bce->r.status) | DFU_FAILED);
}

static void start(edk_bce *bce, unsigned op)
{
    if (isk_busy_slots(bce->dfu)) {
        refuse_start(bce, DFU_ERR_BUSY);
        return;
    }
    isk_ref caps = element(bce->r.caps, op / 32);
    if (op >= 256 || !((uint64_t)isk_ref_read(&caps) >> (op % 32) & 1)) {
        refuse_start(bce, DFU_ERR_OPCODE);
        return;
    }
    bce_update_log(bce);
    edk_dfu_record rec = { .op = (int)op, .n = (unsigned)isk_ref_read(&bce->r.cnt),
                           .rep = (unsigned)isk_ref_read(&bce->r.rep), .started = isk_clock(bce->sys) };
    VEC_PUSH(&bce->log, rec);
    isk_launch(bce->sys, bce->dfu, op);
}

static void write_ag(edk_bce *bce, isk_ref file, unsigned byte, uint64_t value)
{
    set_byte(element(file, bce->ag_select), byte, value);
}

void bce_port_write(void *user, isk_inst *pb, uint64_t port, uint64_t value)
{
    (void)pb;
    edk_bce *bce = user;
    dfu_refs *r = &bce->r;
    value &= 0xFF;
    switch (port) {
    case OUT_AG_SEL: bce->ag_select = (unsigned)value & 7; break;
    case OUT_AG_ADDR: case OUT_AG_ADDR + 1: write_ag(bce, r->ag_addr, (unsigned)(port - OUT_AG_ADDR), value); break;
    case OUT_AG_INC: case OUT_AG_INC + 1: write_ag(bce, r->ag_inc, (unsigned)(port - OUT_AG_INC), value); break;
    case OUT_AG_LO: case OUT_AG_LO + 1: write_ag(bce, r->ag_lo, (unsigned)(port - OUT_AG_LO), value); break;
    case OUT_AG_HI: case OUT_AG_HI + 1: write_ag(bce, r->ag_hi, (unsigned)(port - OUT_AG_HI), value); break;
    case OUT_AG_BANK: write_ag(bce, r->ag_bank, 0, value & 3); break;
    case OUT_AG_FLAGS: write_ag(bce, r->ag_flags, 0, value & 3); break;
    case OUT_CNT: case OUT_CNT + 1: set_byte(r->cnt, (unsigned)(port - OUT_CNT), value); break;
    case OUT_REP: isk_ref_write(&r->rep, (int64_t)value); break;
    case OUT_START: start(bce, (unsigned)value); break;
    case OUT_PRGTIME:
        if (value & 1) bce->prg_base = isk_clock(bce->sys);
        break;
    case OUT_MAILBOX:
        bce->mb.pb_arrived = true;
        bce->mb.pb_byte = (uint8_t)value;
        bce->host_status &= ~EDK_STATUS_BUSY;         /* blocked in the exchange */
        bce_event(bce);
        break;
    case OUT_HOST_STATUS:
        bce->host_status = (unsigned)value & 3;
        bce_event(bce);
        break;
    case OUT_CMEM_ADDR: bce->cmem_addr = (unsigned)value; break;
    case OUT_CMEM_BYTE: bce->cmem_byte = (unsigned)value & 3; break;
    case OUT_CMEM_DATA:
        if (bce->cmem_addr >= EDK_CMEM_OUTPUT) {
            set_byte(element(r->cmem, bce->cmem_addr), bce->cmem_byte, value);
        } else if (!bce->pb_cmem_warning) {
            bce->pb_cmem_warning = true;
            isk_warning(bce->diag, NULL, "clock %llu: the firmware wrote CMEM word 0x%02X, in the host's region "
                        "(0x00-0x7F); the write is ignored", (unsigned long long)isk_clock(bce->sys), bce->cmem_addr);
        }
        break;
    default: break;     /* unconnected, including OUTPUTK ports and interrupt_ack */
    }
}

static uint64_t program_time(edk_bce *bce) { return isk_clock(bce->sys) - bce->prg_base; }

uint64_t bce_port_read(void *user, isk_inst *pb, uint64_t port)
{
    (void)pb;
    edk_bce *bce = user;
    dfu_refs *r = &bce->r;
    switch (port) {
    case IN_STATUS: {
        unsigned s = (unsigned)isk_ref_read(&r->status) & (DFU_FAILED | DFU_LICENCE_EXPIRED);
        return s | (isk_busy_slots(bce->dfu) ? DFU_BUSY : 0);
    }
    case IN_DFUTIME: case IN_DFUTIME + 1: {
        uint64_t t = (uint64_t)isk_ref_read(&r->dfutime);
        if (isk_busy_slots(bce->dfu)) {
            t = isk_clock(bce->sys) - (uint64_t)isk_ref_read(&r->started);
            if (t > 0xFFFF) t = 0xFFFF;
        }
        return t >> (8 * (port - IN_DFUTIME)) & 0xFF;
    }
    case IN_PRGTIME:
        bce->prg_latch = (uint32_t)program_time(bce);
        return bce->prg_latch & 0xFF;
    case IN_PRGTIME + 1: case IN_PRGTIME + 2: case IN_PRGTIME + 3:
        return bce->prg_latch >> (8 * (port - IN_PRGTIME)) & 0xFF;
    case IN_LICENCE: return isk_ref_read(&r->status) & DFU_LICENCE_EXPIRED ? 1 : 0;
    case IN_ERROR: return (uint64_t)isk_ref_read(&r->error) & 0xFF;
    case IN_MAILBOX:
        if (bce->mb.pb_arrived && bce->mb.host_arrived) {
            bce->mb.delivered = bce->mb.pb_byte;
            bce->mb.pb_arrived = bce->mb.host_arrived = false;
            bce->mb.exchanges++;
            bce->host_status |= EDK_STATUS_BUSY;
            bce_event(bce);
        }
        return bce->mb.host_byte;
    case IN_MAILBOX_STATUS: return bce->mb.host_arrived ? 1 : 0;
    case IN_CMEM_DATA: return get_byte(element(r->cmem, bce->cmem_addr), bce->cmem_byte);
    default:
        if (port >= IN_CAPS && port < IN_CAPS + 32) return get_byte(element(r->caps, (unsigned)(port - IN_CAPS) / 4), (unsigned)(port - IN_CAPS) % 4);
        return 0;
    }
}
