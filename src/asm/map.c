/* A small string map (names -> int): open addressing, FNV-1a, optionally case-folded. */
#include "asm/map.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "base/vec.h"

static uint64_t hash_key(const char *s, size_t n, bool fold)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (fold) c = (unsigned char)tolower(c);
        h = (h ^ c) * UINT64_C(1099511628211);
    }
    return h;
}

static bool key_eq(const char *key, const char *s, size_t n, bool fold)
{
    return (fold ? strncasecmp(key, s, n) : strncmp(key, s, n)) == 0 && key[n] == 0;
}

bool asm_map_get(const asm_map *m, const char *key, size_t len, int *value)
{
    if (!m->cap) return false;
    size_t mask = m->cap - 1;
    for (size_t i = hash_key(key, len, m->fold_case) & mask; m->slots[i].key; i = (i + 1) & mask)
        if (key_eq(m->slots[i].key, key, len, m->fold_case)) {
            *value = m->slots[i].value;
            return true;
        }
    return false;
}

static void map_insert(asm_map *m, char *key, int value)
{
    size_t mask = m->cap - 1, len = strlen(key);
    size_t i = hash_key(key, len, m->fold_case) & mask;
    while (m->slots[i].key) i = (i + 1) & mask;
    m->slots[i].key = key;
    m->slots[i].value = value;
}

void asm_map_put(asm_map *m, const char *key, size_t len, int value)
{
    if (m->cap) {
        size_t mask = m->cap - 1;
        for (size_t i = hash_key(key, len, m->fold_case) & mask; m->slots[i].key; i = (i + 1) & mask)
            if (key_eq(m->slots[i].key, key, len, m->fold_case)) {
                m->slots[i].value = value;
                return;
            }
    }
    if ((m->used + 1) * 2 > m->cap) {
        asm_map old = *m;
        m->cap = m->cap ? m->cap * 2 : 64;
        m->slots = isk_xcalloc(m->cap, sizeof *m->slots);
        for (size_t i = 0; i < old.cap; i++)
            if (old.slots[i].key) map_insert(m, old.slots[i].key, old.slots[i].value);
        free(old.slots);
    }
    map_insert(m, isk_xstrndup(key, len), value);
    m->used++;
}

void asm_map_free(asm_map *m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->slots[i].key);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->used = 0;
}
