/* pbbcelib.h - the EdkDSP firmware API v2 ("pbbcelib") for PicoBlaze firmware written in C and
 * compiled with `isekit cc` (docs/cc.md). Every function is a routine of pbbcelib.psm, which this
 * header links in (the #pragma below; the EdkDSP SDK's `pbcc pbbcelib.psmo fw.c` did it on the
 * command line, which `isekit cc fw.c pbbcelib.psm` also accepts). The calling convention is the
 * library's: arguments in s0, s1, ... (16-bit values low byte first), results in s0 or s1:s0.
 * Types as on the PicoBlaze: unsigned char 8 bits, (unsigned) int 16 bits. */
#ifndef PBBCELIB_H
#define PBBCELIB_H

#pragma isekit library "pbbcelib.psm"

/* DFU operations (pb2dfu_start_op, pb2dfu_restart_op) */
enum dfu_bce_operations {
    DFU_VCOPY,    /* M0[i] = M1[j] */
    DFU_VADD,     /* M0[i] = M1[j] + M2[k] */
    DFU_VMUL,     /* M0[i] = M1[j] * M2[k] */
    DFU_VMAC,     /* M0[i] = M3[l] + M1[j] * M2[k] */
    DFU_DPROD,    /* M0[i] = sum of M1[j] * M2[k] */
    DFU_VSUB,     /* M0[i] = M1[j] - M2[k] */
    DFU_VMSUBAC   /* M0[i] = M3[l] - M1[j] * M2[k] */
};

/* the main address generators: the virtual vectors M0 (result) .. M3 */
enum dfu_ag_indices { DFUAG_0, DFUAG_1, DFUAG_2, DFUAG_3 };
/* the slave (index) address generators */
enum dfu_idxag_indices { DFUAG_IDX_0 = 4, DFUAG_IDX_1 = 5, DFUAG_IDX_2 = 6, DFUAG_IDX_3 = 7 };
/* the physical data memories */
enum dfu_data_memories { MBANK_A, MBANK_B, MBANK_C, MBANK_D };
/* address-generator modes, may be ORed */
enum dfu_ag_flags { AGFL_USE_IDX = 1, AGFL_STEP_IDXBND = 2 };

/* WAL command bytes */
#define WAL_OP_EXIT   0x00
#define WAL_OP_GETCAP 0x01
#define WAL_OP_GETID  0x02

/* group 1: communication with the host */
unsigned char mbpb_exchange_data(unsigned char data);
void pb2mb_report_running(void);
unsigned char read_bce_cmem_u8(unsigned char cfgaddr, unsigned char byteidx);
unsigned int read_bce_cmem_u16(unsigned char cfgaddr, unsigned char widx);
void write_bce_cmem_u16(unsigned char cfgaddr, unsigned char widx, unsigned int dt);

/* group 2: information about the BCE and the DFU */
void write_bce_id_to_cmem(unsigned char fam1);
void write_dfu_caps_to_cmem(void);
unsigned int pcnt_get_dfutime(void);
unsigned int pcnt_get_prgtime_lo(void);
unsigned int pcnt_get_prgtime_hi(void);
void pcnt_reset_prgtime(void);
unsigned int get_dfulic(void);

/* group 3: DFU control; parameters persist between operations */
unsigned char pb2dfu_wait4hw(void);
void pb2dfu_start_op(unsigned char op, unsigned int cnt);
void pb2dfu_restart_op(unsigned char op);
void pb2dfu_set_cnt(unsigned int cnt);
void pb2dfu_set_repetitions(unsigned char nrep);
void pb2dfu_set_addr(unsigned char dfuag, unsigned int addr);
void pb2dfu_set_bank(unsigned char dfuag, unsigned char mbank);
void pb2dfu_set_fulladdr(unsigned char dfuag, unsigned char mbank, unsigned int addr);
void pb2dfu_set_inc(unsigned char dfuag, int inc);
void pb2dfu_set_bound_addr(unsigned char dfuag, unsigned int lo_bound, unsigned int hi_bound);
void pb2dfu_set_agflags(unsigned char dfuag, unsigned char agflags);

#endif
