/* Memory by the megabyte, paid for by the page actually used (docs/engine.md, "Memory").
 *
 * Storages of ISK_ON_DEMAND_BYTES (64 KiB) or more are anonymous MAP_NORESERVE mappings: a DPU's
 * 64 MiB MRAM and 64 KiB WRAM cost the pages its program touches (calloc would clear a WRAM carved
 * from the heap's top, touching all of it). One mapping each: thousands of instances stay far
 * below the kernel's 65,530 mappings per process. A processor's decode cache is a private mapping of
 * a template file of "not decoded" entries (isk_decode_miss, pattern -1): pages nobody reads
 * cost nothing, pages only read are the template's, shared by everyone, and a page written (an
 * entry decoded or invalidated) becomes the instance's own copy. The hot path indexes the cache
 * as before: no check per access.
 *
 * Instances running the same program share its decoded entries: at an instance's first decode
 * after a reset, the code image (words, model) is looked up in a table of programs. The first
 * instance of a program decodes on its own, word by word as it runs (a single run, the common
 * case of a command-line simulation, pays for no image); a second finds the program in the
 * table and decodes it whole once, into a file that it and every later instance map privately
 * over their caches. The image is immutable once published, so systems on other threads map it freely; an instance
 * writing its code memory invalidates entries in its own pages only (copy on write by the
 * kernel), so each instance keeps seeing exactly its own code.
 *
 * Elsewhere than Linux (no memfd_create, MAP_NORESERVE), calloc and a filled cache. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "engine/system.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#define ON_DEMAND 1
#else
#define ON_DEMAND 0
#endif

/* The template of "not decoded" entries: a whole number of entries and of pages (up to 2 MiB
 * pages). An rv32 cache (256 MiB) maps it 128 times. */
#define TEMPLATE_BYTES ((size_t)2 << 20)
_Static_assert(TEMPLATE_BYTES % sizeof(isk_decoded) == 0, "template of whole entries");
/* Above this a cache is not pre-decoded for sharing: decoding a 16 MiB rv32 RAM word by word
 * would cost more than the program ever runs. A DPU's IRAM is 256 KiB of entries. */
#define SHARE_MAX_BYTES ((size_t)4 << 20)

static const isk_decoded miss_entry = { .fn = isk_decode_miss, .pattern = -1 };

/* ---- storages ------------------------------------------------------------------------------- */

void *isk_storage_alloc(size_t bytes)
{
#if ON_DEMAND
    if (bytes >= ISK_ON_DEMAND_BYTES) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) isk_out_of_memory(bytes, "a storage's on-demand mapping");
        return p;
    }
#endif
    return isk_xcalloc(1, bytes ? bytes : 1);
}

void isk_storage_free(void *p, size_t bytes)
{
    if (!p) return;
#if ON_DEMAND
    if (bytes >= ISK_ON_DEMAND_BYTES) {
        munmap(p, bytes);
        return;
    }
#endif
    free(p);
}

void isk_storage_zero(void *p, size_t bytes, size_t storage_bytes)
{
#if ON_DEMAND
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p, e = a + bytes;
    const uintptr_t pa = (a + page - 1) & ~(page - 1), pe = e & ~(page - 1);
    if (storage_bytes >= ISK_ON_DEMAND_BYTES && pe > pa) {
        memset(p, 0, pa - a);
        if (madvise((void *)pa, pe - pa, MADV_DONTNEED) != 0) memset((void *)pa, 0, pe - pa);
        memset((void *)pe, 0, e - pe);
        return;
    }
#endif
    (void)storage_bytes;
    memset(p, 0, bytes);
}

/* ---- the decode cache -------------------------------------------------------------------------- */

/* Every entry of the cache a miss, by filling (the fallback): one entry, then doubling copies. */
static void fill_misses(isk_decoded *cache, size_t n)
{
    if (!n) return;
    cache[0] = miss_entry;
    for (size_t done = 1; done < n;) {
        const size_t k = done < n - done ? done : n - done;
        memcpy(cache + done, cache, k * sizeof *cache);
        done += k;
    }
}

#if ON_DEMAND
/* The template file (process-wide like the code its entries point into); -1 when the kernel has
 * no memfd. It is filled only as far as the largest cache so far needs (a PicoBlaze's 256 KiB
 * cache need not pay for 2 MiB): start-up of a small model stays small. A filled page never
 * changes again, and no cache maps a page before it is filled, so private mappings made at any
 * time see only filled, unchanging pages. All four under template_lock. */
static int template_fd = -1;
static bool template_tried;
static size_t template_filled;       /* bytes from the start */
static pthread_mutex_t template_lock = PTHREAD_MUTEX_INITIALIZER;

/* The template, filled with misses up to at least bytes (a whole number of pages, at most
 * TEMPLATE_BYTES); false when there is none (no memfd), and the caller fills its own cache. */
static bool template_ready(size_t bytes)
{
    pthread_mutex_lock(&template_lock);
    if (!template_tried) {
        template_tried = true;
        const int fd = memfd_create("isekit-decode-miss", MFD_CLOEXEC);
        if (fd >= 0 && ftruncate(fd, (off_t)TEMPLATE_BYTES) == 0) template_fd = fd;
        else if (fd >= 0) close(fd);
    }
    if (template_fd >= 0 && template_filled < bytes) {
        isk_decoded *t = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, template_fd, 0);
        if (t == MAP_FAILED) {
            pthread_mutex_unlock(&template_lock);
            return false;
        }
        fill_misses(t, bytes / sizeof *t);
        munmap(t, bytes);
        template_filled = bytes;
    }
    const bool ready = template_fd >= 0;
    pthread_mutex_unlock(&template_lock);
    return ready;
}

/* Map the template over the whole cache (fresh pages: a private copy made before is dropped). */
static void map_template(isk_inst *inst)
{
    char *base = (char *)inst->dcache;
    for (size_t at = 0; at < inst->dcache_bytes; at += TEMPLATE_BYTES) {
        const size_t len = inst->dcache_bytes - at < TEMPLATE_BYTES ? inst->dcache_bytes - at : TEMPLATE_BYTES;
        if (mmap(base + at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, template_fd, 0) == MAP_FAILED)
            isk_out_of_memory(len, "the decode cache");
    }
}

/* A program in the table: its words, and once a second instance runs it, its decoded image.
 * Immutable once the image is made; refs and fd under the table's lock. */
typedef struct isk_shared_code {
    struct isk_shared_code *next;
    const isk_model *model;
    uint64_t hash;
    size_t code_bytes;
    void *code;                      /* the words */
    int fd;                          /* the decoded entries, dcache_bytes long; -1 before a second instance */
    long refs;                       /* instances running it */
} shared_code;

/* The table of programs, over all systems: an image is a function of the model and the words. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static shared_code *table;

static uint64_t hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

static shared_code *new_program(const isk_model *m, const void *code, size_t code_bytes, uint64_t hash)
{
    shared_code *s = isk_xcalloc(1, sizeof *s);
    *s = (shared_code){ .model = m, .hash = hash, .code_bytes = code_bytes, .code = isk_xcalloc(1, code_bytes),
                        .fd = -1 };
    memcpy(s->code, code, code_bytes);
    return s;
}

/* The image of s for inst's cache: every word decoded with every instruction set, a word no
 * format accepts left as a miss (its exception is raised when it runs, as without sharing).
 * s->fd stays -1 when there is no memfd now. */
static void decode_image(shared_code *s, const isk_inst *inst)
{
    int fd = memfd_create("isekit-decoded", MFD_CLOEXEC);
    if (fd < 0) return;
    isk_decoded *d = NULL;
    if (ftruncate(fd, (off_t)inst->dcache_bytes) == 0)
        d = mmap(NULL, inst->dcache_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (!d || d == MAP_FAILED) {
        close(fd);
        return;
    }
    const isk_model *m = inst->model;
    const int cell = m->storages.data[m->code_storage].cell_bytes;
    /* An entry depends on the word and the set only, not on its address: a run of equal words
     * (the unused rest of a code memory) is decoded once. */
    for (int k = 0; k < m->isets; k++)
        for (uint64_t pc = 0; pc < inst->ncode; pc++) {
            isk_decoded *e = &d[(uint64_t)k * inst->ncode + pc];
            const uint64_t word = isk_cell_read_raw((const char *)s->code + pc * (uint64_t)cell, cell);
            if (pc && word == isk_cell_read_raw((const char *)s->code + (pc - 1) * (uint64_t)cell, cell)) *e = e[-1];
            else if (!isk_decode_word(inst, (uint32_t)k, word, e)) *e = miss_entry;
        }
    munmap(d, inst->dcache_bytes);
    s->fd = fd;
}

static void release_program(shared_code *s)
{
    if (!s) return;
    pthread_mutex_lock(&table_lock);
    if (--s->refs == 0) {
        for (shared_code **p = &table; *p; p = &(*p)->next)
            if (*p == s) {
                *p = s->next;
                break;
            }
        if (s->fd >= 0) close(s->fd);   /* mappings made from it stay valid */
        free(s->code);
        free(s);
    }
    pthread_mutex_unlock(&table_lock);
}
#endif

void isk_dcache_new(isk_inst *inst)
{
    const size_t n = inst->ncode * (size_t)inst->model->isets;
    inst->dcache_bytes = n * sizeof(isk_decoded);
#if ON_DEMAND
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t mapped = (inst->dcache_bytes + page - 1) / page * page;
    if (n && template_ready(mapped < TEMPLATE_BYTES ? mapped : TEMPLATE_BYTES)) {
        inst->dcache_bytes = mapped;
        void *p = mmap(NULL, inst->dcache_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) isk_out_of_memory(inst->dcache_bytes, "the decode cache's reservation");
        inst->dcache = p;
        inst->dcache_mapped = true;
        map_template(inst);
        inst->code_pristine = true;
        return;
    }
#endif
    inst->dcache = isk_xcalloc(n + 1, sizeof *inst->dcache);
    fill_misses(inst->dcache, n);
}

void isk_dcache_clear(isk_inst *inst)
{
    if (!inst->dcache) return;
#if ON_DEMAND
    if (inst->dcache_mapped) {
        release_program(inst->shared_code);
        inst->shared_code = NULL;
        inst->image_mapped = false;
        map_template(inst);
        inst->code_pristine = true;
        return;
    }
#endif
    fill_misses(inst->dcache, inst->ncode * (size_t)inst->model->isets);
}

void isk_dcache_free(isk_inst *inst)
{
    if (!inst->dcache) return;
#if ON_DEMAND
    if (inst->dcache_mapped) {
        release_program(inst->shared_code);
        munmap(inst->dcache, inst->dcache_bytes);
        inst->dcache = NULL;
        return;
    }
#endif
    free(inst->dcache);
    inst->dcache = NULL;
}

void isk_dcache_share(isk_inst *inst)
{
    inst->code_pristine = false;
#if ON_DEMAND
    if (!inst->dcache_mapped || inst->dcache_bytes > SHARE_MAX_BYTES) return;
    const isk_model *m = inst->model;
    const size_t code_bytes = inst->ncode * (size_t)m->storages.data[m->code_storage].cell_bytes;
    const void *code = inst->buffers[m->code_storage];
    const uint64_t hash = hash_bytes(code, code_bytes);
    pthread_mutex_lock(&table_lock);
    shared_code *s = table;
    while (s && !(s->model == m && s->hash == hash && s->code_bytes == code_bytes && !memcmp(s->code, code, code_bytes)))
        s = s->next;
    if (!s) {                        /* the first instance: it decodes on its own */
        s = new_program(m, code, code_bytes, hash);
        s->next = table;
        table = s;
    } else if (s->fd < 0) {          /* a second one: the image, once for all */
        decode_image(s, inst);
    }
    s->refs++;
    const int fd = s->fd;
    pthread_mutex_unlock(&table_lock);
    inst->shared_code = s;
    if (fd < 0) return;
    if (mmap(inst->dcache, inst->dcache_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED)
        isk_out_of_memory(inst->dcache_bytes, "a shared decoded program");
    inst->image_mapped = true;
#endif
}

const void *isk_dcache_shared(const isk_inst *inst)
{
    return inst->image_mapped ? inst->shared_code : NULL;
}
