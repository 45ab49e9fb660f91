/* A processor's bus (BUS_READ/BUS_WRITE in isekit/model.h): byte addresses outside the model's
 * own storages reach storages of other instances the system mapped there (isk_map_storage,
 * share.c). A mapped cell is reached as the host's isk_read/isk_write reach it: the current
 * value, and a write that takes effect at once (docs/semantics.md, "The bus"). Nothing here runs
 * unless a model calls it. */
#include <stdio.h>

#include "engine/system.h"

/* The mapping holding byte `addr` of processor p, or NULL. Mappings are few: a scan. */
static const struct isk_bus_map *find_map(const isk_inst *p, uint64_t addr)
{
    for (int i = 0; i < p->nbus; i++)
        if (addr - p->bus[i].base < p->bus[i].size) return &p->bus[i];
    return NULL;
}

/* One piece of an access: the part of [addr, addr + bytes) inside one cell. */
typedef struct piece {
    isk_ref ref;             /* the cell, written as the host writes it (isk_ref_write) */
    const void *cell;
    int bytes, at, n;        /* the cell's bytes; the piece's first byte in it, how many */
} piece;

static bool piece_at(const isk_inst *p, uint64_t addr, int left, piece *out)
{
    const struct isk_bus_map *m = find_map(p, addr);
    if (!m) return false;
    uint64_t off = addr - m->base, index = off / (uint64_t)m->cell_bytes;
    out->ref = (isk_ref){ m->target, m->storage, index };
    out->cell = (const char *)m->target->buffers[m->storage] + index * (uint64_t)m->cell_bytes;
    out->bytes = m->cell_bytes;
    out->at = (int)(off % (uint64_t)m->cell_bytes);
    out->n = m->cell_bytes - out->at < left ? m->cell_bytes - out->at : left;
    return true;
}

static uint64_t low_bytes(int n) { return n >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * n)) - 1; }

static void check_size(isk_hdr *h, const char *what, int bytes)
{
    if (bytes >= 1 && bytes <= 8) return;
    char message[80];
    snprintf(message, sizeof message, "%s of %d bytes: an access takes 1 to 8", what, bytes);
    isk_op_fault(h, 0, message);
}

int isk_op_bus_read(isk_hdr *h, uint64_t addr, int bytes, uint64_t *value)
{
    check_size(h, "BUS_READ", bytes);
    const isk_inst *p = h->engine;
    uint64_t v = 0;
    piece c;
    *value = 0;
    for (int k = 0; k < bytes; k += c.n) {
        if (!piece_at(p, addr + (uint64_t)k, bytes - k, &c)) return 0;
        uint64_t raw = isk_cell_read_raw(c.cell, c.bytes);
        v |= ((raw >> (8 * c.at)) & low_bytes(c.n)) << (8 * k);
    }
    *value = v;
    return 1;
}

int isk_op_bus_write(isk_hdr *h, uint64_t addr, int bytes, uint64_t value)
{
    check_size(h, "BUS_WRITE", bytes);
    const isk_inst *p = h->engine;
    piece c;
    /* all or nothing: an access that is partly unmapped changes no cell */
    for (int k = 0; k < bytes; k += c.n)
        if (!piece_at(p, addr + (uint64_t)k, bytes - k, &c)) return 0;
    for (int k = 0; k < bytes; k += c.n) {
        piece_at(p, addr + (uint64_t)k, bytes - k, &c);
        uint64_t mask = low_bytes(c.n) << (8 * c.at);
        uint64_t raw = isk_cell_read_raw(c.cell, c.bytes);
        isk_ref_write(&c.ref, (int64_t)((raw & ~mask) | (((value >> (8 * k)) << (8 * c.at)) & mask)));
    }
    return 1;
}
