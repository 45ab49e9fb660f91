/* cli_load_program: a source or an image into a processor's code storage. */
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "asm/load.h"
#include "psm/psm.h"
#include "base/str.h"
#include "cli/program.h"
#include "elf/elf_file.h"

/* The .psm front end's words into the code storage, from address 0. */
static bool load_words(isk_inst *inst, const uint32_t *words, size_t n, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    int64_t *values = isk_xcalloc(n ? n : 1, sizeof *values);
    for (size_t i = 0; i < n; i++) values[i] = words[i];
    bool ok = isk_storage_load(inst, m->code_storage, 0, values, n) == ISK_OK;
    if (!ok) isk_error(diag, NULL, "%s: cannot load %zu words into %s", isk_inst_name(inst), n,
                       m->storages.data[m->code_storage].info.name);
    free(values);
    return ok;
}

static bool load_psm(isk_inst *inst, const char *path, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    size_t cap = (size_t)m->storages.data[m->code_storage].info.count, n = 0;
    if (!isk_ends_with(path, ".psm")) {
        int format = psm_image_format_of(path);
        if (format < 0 || format == PSM_C_HEADER) {
            isk_error(diag, NULL, "%s: model '%s' takes a .psm source or a .hex, .mem, .dec or .bin image", path,
                      isk_model_name(m));
            return false;
        }
        uint32_t *words = isk_xcalloc(cap ? cap : 1, sizeof *words);
        bool ok = psm_read_image(path, words, cap, &n, diag) == 0 && load_words(inst, words, n, diag);
        free(words);
        return ok;
    }
    psm_options o;
    psm_options_init(&o, m);
    psm_program *p = psm_assemble_file(path, &o, diag);
    bool ok = p && load_words(inst, p->words, p->has_default_jump ? p->size : p->end, diag);
    if (ok) psm_keep_loaded(inst, path, p, diag);   /* labels and lines for the tools */
    psm_program_free(p);
    return ok;
}

bool cli_load_program(isk_inst *inst, const char *path, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    const char *syntax = isk_get_param(inst, "syntax");
    if (syntax && strcmp(syntax, "psm") == 0) return load_psm(inst, path, diag);
    if (!isk_ends_with(path, ".s") && !isk_ends_with(path, ".S")) return isk_load_executable(inst, path, diag) == 0;
    isk_obj *obj = isk_assemble_files(m, &path, 1, path, NULL, diag);
    if (!obj) return false;
    isk_model_link *ml = isk_model_link_new(m, diag);
    isk_obj *exe = ml ? isk_model_link_objects(ml, &obj, 1, NULL, 0, path, diag) : NULL;
    bool ok = exe && isk_load_obj(inst, exe, NULL, diag) == 0;
    isk_obj_free(exe);
    isk_model_link_free(ml);
    isk_obj_free(obj);
    return ok;
}
