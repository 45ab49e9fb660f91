/* The main() of a seed generator for a text harness: writes each string of `seeds` (the first
 * byte is the harness's selector byte, which may be 0) to CORPUS_DIR/seed-<prefix>-<i>.
 * Usage of the program: <name> CORPUS_DIR */
#ifndef ISK_FUZZ_TEXT_SEEDS_H
#define ISK_FUZZ_TEXT_SEEDS_H

#include <stdio.h>
#include <string.h>

static int write_text_seeds(int argc, char **argv, const char *prefix, const char *const *seeds, size_t n)
{
    if (argc != 2) return 2;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/seed-%s-%zu", argv[1], prefix, i);
        FILE *f = fopen(path, "wb");
        if (!f) return 1;
        fwrite(seeds[i], 1, 1 + strlen(seeds[i] + 1), f);
        fclose(f);
    }
    return 0;
}

/* The whole main() of such a generator. */
#define TEXT_SEEDS_MAIN(prefix, seeds) \
    int main(int argc, char **argv) { return write_text_seeds(argc, argv, (prefix), (seeds), sizeof (seeds) / sizeof *(seeds)); }

#endif
