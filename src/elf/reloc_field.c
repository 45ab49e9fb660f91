/* The generic "value into bit field" relocation, enough for data words, PC-relative branch
 * offsets and the DPU's scattered immediates alike. */
#include "elf/elf_util.h"
#include "elf/link.h"

#include <stdio.h>

static const char *check_name(uint8_t check)
{
    return check == ISK_RELOC_SIGNED ? "signed" : check == ISK_RELOC_UNSIGNED ? "unsigned" : "signed or unsigned";
}

int isk_reloc_apply_field(const isk_reloc_type *rt, const isk_reloc_ctx *c)
{
    const isk_reloc_field *f = rt->data;
    const isk_link_target *t = c->target;
    if (!f || f->size < 1 || f->size > 8) {
        snprintf(c->err, c->errlen, "bad relocation description (container of %u bytes)", f ? f->size : 0);
        return -1;
    }
    unsigned bits = f->bits ? f->bits : 8u * f->size;
    if (bits > 64 || f->shift > 32) {
        snprintf(c->err, c->errlen, "bad relocation description (%u bits, shift %u)", bits, f->shift);
        return -1;
    }
    if (c->avail < f->size) {
        snprintf(c->err, c->errlen, "needs %u bytes at the place, but only %zu remain in the section", f->size, c->avail);
        return -1;
    }
    /* Unsigned arithmetic wraps as the hardware would; the range check below is signed. */
    uint64_t v = c->sym_addr + (uint64_t)c->addend;
    if (t && t->translate) v = t->translate(t, v, c->alloc);
    if (f->pcrel) v -= t && t->translate ? t->translate(t, c->place_addr, c->alloc) : c->place_addr;
    int64_t sv = (int64_t)v;
    if (f->shift) {
        uint64_t low = ((uint64_t)1 << f->shift) - 1;
        if (v & low) {
            snprintf(c->err, c->errlen, "value %lld (0x%llx) is not a multiple of %llu", (long long)sv,
                     (unsigned long long)v, (unsigned long long)low + 1);
            return -1;
        }
        sv /= (int64_t)low + 1;                        /* exact, so no rounding question */
        v = (uint64_t)sv;
    }
    if (f->check != ISK_RELOC_NOCHECK && bits < 64) {
        int64_t smin = -((int64_t)1 << (bits - 1)), smax = ((int64_t)1 << (bits - 1)) - 1;
        uint64_t umax = ((uint64_t)1 << bits) - 1;
        int ok = f->check == ISK_RELOC_SIGNED ? sv >= smin && sv <= smax
               : f->check == ISK_RELOC_UNSIGNED ? sv >= 0 && v <= umax
               : sv >= smin && (sv < 0 || v <= umax);
        if (!ok) {
            long long lo = f->check == ISK_RELOC_UNSIGNED ? 0 : (long long)smin;
            unsigned long long hi = f->check == ISK_RELOC_SIGNED ? (unsigned long long)smax : (unsigned long long)umax;
            snprintf(c->err, c->errlen, "value %lld (0x%llx) out of range for a %s %u-bit field (%lld..%llu)",
                     (long long)sv, (unsigned long long)v, check_name(f->check), bits, lo, hi);
            return -1;
        }
    }
    int be = t ? t->big_endian : 0;
    uint64_t w = isk_get_uint(c->place, f->size, be);
    isk_reloc_piece whole = { 0, (uint8_t)bits, 0 };
    const isk_reloc_piece *pieces = f->pieces ? f->pieces : &whole;
    size_t np = f->pieces ? f->npieces : 1;
    for (size_t i = 0; i < np; i++) {
        const isk_reloc_piece *p = &pieces[i];
        if (!p->width || p->from + p->width > 64 || p->to + p->width > 8u * f->size) {
            snprintf(c->err, c->errlen, "bad relocation description (piece %zu: bits %u+%u -> %u in %u bytes)", i,
                     p->from, p->width, p->to, f->size);
            return -1;
        }
        uint64_t mask = p->width == 64 ? UINT64_MAX : (((uint64_t)1 << p->width) - 1);
        if (f->replace) w &= ~(mask << p->to);
        w |= ((v >> p->from) & mask) << p->to;
    }
    isk_put_uint(c->place, f->size, be, w);
    return 0;
}
