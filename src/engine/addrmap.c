/* The address map (isekit/desc.h): byte addresses of the ELF/assembly address space to storage
 * cells and back. Built once at load; read-only afterwards, nothing on the simulation path. */
#include <string.h>

#include "engine/model_desc.h"

/* The smallest standard container of a w-bit cell, in bytes. */
static int container_bytes(int bits)
{
    int b = (bits + 7) / 8;
    return b <= 1 ? 1 : b <= 2 ? 2 : b <= 4 ? 4 : 8;
}

bool isk_addrmap_build(isk_model *m, isk_diag *diag)
{
    isk_addrmap *map = &m->map;
    map->code_bytes = m->is_processor && m->proc.code_bytes > 0 && m->proc.code_bytes <= 8 ? m->proc.code_bytes
                                                                                             : container_bytes(m->word_bits);
    map->pc_unit = m->is_processor && m->proc.pc_unit_bytes > 0 ? m->proc.pc_unit_bytes : map->code_bytes;
    map->code_region = -1;
    bool ok = true;
    for (size_t i = 0; i < m->regions.len; i++) {
        const isk_region_decl *d = &m->regions.data[i];
        isk_map_region r = { .name = d->name, .base = d->base, .size = d->size, .storage = -1,
                             .code = d->code != 0, .declared = true };
        if (d->storage) {
            r.storage = isk_model_find_storage(m, d->storage);
            if (r.storage < 0) {
                isk_error(diag, NULL, "model '%s': REGION %s names storage '%s', which the model does not declare",
                          m->name, d->name, d->storage);
                ok = false;
            }
        }
        r.cell_bytes = r.code ? map->code_bytes
                     : r.storage >= 0 ? container_bytes(m->storages.data[r.storage].info.width) : 1;
        if (r.code && r.storage >= 0 && r.storage == m->code_storage && map->code_region < 0)
            map->code_region = (int)map->regions.len;
        VEC_PUSH(&map->regions, r);
    }
    if (m->is_processor && m->code_storage >= 0 && !m->regions.len) {
        /* A processor without REGIONs: its code memory sits at address 0, one container per
         * instruction (a model that declares regions but none for code keeps code unaddressed). */
        const isk_storage *st = &m->storages.data[m->code_storage];
        map->code_region = (int)map->regions.len;
        VEC_PUSH(&map->regions, ((isk_map_region){ .name = st->info.name, .base = 0,
                                                   .size = st->info.count * (uint64_t)map->code_bytes,
                                                   .storage = m->code_storage, .cell_bytes = map->code_bytes,
                                                   .code = true, .declared = false }));
    }
    return ok;
}

void isk_addrmap_free(isk_model *m) { VEC_FREE(&m->map.regions); }

static int region_index(const isk_model *m, uint64_t addr)
{
    for (size_t i = 0; i < m->map.regions.len; i++) {
        const isk_map_region *r = &m->map.regions.data[i];
        if (addr >= r->base && addr - r->base < r->size) return (int)i;
    }
    return -1;
}

const isk_map_region *isk_addr_region(const isk_model *m, uint64_t addr)
{
    int i = region_index(m, addr);
    return i < 0 ? NULL : &m->map.regions.data[i];
}

bool isk_addr_to_cell(const isk_model *m, uint64_t addr, isk_addr_cell *c)
{
    int i = region_index(m, addr);
    if (i < 0) return false;
    const isk_map_region *r = &m->map.regions.data[i];
    uint64_t off = addr - r->base;
    *c = (isk_addr_cell){ .region = i, .storage = r->storage, .index = off / (uint64_t)r->cell_bytes,
                          .byte = (int)(off % (uint64_t)r->cell_bytes) };
    return r->storage < 0 || c->index < m->storages.data[r->storage].info.count;
}

/* The address of cell `index` through region r, if r reaches that far. */
static bool region_cell_addr(const isk_model *m, const isk_map_region *r, uint64_t index, uint64_t *addr)
{
    if (index >= m->storages.data[r->storage].info.count || index >= r->size / (uint64_t)r->cell_bytes) return false;
    *addr = r->base + index * (uint64_t)r->cell_bytes;
    return true;
}

bool isk_cell_to_addr(const isk_model *m, int storage, uint64_t index, uint64_t *addr)
{
    for (size_t i = 0; i < m->map.regions.len && storage >= 0; i++)
        if (m->map.regions.data[i].storage == storage && region_cell_addr(m, &m->map.regions.data[i], index, addr))
            return true;
    return false;
}

bool isk_addr_to_pc(const isk_model *m, uint64_t addr, uint64_t *pc)
{
    isk_addr_cell c;
    if (!isk_addr_to_cell(m, addr, &c) || c.region != m->map.code_region || c.byte) return false;
    *pc = c.index;
    return true;
}

bool isk_pc_to_addr(const isk_model *m, uint64_t pc, uint64_t *addr)
{
    return m->map.code_region >= 0 && region_cell_addr(m, &m->map.regions.data[m->map.code_region], pc, addr);
}
