/* isekit model description: the read-only view of a loaded model (isk_model_load) that the
 * tools (assembler, linker, loader, disassembler, a debugger) and a model's host code read:
 * storages, kinds, instruction patterns and their fields, parameters, the processor's and the
 * toolchain's declarations. The engine builds it once when it loads the model; nobody changes
 * it afterwards (several systems on several threads may share one model). */
#ifndef ISEKIT_DESC_H
#define ISEKIT_DESC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"
#include "isekit/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A growable array as the engine keeps them: data[0..len). */
#define ISK_VEC(T) struct { T *data; size_t len, cap; }

/* One run of an operand inside the word: value bits [value_lo, value_lo+width) come from word
 * bits [word_lo, word_lo+width). */
typedef struct isk_segment { uint8_t word_lo, value_lo, width; } isk_segment;

#define ISK_MAX_SEGMENTS 24

typedef struct isk_field {
    char name[24];
    int nseg;
    isk_segment seg[ISK_MAX_SEGMENTS];
    int value_bits;          /* 1 + the highest value bit (sign bit position + 1 when signed) */
    bool is_signed;
    int scale;               /* the operand is the field value << scale */
    bool negate;             /* flag 'n': the operand is minus that (sugar: sub $d, $s, imm = add $d, $s, -imm) */
    uint64_t word_bits;      /* the word bits the field occupies */
    int kind;                /* index into the model's kinds (from the syntax), -1 if none */
} isk_field;

typedef struct isk_pattern {
    isk_instruction_info info;        /* the public view: strings, mask, match, priority */
    uint64_t mask, match;             /* fixed bits */
    uint64_t operand_bits;            /* bits belonging to fields */
    int nfields;
    isk_field field[ISK_MAX_OPS];     /* in behaviour-parameter order */
    const isk_behaviour_info *beh;
    int priority;
    bool alias;                       /* assembler/disassembler alias: not decoded by the simulator */
    int base;                         /* aliases: the decodable pattern with the same behaviour, or -1 */
    int reloc[ISK_MAX_OPS];           /* per field: index into the model's relocs, or -1 */
    int line;                         /* of the INSTRUCTION in the description (0 = unknown) */
    bool inert;                       /* INSTRUCTION .inert (abi.h isk_insn_decl) */
    bool interrupts_at_end;           /* INSTRUCTION .interrupts_at_end (inert too) */
} isk_pattern;

typedef struct isk_name { char *name; int64_t value; } isk_name;

typedef struct isk_kind {
    isk_kind_decl d;                  /* strings owned by the model */
    ISK_VEC(isk_name) names;              /* ISK_KIND_NAMES */
    /* Values that have a name, when every value is below 256: the decoder accepts only these. */
    bool has_domain;
    uint64_t domain[4];
} isk_kind;

typedef struct isk_storage {
    isk_storage_info info;            /* public view */
    size_t offset;                    /* of the member in the model's state */
    int cell_bytes;
    char **elements;                  /* per cell names, or NULL */
    int seq, state_line;              /* rank and line of the declaration in the state (0 = unknown) */
    int line;                         /* of the description's MEMORY/REG/REGFILE_BEGIN (0 = unknown) */
    bool private_storage;             /* PRIVATE_*: never shared nor mapped (abi.h isk_storage_decl) */
} isk_storage;

/* A declared parameter (param.c): the declaration (strings owned by the model), its listing,
 * and the default's number. */
typedef struct isk_param {
    isk_param_decl d;
    isk_param_info info;
    int64_t number;
    char **words;                     /* ENUM: d.words split */
    int nwords;
} isk_param;
/* An instance's value of a parameter: its text and number (text NULL = the default). */
typedef struct isk_param_value { char *text; int64_t number; } isk_param_value;

typedef struct isk_reloc {
    isk_reloc_decl d;                 /* strings owned by the model */
    isk_field field;                  /* parsed d.fields (name "v"); nseg = 0 for the whole unit */
} isk_reloc;

typedef struct isk_decoder isk_decoder;

/* Bounds of PROCESSOR: contexts (a scheduler keeps them in one 64-bit mask, isk_sched.running)
 * and instruction sets (a decoder tree each). */
#define ISK_MAX_CONTEXTS 64
#define ISK_MAX_ISETS 64

/* The address map: where a byte address of the ELF/assembly address space lives in the
 * simulator. The engine builds it once when it loads the model, from the REGIONs and the
 * PROCESSOR declaration; the loader, the disassembler, a model's host code (and a debugger or a
 * bus) read it. A processor that declares no REGION gets an implied code region at address 0
 * (declared = false), so that its PCs still have addresses; the loader loads only into declared
 * regions. */
typedef struct isk_map_region {
    const char *name;                 /* the REGION's (owned by the model), or the code memory's */
    uint64_t base, size;              /* in bytes */
    int storage;                      /* index of the storage holding it, -1: the simulator does not */
    int cell_bytes;                   /* bytes per cell: code, the instruction's container
                                       * (proc.code_bytes); data, the cell's width rounded up to
                                       * 1, 2, 4 or 8 bytes */
    bool code, declared;
} isk_map_region;

typedef struct isk_addrmap {
    ISK_VEC(isk_map_region) regions;  /* in declaration order, the implied code region last */
    int code_bytes;                   /* the container of one instruction (commands too) */
    int pc_unit;                      /* bytes per PC unit in assembly addresses (1 = byte addresses) */
    int code_region;                  /* processors: the region of the code memory, or -1 */
} isk_addrmap;

/* A byte address translated: its region, the storage and cell (code: the instruction's index,
 * the engine's PC) and the byte within the cell. */
typedef struct isk_addr_cell {
    int region, storage;              /* storage -1: the region is not held by the simulator */
    uint64_t index;
    int byte;
} isk_addr_cell;

struct isk_model {
    atomic_int refs;                  /* systems on several threads may share a model */
    const struct isk_model_entry *entry;
    void *dl;                         /* dlopen handle of a dynamically loaded model */
    char *source;                     /* where it came from: "builtin" or a path */
    const char *file;                 /* of the description, for messages (entry's or source) */
    char *name, *title;
    int word_bits;
    uint64_t word_mask;
    int slots;                        /* accelerators: N_s; 0 = not an accelerator */
    ISK_VEC(isk_storage) storages;
    ISK_VEC(isk_resource_info) resources;
    ISK_VEC(int) resource_lines;          /* of each RESOURCE in the description */
    ISK_VEC(isk_kind) kinds;
    ISK_VEC(isk_pattern) patterns;
    ISK_VEC(isk_param) params;
    void (*reset)(isk_hdr *h);
    bool is_processor;
    isk_processor_decl proc;
    int isets;                        /* instruction sets: proc.isets, at least 1 (one decoder each) */
    bool has_solo;                    /* some format is INSTRUCTION .solo (fixes the group bit) */
    bool has_solo_bit_set;            /* some format is .solo = ISK_SOLO_BIT_SET (fixes it to 1) */
    /* Processors: ON_EXCEPTION's handler of architectural exceptions, or NULL. */
    void (*on_exception)(isk_hdr *h, int cause, const char *message);
    int code_storage;                 /* processors: index of the code memory */
    bool has_elf;
    isk_elf_decl elf;
    bool has_gdb;
    isk_gdb_decl gdb;                 /* GDB_TARGET: strings owned by the model */
    ISK_VEC(isk_region_decl) regions;     /* strings owned by the model */
    ISK_VEC(isk_reloc) relocs;
    isk_addrmap map;                  /* built from regions and proc at load */
    isk_decoder *decoder;
    isk_coverage coverage;
};

/* Decoding, fields and kinds. */
/* The pattern index for `word` in instruction set `iset` alone (INSTRUCTION .iset; 0 for a model
 * with one set), or -1 (also for a set the model does not have). The group bit is cleared first
 * (kept when some format is INSTRUCTION .solo, which fixes it). Fills ops when not NULL. The simulator decodes with this and the issuing context's set; the
 * tools use isk_model_decode (sim.h), which tries every set. */
int isk_model_decode_iset(const isk_model *m, int iset, uint64_t word, int64_t ops[ISK_MAX_OPS]);
/* Does `word` decode, in some instruction set, as a format declared .solo = ISK_SOLO_BIT_SET? */
bool isk_decodes_solo_bit_set(const isk_model *m, uint64_t word);
/* Does `word` open an issue group (PROCESSOR .group_bit set in it, and not an instruction whose
 * format fixes the bit to 1)? The group is it and the next proc.group_words - 1 words. Always
 * false for a model without groups. */
static inline bool isk_group_head(const isk_model *m, uint64_t word)
{
    return m->proc.group_bit > 0 && (word >> m->proc.group_bit & 1) &&
           !(m->has_solo_bit_set && isk_decodes_solo_bit_set(m, word));
}
int64_t isk_field_extract(const isk_field *f, uint64_t word);
/* Place an operand value into a word (the inverse of extract); false if it does not fit. */
bool isk_field_insert(const isk_field *f, int64_t value, uint64_t *word);
/* Does value v of field f fit its domain (kind names) ? */
bool isk_field_in_domain(const isk_model *m, const isk_field *f, int64_t value);
int isk_kind_find(const isk_model *m, const char *name);
/* The first name of value v in a NAMES kind, or NULL. */
const char *isk_kind_name_of(const isk_kind *k, int64_t v);
/* Look a name up (honouring the kind's case rule): true and *v on success. */
bool isk_kind_lookup(const isk_kind *k, const char *name, size_t len, int64_t *v);

/* The address map (addrmap.c). The region holding byte address addr, or NULL. */
const isk_map_region *isk_addr_region(const isk_model *m, uint64_t addr);
/* addr to its storage cell: false outside every region, or past the end of the region's storage
 * (c->storage is -1 in a region the simulator does not hold). */
bool isk_addr_to_cell(const isk_model *m, uint64_t addr, isk_addr_cell *c);
/* The address of byte 0 of cell `index` of a storage, through the first region holding it:
 * false if no region maps that cell. */
bool isk_cell_to_addr(const isk_model *m, int storage, uint64_t index, uint64_t *addr);
/* Processors: the engine's PC (instruction index) of a code address, false if addr is not the
 * first byte of an instruction of the code memory; and back. */
bool isk_addr_to_pc(const isk_model *m, uint64_t addr, uint64_t *pc);
bool isk_pc_to_addr(const isk_model *m, uint64_t pc, uint64_t *addr);

/* Lookups by name: the index, or -1. */
int isk_model_find_storage(const isk_model *m, const char *name);
int isk_model_find_reloc(const isk_model *m, const char *name);
int isk_model_find_param(const isk_model *m, const char *key);

#ifdef __cplusplus
}
#endif
#endif
