#include "asm/load.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "asm/loaded.h"
#include "base/file.h"
#include "elf/elf_file.h"
#include "elf/image.h"

static int load_section(isk_inst *inst, const isk_obj *exe, const isk_section *s, isk_load_info *info,
                        isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    isk_loc loc = { .file = exe->filename && *exe->filename ? exe->filename : "<executable>" };
    const isk_map_region *r = isk_addr_region(m, s->addr);
    if (!r || !r->declared) {
        isk_error(diag, &loc, "section %s at 0x%" PRIx64 " lies outside every memory region of model '%s'", s->name,
                  s->addr, m->name);
        return -1;
    }
    uint64_t end_room = r->size - (s->addr - r->base);
    if (s->size > end_room) {
        isk_error(diag, &loc, "program too large for region %s: section %s needs 0x%" PRIx64 " bytes at 0x%" PRIx64
                  " but the region ends at 0x%" PRIx64 " (%" PRIu64 " bytes too many)", r->name, s->name, s->size,
                  s->addr, r->base + r->size, s->size - end_room);
        return -1;
    }
    if (r->storage < 0) return 0;                   /* a region the simulator does not hold */
    int si = r->storage;
    const isk_storage_info *st = isk_model_storage(m, si);
    int unit = r->cell_bytes;
    uint64_t off = s->addr - r->base;
    if (off % (uint64_t)unit) {
        isk_error(diag, &loc, "section %s at 0x%" PRIx64 " is not aligned to the %d-byte cells of %s", s->name, s->addr,
                  unit, st->name);
        return -1;
    }
    uint64_t first = off / (uint64_t)unit, cells = (s->size + (uint64_t)unit - 1) / (uint64_t)unit;
    if (first > st->count || cells > st->count - first) {
        isk_error(diag, &loc, "program too large for %s: section %s needs cells %" PRIu64 "..%" PRIu64 " but %s has %"
                  PRIu64 " cells of %d bytes", r->name, s->name, first, first + cells - 1, st->name, st->count, unit);
        return -1;
    }
    if (s->type == SHT_NOBITS || !s->data) {      /* zeros: a big MRAM's untouched pages stay so */
        if (isk_storage_clear(inst, si, first, cells) != ISK_OK) {
            isk_error(diag, &loc, "cannot clear section %s in %s", s->name, st->name);
            return -1;
        }
        if (info) info->bytes += s->size;
        return 0;
    }
    int64_t *values = isk_xcalloc((size_t)cells + 1, sizeof *values);
    bool code = r->code;
    int word_bits = code ? isk_model_word_bits(m) : st->width;
    for (uint64_t c = 0; c < cells; c++) {
        uint8_t cellbytes[8] = { 0 };
        uint64_t at = c * (uint64_t)unit, n = s->size - at < (uint64_t)unit ? s->size - at : (uint64_t)unit;
        memcpy(cellbytes, s->data + at, (size_t)n);
        uint64_t v = 0;
        for (int i = 0; i < unit; i++) v |= (uint64_t)cellbytes[exe->big_endian ? unit - 1 - i : i] << (8 * i);
        if (code && word_bits < 64 && (v >> word_bits)) {
            isk_error(diag, &loc, "instruction at 0x%" PRIx64 " (0x%" PRIx64 ") has bits set above its %d-bit word",
                      s->addr + at, v, word_bits);
            free(values);
            return -1;
        }
        values[c] = (int64_t)v;
    }
    isk_status rc = isk_storage_load(inst, si, first, values, cells);
    free(values);
    if (rc != ISK_OK) {
        isk_error(diag, &loc, "cannot load section %s into %s", s->name, st->name);
        return -1;
    }
    if (info) info->bytes += s->size;
    return 0;
}

/* Where a section's contents go: its load address (the segment's p_paddr) when a PT_LOAD segment
 * places it apart from its run address, as a C library's initialised data that crt0 copies from
 * flash to RAM (picolibc's .data: AT>flash); else its address. */
static uint64_t load_address(const isk_obj *exe, const isk_section *s)
{
    if (s->type == SHT_NOBITS) return s->addr;
    for (size_t i = 0; i < exe->phdrs.len; i++) {
        const isk_phdr *ph = &exe->phdrs.data[i];
        if (ph->type == PT_LOAD && ph->paddr != ph->vaddr && s->addr >= ph->vaddr && s->addr - ph->vaddr < ph->memsz)
            return ph->paddr + (s->addr - ph->vaddr);
    }
    return s->addr;
}

int isk_load_obj(isk_inst *inst, const isk_obj *exe, isk_load_info *info, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    isk_load_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    isk_loc loc = { .file = exe->filename && *exe->filename ? exe->filename : "<executable>" };
    int errors = diag->errors;
    if (exe->type != ET_EXEC) {
        isk_error(diag, &loc, "this is a relocatable object, not an executable; link it first (isekit ld)");
        return -1;
    }
    uint16_t machine = m->has_elf ? m->elf.machine : 0;
    if (exe->machine != machine) {
        isk_error(diag, &loc, "wrong e_machine %u (0x%x): model '%s' runs e_machine %u (0x%x)", exe->machine,
                  exe->machine, m->name, machine, machine);
        return -1;
    }
    if (m->has_elf && m->elf.abi_mask) {
        uint32_t have = isk_model_abi_version(m, exe->flags), want = isk_model_abi_version(m, m->elf.flags);
        if (have != want) {
            isk_error(diag, &loc, "wrong ABI version %u (e_flags 0x%08x): model '%s' runs ABI version %u", have,
                      exe->flags, m->name, want);
            return -1;
        }
    }
    if (!m->regions.len) {
        isk_error(diag, &loc, "model '%s' declares no memory REGIONs to load a program into", m->name);
        return -1;
    }
    for (size_t i = 1; i < exe->secs.len; i++) {
        const isk_section *s = &exe->secs.data[i];
        if (!(s->flags & SHF_ALLOC) || !s->size) continue;
        isk_section at_lma = *s;
        at_lma.addr = load_address(exe, s);
        load_section(inst, exe, &at_lma, info, diag);
    }
    if (diag->errors != errors) return -1;
    isk_loaded_keep(inst, exe, diag);
    info->entry = exe->entry;
    if (m->is_processor && isk_addr_to_pc(m, exe->entry, &info->entry_pc) && isk_start(inst, 0, info->entry_pc) == ISK_OK)
        info->started = true;
    return 0;
}

static bool is_elf(const uint8_t *d, size_t n)
{
    return n >= 4 && d[0] == 0x7f && d[1] == 'E' && d[2] == 'L' && d[3] == 'F';
}

int isk_load_executable_info(isk_inst *inst, const char *path, isk_load_info *info, isk_diag *diag)
{
    uint8_t *data;
    size_t size;
    if (isk_file_read_all(path, &data, &size, diag) != 0) return -1;
    isk_obj *exe = NULL;
    size_t skip = 0;
    while (skip < size && (data[skip] == ' ' || data[skip] == '\t' || data[skip] == '\r' || data[skip] == '\n')) skip++;
    if (is_elf(data, size)) {
        exe = isk_elf_read_mem(data, size, path, diag);
    } else if (skip < size && data[skip] == ':') {
        exe = isk_ihex_read_mem((const char *)data, size, path, diag);
        if (exe) {
            /* A HEX image carries no identity: it is taken to be the model's. */
            const isk_model *m = isk_inst_model(inst);
            exe->machine = m->has_elf ? m->elf.machine : 0;
            exe->flags = m->has_elf ? m->elf.flags : 0;
            exe->type = ET_EXEC;
        }
    } else {
        isk_loc loc = { .file = path };
        isk_error(diag, &loc, "not an ELF executable or an Intel-HEX image");
    }
    free(data);
    if (!exe) return -1;
    int rc = isk_load_obj(inst, exe, info, diag);
    isk_obj_free(exe);
    return rc;
}

int isk_load_executable(isk_inst *inst, const char *path, isk_diag *diag)
{
    return isk_load_executable_info(inst, path, NULL, diag);
}
