/* The linker core: relocatable isk_obj inputs (plus archives) -> one executable isk_obj,
 * driven by a target description. Nothing here knows a particular processor.
 *
 * What it does, in order:
 *  1. checks each input's class, byte order, machine and type, and merges e_flags through the
 *     target's hook (the DPU refuses objects of different ABI versions);
 *  2. resolves global symbols (a strong definition beats weak ones and common ones; two strong
 *     definitions are an error naming both files), pulling archive members that define a
 *     still-undefined symbol, over all archives, until nothing new is pulled;
 *  3. allocates COMMON symbols in the target's common section (".bss" by default);
 *  4. builds output sections: input sections of the same name are concatenated in input order,
 *     each at its alignment; the target's output-section rules can gather differently named
 *     inputs into one output (".text.__bootstrap .text .text.*" -> ".text"), pattern by
 *     pattern. Non-allocated sections are concatenated too, except processor-specific ones
 *     (sh_type >= SHT_LOPROC, e.g. the DPU's attributes), of which the first input's is kept;
 *  5. places every allocated output section in the first region whose patterns match its name,
 *     ordered by pattern, then by first appearance; a region that overflows is an error naming
 *     it, its size and the size needed;
 *  6. defines the target's linker symbols (section/region bounds, absolute values) unless an
 *     input defines them;
 *  7. applies every relocation through the target's functions; an error names the file,
 *     section+offset, relocation, symbol and the reason (value and allowed range);
 *  8. returns the executable: sections, symbols (locals kept for disassemblers), one PT_LOAD
 *     per non-empty allocated section, the entry point.
 *
 * All state lives in the call: threads may link concurrently with shared targets and inputs
 * (inputs are only read). */
#ifndef ISK_ELF_LINK_H
#define ISK_ELF_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"
#include "elf/archive.h"
#include "elf/obj.h"

typedef struct isk_link_target isk_link_target;

/* ---- memory ---- */

typedef struct isk_link_region {
    const char *name;
    uint64_t base, size;        /* addresses [base, base+size) */
    const char *sections;       /* output-section name globs, space-separated, e.g. ".text .text.*" */
} isk_link_region;

/* Optional rule: input sections whose names match `inputs` (space-separated globs, gathered
 * pattern by pattern, each in input order) form the output section `name`. With `keep`, the
 * section exists even when no input contributes (type/flags/align then describe it), so that
 * symbols can refer to its bounds. Inputs that match no rule keep their own name. */
typedef struct isk_link_outsec {
    const char *name;
    const char *inputs;
    int keep;
    uint32_t type;
    uint64_t flags, align;
} isk_link_outsec;

/* ---- relocations ---- */

/* Everything an apply function needs about one relocation. */
typedef struct isk_reloc_ctx {
    const isk_link_target *target;
    uint8_t *place;             /* the bytes at the relocation offset, in the output section */
    size_t avail;               /* bytes from place to the end of the section */
    uint64_t place_addr;        /* P: address of place (section offset for non-allocated sections) */
    uint64_t sym_addr;          /* S: address of the symbol (0 for an undefined weak symbol) */
    int64_t addend;             /* A */
    int alloc;                  /* place is in an allocated section (the DPU translates VAs only then) */
    char *err;                  /* on failure, write the reason here: value and allowed range */
    size_t errlen;
} isk_reloc_ctx;

typedef struct isk_reloc_type {
    uint32_t type;              /* the ELF relocation number */
    const char *name;           /* "R_DPU_IMM24", for messages */
    /* Compute the value, check it, scatter it into place. 0 = done, -1 = error (in c->err). */
    int (*apply)(const struct isk_reloc_type *rt, const isk_reloc_ctx *c);
    const void *data;           /* for apply; isk_reloc_apply_field takes an isk_reloc_field */
} isk_reloc_type;

/* A ready-made apply function for the common case "value bits go to some bits of a 1..8-byte
 * container": value = S + A (translated by the target, if it has a translate hook), minus P
 * if pcrel, divided by 2^shift (must be exact), range-checked, then scattered by pieces. */
typedef struct isk_reloc_piece {
    uint8_t from, width, to;    /* value bits [from, from+width) -> container bits [to, to+width) */
} isk_reloc_piece;

enum { ISK_RELOC_NOCHECK, ISK_RELOC_SIGNED, ISK_RELOC_UNSIGNED, ISK_RELOC_EITHER /* fits signed or unsigned */ };

typedef struct isk_reloc_field {
    uint8_t size;               /* container bytes, read and written in the target's byte order */
    uint8_t pcrel;
    uint8_t shift;
    uint8_t check;              /* ISK_RELOC_* */
    uint8_t bits;               /* checked width; 0 = 8 * size */
    uint8_t replace;            /* clear the field bits first; 0 = OR (the object leaves the field zero) */
    const isk_reloc_piece *pieces;   /* NULL = one piece {0, bits, 0} */
    size_t npieces;
} isk_reloc_field;

int isk_reloc_apply_field(const isk_reloc_type *rt, const isk_reloc_ctx *c);

/* ---- linker-defined symbols ---- */

typedef enum {
    ISK_LSYM_ABS,               /* value = offset */
    ISK_LSYM_SECTION_START,     /* address of output section `ref` + offset */
    ISK_LSYM_SECTION_END,       /* its end (address + size) + offset */
    ISK_LSYM_REGION_START,      /* base of region `ref` + offset */
    ISK_LSYM_REGION_END,        /* base + size of region `ref` + offset */
    ISK_LSYM_REGION_USED,       /* first address after the sections placed in region `ref` + offset */
} isk_link_symkind;

/* Defined only if no input defines the name (like a linker script's PROVIDE). A reference
 * to a missing section is an error only if the symbol is used. The value is rounded up to
 * `align` (0 = none). */
typedef struct isk_link_symdef {
    const char *name;
    isk_link_symkind kind;
    const char *ref;
    int64_t offset;
    uint64_t align;
} isk_link_symdef;

/* The state of a link, for the after_layout hook's queries. */
typedef struct isk_link_ctx isk_link_ctx;
/* Value of a defined global symbol (input or linker-defined). 0 = found, -1 = not defined. */
int isk_link_symbol_value(const isk_link_ctx *c, const char *name, uint64_t *value);

/* ---- the target ---- */

struct isk_link_target {
    const char *name;                       /* for messages */
    uint16_t machine;                       /* e_machine of inputs and output */
    uint8_t elfclass;                       /* ELFCLASS32 / ELFCLASS64 */
    uint8_t big_endian;
    const isk_link_region *regions;
    size_t nregions;
    const isk_link_outsec *outsecs;
    size_t noutsecs;
    const isk_reloc_type *relocs;           /* type 0 (R_*_NONE) is always accepted and ignored */
    size_t nrelocs;
    const isk_link_symdef *symbols;
    size_t nsymbols;
    const char *entry_symbol;               /* must be defined; NULL = entry at the first region's base */
    const char *common_section;             /* where COMMON symbols go; NULL = ".bss" */
    /* VA -> value that relocations write (the DPU's IRAM/MRAM/atomic translation); NULL =
     * identity. Used by isk_reloc_apply_field; custom apply functions may call it too. */
    uint64_t (*translate)(const isk_link_target *t, uint64_t va, int alloc);
    /* e_flags policy, called for every input after the first: *merged holds the flags so far
     * (first_file's at first). Return 0 (possibly updating *merged) or -1 with a message in
     * err that names both files and what differs. NULL = keep the first input's flags. */
    int (*merge_flags)(const isk_link_target *t, uint32_t *merged, const char *first_file, uint32_t flags,
                       const char *file, char *err, size_t errlen);
    /* Called once addresses and symbols are final, before relocation: target checks such as
     * "this symbol must lie below 2048". Report through diag and return -1 to fail. */
    int (*after_layout)(const isk_link_target *t, const isk_link_ctx *c, isk_diag *diag);
    const void *data;                       /* target-private */
};

/* Link. Inputs and archives are only read. On success returns 0 and *out is a new ET_EXEC
 * object named output_name; on failure returns -1 after reporting every error found (up to
 * the sink's limit) and *out is NULL. */
int isk_link(const isk_link_target *t, isk_obj *const *inputs, size_t ninputs, isk_archive *const *archives,
             size_t narchives, const char *output_name, isk_obj **out, isk_diag *diag);

#endif
