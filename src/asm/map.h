/* A small string map (names -> int), for the assemblers' symbol, macro and name tables. Keys
 * are copied; fold_case compares them without case. */
#ifndef ISK_ASM_MAP_H
#define ISK_ASM_MAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct asm_map {
    struct asm_map_slot { char *key; int value; } *slots;
    size_t cap, used;
    bool fold_case;
} asm_map;
bool asm_map_get(const asm_map *m, const char *key, size_t len, int *value);
void asm_map_put(asm_map *m, const char *key, size_t len, int value);
void asm_map_free(asm_map *m);

#endif
