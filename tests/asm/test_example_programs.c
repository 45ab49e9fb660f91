/* The example accelerator's launch programs, written as assembly (models/example/programs/NAME.s,
 * with macros, .include, .rept/.irp and local labels): each is assembled, its commands are
 * launched one per clock, and the `# expect NAME == VALUE` lines of the source are checked
 * once every slot is idle. */
#include <dirent.h>
#include <stdlib.h>

#include "asm/asm.h"
#include "base/file.h"
#include "check.h"
#include "elf/elf_file.h"

#define PROGRAMS ISEKIT_SOURCE_DIR "/models/example/programs"

typedef struct launcher { const uint8_t *code; size_t n, next; isk_inst *acc; } launcher;

static int launch_next(void *user, isk_system *sys)
{
    launcher *l = user;
    if (l->next >= l->n) return 1;
    const uint8_t *p = l->code + 4 * l->next++;
    uint64_t word = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    return isk_launch(sys, l->acc, word) == ISK_OK ? 0 : -1;
}

/* Check every "# expect NAME == VALUE" line of the source; returns the number checked. */
static int check_expectations(const char *path, isk_inst *acc)
{
    uint8_t *text;
    size_t len;
    isk_diag d;
    isk_diag_init(&d);
    if (isk_file_read_all(path, &text, &len, &d) != 0) return 0;
    int checked = 0;
    char *save = NULL;
    for (char *line = strtok_r((char *)text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[64];
        long long want;
        if (sscanf(line, "# expect %63s == %lli", name, &want) != 2) continue;
        isk_ref r;
        char msg[200];
        CHECK_EQ(isk_resolve(acc, name, &r, msg, sizeof msg), ISK_OK);
        long long have = isk_ref_read(&r);
        if (have != want) fprintf(stderr, "%s: %s is %lld, expected %lld\n", path, name, have, want);
        CHECK_EQ(have, want);
        checked++;
    }
    free(text);
    return checked;
}

static void run_program(isk_model *m, const char *path)
{
    isk_diag d;
    isk_diag_init(&d);
    const char *inc[] = { PROGRAMS };
    isk_asm_options opt = { .include_dirs = inc, .ninclude_dirs = 1 };
    isk_obj *o = isk_assemble_files(m, &path, 1, "prog.o", &opt, &d);
    CHECK(o != NULL);
    if (!o) return;
    const isk_section *text = &o->secs.data[isk_obj_find_section(o, ".text")];
    isk_system *sys = isk_system_new(NULL);
    isk_inst *acc = isk_system_add(sys, m, "acc");
    CHECK_EQ(isk_attach(sys, acc, 0), ISK_OK);
    launcher l = { text->data, (size_t)(text->size / 4), 0, acc };
    isk_set_driver(sys, launch_next, &l);
    isk_status st = isk_run(sys, 10000);
    CHECK(st == ISK_OK || st == ISK_STOPPED);
    if (st != ISK_OK && st != ISK_STOPPED) fprintf(stderr, "%s: %s\n", path, isk_last_error(sys));
    CHECK_EQ(l.next, l.n);
    int checked = check_expectations(path, acc);
    CHECK(checked > 0);
    printf("%s: %zu commands launched, %d expectations met\n", strrchr(path, '/') + 1, l.n, checked);
    isk_system_free(sys);
    isk_obj_free(o);
}

int main(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_model *m = isk_model_load("example", &d);
    CHECK(m != NULL);
    DIR *dir = opendir(PROGRAMS);
    CHECK(dir != NULL);
    int programs = 0;
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".s") != 0) continue;
        char *path = isk_xasprintf("%s/%s", PROGRAMS, e->d_name);
        run_program(m, path);
        free(path);
        programs++;
    }
    if (dir) closedir(dir);
    CHECK(programs >= 2);
    isk_model_release(m);
    return CHECK_DONE();
}
