/* `.S` files: the system C preprocessor in assembler-with-cpp mode, as GNU toolchains run it.
 * Its output keeps `# line "file"` markers, so messages still point into the original files. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asm/asm_int.h"
#include "base/file.h"

#ifndef ISEKIT_CC
#define ISEKIT_CC "cc"
#endif

extern char **environ;

/* The folders registered by ASM_MODEL_INCLUDE (asm.h); weak, as a program may register none. */
extern const isk_asm_model_include *const __start_isk_asm_includes[] __attribute__((weak));
extern const isk_asm_model_include *const __stop_isk_asm_includes[] __attribute__((weak));

static int temp_file(char *path, size_t cap, const char *what)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, cap, "%s/isekit-%s-XXXXXX", dir && *dir ? dir : "/tmp", what);
    return mkstemp(path);
}

/* The preprocessor's own messages, minus the trailing newline. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return isk_xstrdup("");
    VEC(char) t = { 0 };
    int c;
    while ((c = fgetc(f)) != EOF && t.len < 8192) VEC_PUSH(&t, (char)c);
    fclose(f);
    while (t.len && t.data[t.len - 1] == '\n') t.len--;
    VEC_PUSH(&t, 0);
    return t.data;
}

char *asm_preprocess(const char *path, const isk_asm_options *opt, const char *model_name, isk_diag *diag,
                     size_t *len)
{
    const char *cc = getenv("ISEKIT_CC");
    if (!cc || !*cc) cc = ISEKIT_CC;
    char out_path[512], err_path[512];
    int out_fd = temp_file(out_path, sizeof out_path, "cpp");
    int err_fd = out_fd >= 0 ? temp_file(err_path, sizeof err_path, "cpperr") : -1;
    if (out_fd < 0 || err_fd < 0) {
        isk_error(diag, NULL, "%s: cannot create a temporary file for the C preprocessor: %s", path, strerror(errno));
        if (out_fd >= 0) close(out_fd), unlink(out_path);
        return NULL;
    }
    VEC(char *) argv = { 0 };
    VEC(char *) owned = { 0 };
    VEC_PUSH(&argv, (char *)cc);
    VEC_PUSH(&argv, "-E");
    VEC_PUSH(&argv, "-x");
    VEC_PUSH(&argv, "assembler-with-cpp");
    VEC_PUSH(&argv, "-D__ISEKIT__=1");
    char *model_def = isk_xasprintf("-D__ISEKIT_MODEL_%s__=1", model_name);
    VEC_PUSH(&owned, model_def);
    VEC_PUSH(&argv, model_def);
    for (size_t i = 0; opt && i < opt->ninclude_dirs; i++) {
        char *s = isk_xasprintf("-I%s", opt->include_dirs[i]);
        VEC_PUSH(&owned, s);
        VEC_PUSH(&argv, s);
    }
    /* The model's own headers after the user's, so that a user's -I can replace one. */
    for (const isk_asm_model_include *const *f = __start_isk_asm_includes; f && f < __stop_isk_asm_includes; f++) {
        if (strcmp((*f)->model, model_name) != 0) continue;
        char *s = isk_xasprintf("-idirafter%s", (*f)->dir);
        VEC_PUSH(&owned, s);
        VEC_PUSH(&argv, s);
    }
    for (size_t i = 0; opt && i < opt->ndefines; i++) {
        char *s = isk_xasprintf("-D%s", opt->defines[i]);
        VEC_PUSH(&owned, s);
        VEC_PUSH(&argv, s);
    }
    VEC_PUSH(&argv, (char *)path);
    VEC_PUSH(&argv, NULL);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, cc, &fa, NULL, argv.data, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out_fd);
    close(err_fd);
    char *result = NULL;
    if (rc != 0) {
        isk_error(diag, NULL, "%s: cannot run the C preprocessor '%s': %s (set ISEKIT_CC)", path, cc, strerror(rc));
        goto done;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *msg = read_text(err_path);
        isk_error(diag, NULL, "%s: the C preprocessor (%s) failed%s%s", path, cc, *msg ? ":\n" : "", msg);
        free(msg);
        goto done;
    }
    uint8_t *data;
    if (isk_file_read_all(out_path, &data, len, diag) == 0) result = (char *)data;
done:
    unlink(out_path);
    unlink(err_path);
    for (size_t i = 0; i < owned.len; i++) free(owned.data[i]);
    VEC_FREE(&owned);
    VEC_FREE(&argv);
    return result;
}
