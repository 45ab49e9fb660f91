/* The in-memory object model shared by the assembler, linker, loader and disassembler.
 *
 * An isk_obj is one ELF file, relocatable or executable, of any target. It keeps only what
 * those tools need; the ELF bookkeeping sections (.symtab, .strtab, .shstrtab, .rela.*) are
 * not sections here but are rebuilt by the writer from the symbol and relocation lists:
 *
 *   - secs[0] and syms[0] are the null entries, so that index 0 means "none" everywhere;
 *   - section i of the model is section i of a written file (the writer appends the
 *     bookkeeping sections after the model's), so symbol section indices need no mapping;
 *   - section contents are the bytes as they are in the file (target byte order): the model
 *     never interprets them;
 *   - relocation offsets are always relative to the section start, also in executables
 *     (where ELF itself uses addresses);
 *   - numeric fields use the ELF constants (SHT_*, SHF_*, STB_*, STT_*, STV_*, ET_*, PT_*);
 *   - sections the model does not interpret (attributes, debug info, an executable's
 *     allocated runtime-relocation tables, ...) are kept as opaque bytes.
 *
 * Not thread-safe per object, but objects share nothing: threads may use different ones. */
#ifndef ISK_ELF_OBJ_H
#define ISK_ELF_OBJ_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "base/vec.h"

/* Special values of isk_symbol.shndx (the ELF ones). */
#define ISK_SHN_UNDEF  0u
#define ISK_SHN_ABS    0xfff1u
#define ISK_SHN_COMMON 0xfff2u
/* Section indices from this value up are reserved by ELF; the model never holds that many. */
#define ISK_SHN_LORESERVE 0xff00u

typedef struct isk_obj_reloc {
    uint64_t offset;        /* from the start of the section the relocation patches */
    uint32_t type;          /* target-specific number (R_<ARCH>_*) */
    uint32_t sym;           /* index into obj->syms; 0 = no symbol (value 0) */
    int64_t addend;         /* explicit addend (RELA) */
} isk_obj_reloc;

/* Open addressing over indices into a list of named things (0 = an empty slot). */
typedef struct isk_name_index { uint32_t *slots; size_t cap, used; } isk_name_index;

typedef struct isk_section {
    char *name;
    uint32_t type;          /* SHT_PROGBITS, SHT_NOBITS, or anything else kept as opaque bytes */
    uint64_t flags;         /* SHF_ALLOC, SHF_WRITE, SHF_EXECINSTR, ... */
    uint64_t addr;          /* 0 in relocatable files */
    uint64_t align;         /* power of two; 0 and 1 both mean "none" */
    uint64_t entsize;
    uint32_t link;          /* model section index, only for SHF_LINK_ORDER (else 0) */
    uint32_t info;          /* kept as read, for sections the model does not interpret */
    uint8_t *data;          /* size bytes; NULL for SHT_NOBITS (and possibly when size is 0) */
    uint64_t size;
    size_t cap;
    VEC(isk_obj_reloc) relocs;
    uint32_t section_symbol; /* its STT_SECTION symbol once known (see isk_obj_section_symbol), or 0 */
} isk_section;

typedef struct isk_symbol {
    char *name;             /* never NULL; "" for unnamed (section symbols) */
    uint64_t value;         /* section offset (REL), address (EXEC), alignment (COMMON) */
    uint64_t size;
    uint32_t shndx;         /* model section index, or ISK_SHN_UNDEF/ABS/COMMON */
    uint8_t bind;           /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
    uint8_t type;           /* STT_NOTYPE, STT_FUNC, STT_OBJECT, STT_SECTION, STT_FILE, ... */
    uint8_t vis;            /* STV_DEFAULT, STV_HIDDEN, ... */
} isk_symbol;

/* A program header. The writer computes p_offset and p_filesz from the sections the segment
 * covers: model sections first .. first+count-1 (count 0: a segment without contents, such
 * as PT_GNU_STACK). `offset` and `filesz` hold the values of the last read or write. */
typedef struct isk_phdr {
    uint32_t type, flags;   /* PT_LOAD, ...; PF_R | PF_W | PF_X */
    uint64_t vaddr, paddr, memsz, align;
    uint32_t first, count;
    uint64_t offset, filesz;
} isk_phdr;

typedef struct isk_obj {
    char *filename;         /* for diagnostics; may be "" */
    uint8_t elfclass;       /* ELFCLASS32 or ELFCLASS64 */
    uint8_t big_endian;     /* 0 = ELFDATA2LSB, 1 = ELFDATA2MSB */
    uint8_t osabi, abiversion;
    uint16_t type;          /* ET_REL or ET_EXEC */
    uint16_t machine;       /* e_machine */
    uint32_t flags;         /* e_flags */
    uint64_t entry;         /* e_entry */
    VEC(isk_section) secs;  /* [0] is the null section */
    VEC(isk_symbol) syms;   /* [0] is the null symbol */
    VEC(isk_phdr) phdrs;
    /* Name -> first symbol / section index with that name, so that lookups stay O(1) with
     * 100 k sections or symbols (kept by the obj.c functions that add them). */
    isk_name_index sym_index, sec_index;
    uint32_t syms_scanned;  /* symbols below this one were seen by isk_obj_section_symbol */
} isk_obj;

/* A new empty object (null section and null symbol only). */
isk_obj *isk_obj_new(const char *filename, int elfclass, int big_endian, uint16_t machine, uint16_t type);
void isk_obj_free(isk_obj *o);
void isk_obj_set_filename(isk_obj *o, const char *filename);

/* --- sections --- */
/* Add a section (always a new one) and return its index. align 0 is stored as 1. */
uint32_t isk_obj_add_section(isk_obj *o, const char *name, uint32_t type, uint64_t flags, uint64_t align);
/* The first section with this name, or 0. */
uint32_t isk_obj_find_section(const isk_obj *o, const char *name);
/* Find by name or add; for the assembler's `.section name`. */
uint32_t isk_obj_section(isk_obj *o, const char *name, uint32_t type, uint64_t flags, uint64_t align);
/* Append n bytes (bytes NULL = zeros) and return the offset they start at. On a NOBITS
 * section only the size grows (bytes must be NULL). */
uint64_t isk_obj_append(isk_obj *o, uint32_t sec, const void *bytes, size_t n);
/* Pad with `fill` bytes up to a multiple of align (and raise the section alignment to it). */
uint64_t isk_obj_align(isk_obj *o, uint32_t sec, uint64_t align, uint8_t fill);
/* Write n bytes at offset (inside the current size), for back-patching. Returns 0 or -1. */
int isk_obj_patch(isk_obj *o, uint32_t sec, uint64_t offset, const void *bytes, size_t n);

/* --- symbols --- */
/* Add a symbol as given (no name lookup) and return its index; the name is copied. */
uint32_t isk_obj_add_symbol(isk_obj *o, const isk_symbol *s);
/* The first symbol with this name, or 0. */
uint32_t isk_obj_lookup(const isk_obj *o, const char *name);
/* Find by name or create an undefined local NOTYPE symbol; the assembler then defines it
 * (isk_obj_define) and/or makes it global. The writer turns any symbol still undefined into
 * a global reference, as assemblers do. */
uint32_t isk_obj_symbol(isk_obj *o, const char *name);
/* Define sym at value in section sec (or ISK_SHN_ABS). */
void isk_obj_define(isk_obj *o, uint32_t sym, uint32_t sec, uint64_t value);
void isk_obj_set_binding(isk_obj *o, uint32_t sym, uint8_t bind);
/* The STT_SECTION symbol of sec (created on first use); relocations against local labels
 * can use it with the label's offset as addend. */
uint32_t isk_obj_section_symbol(isk_obj *o, uint32_t sec);

/* --- relocations --- */
void isk_obj_add_reloc(isk_obj *o, uint32_t sec, uint64_t offset, uint32_t type, uint32_t sym, int64_t addend);

/* --- whole object --- */
/* A deep copy (used by the linker to keep inputs untouched). */
isk_obj *isk_obj_clone(const isk_obj *o);
/* Bytes a section occupies in the file: 0 for NOBITS. */
static inline uint64_t isk_section_file_size(const isk_section *s)
{
    return s->type == SHT_NOBITS ? 0 : s->size;
}

#endif
