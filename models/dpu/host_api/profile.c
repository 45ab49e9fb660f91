/* The allocation profile: "key=value,key=value" (docs/dpu-host-api.md, "Profile keys"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/num.h"
#include "hostapi.h"

#define KEYS "backend, nrDpus, nrDpusPerRank, nrThreads, maxCycles, cycles, report, hostToDpuGBps, " \
             "dpuToHostGBps, xferLatencyUs, or a DPU model parameter"

static bool is_model_param(const isk_model *m, const char *key)
{
    for (int i = 0; i < isk_model_parameter_count(m); i++)
        if (strcmp(isk_model_parameter(m, i)->name, key) == 0) return true;
    return false;
}

static dpu_error_t set_param(hapi_profile *prof, const char *key, const char *value)
{
    for (int i = 0; i < prof->nparams; i++)
        if (strcmp(prof->params[i][0], key) == 0) {
            snprintf(prof->params[i][1], sizeof prof->params[i][1], "%s", value);
            return DPU_OK;
        }
    if (prof->nparams == (int)(sizeof prof->params / sizeof prof->params[0]))
        return hapi_error(DPU_ERR_INVALID_PROFILE, "profile: too many model parameters");
    snprintf(prof->params[prof->nparams][0], sizeof prof->params[0][0], "%s", key);
    snprintf(prof->params[prof->nparams][1], sizeof prof->params[0][1], "%s", value);
    prof->nparams++;
    return DPU_OK;
}

static dpu_error_t number(const char *key, const char *value, uint64_t min, uint64_t max, uint64_t *out)
{
    char why[128];
    if (isk_parse_u64(value, min, max, ISK_UNIT_COUNT, out, why, sizeof why)) return DPU_OK;
    return hapi_error(DPU_ERR_INVALID_PROFILE, "profile: %s: %s", key, why);
}

static dpu_error_t rate(const char *key, const char *value, double *out)
{
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v > 0) || v > 1e6)
        return hapi_error(DPU_ERR_INVALID_PROFILE, "profile: %s: '%s' is not a positive number", key, value);
    *out = v;
    return DPU_OK;
}

dpu_error_t hapi_profile_parse(hapi_profile *prof, const char *text, const isk_model *m)
{
    memset(prof, 0, sizeof *prof);
    prof->dpus_per_rank = 64;
    prof->nr_dpus_all = 64;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    prof->threads = cpus > 0 ? (uint32_t)cpus : 1;
    prof->to_gbps = 1.0;
    prof->from_gbps = 1.0;
    prof->latency_us = 20.0;
    if (!text) return DPU_OK;
    char *copy = strdup(text), *save = NULL;
    if (!copy) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    dpu_error_t rc = DPU_OK;
    for (char *item = strtok_r(copy, ",", &save); item && rc == DPU_OK; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) {
            rc = hapi_error(DPU_ERR_INVALID_PROFILE, "profile: '%s' is not key=value", item);
            break;
        }
        *eq = 0;
        const char *key = item, *value = eq + 1;
        uint64_t v;
        if (strcmp(key, "backend") == 0) {
            if (strcmp(value, "simulator") != 0)
                rc = hapi_error(DPU_ERR_INVALID_PROFILE, "profile: backend=%s: isekit simulates the DPUs "
                                "(backend=simulator)", value);
        } else if (strcmp(key, "nrDpus") == 0) {
            if ((rc = number(key, value, 1, 1u << 20, &v)) == DPU_OK) prof->nr_dpus_all = (uint32_t)v;
        } else if (strcmp(key, "nrDpusPerRank") == 0) {
            if ((rc = number(key, value, 1, 64, &v)) == DPU_OK) prof->dpus_per_rank = (uint32_t)v;
        } else if (strcmp(key, "nrThreads") == 0) {
            if ((rc = number(key, value, 1, 1024, &v)) == DPU_OK) prof->threads = (uint32_t)v;
        } else if (strcmp(key, "maxCycles") == 0) {
            if ((rc = number(key, value, 0, UINT64_MAX, &v)) == DPU_OK) prof->max_cycles = v;
        } else if (strcmp(key, "cycles") == 0) {
            if ((rc = number(key, value, 0, 1, &v)) == DPU_OK) rc = set_param(prof, "mode", v ? "cycle" : "functional");
        } else if (strcmp(key, "report") == 0) {
            if ((rc = number(key, value, 0, 1, &v)) == DPU_OK) prof->report = v;
        } else if (strcmp(key, "hostToDpuGBps") == 0) {
            rc = rate(key, value, &prof->to_gbps);
        } else if (strcmp(key, "dpuToHostGBps") == 0) {
            rc = rate(key, value, &prof->from_gbps);
        } else if (strcmp(key, "xferLatencyUs") == 0) {
            double d;
            if ((rc = rate(key, value, &d)) == DPU_OK) prof->latency_us = d;
        } else if (is_model_param(m, key)) {
            char why[256];
            if (!isk_model_check_param(m, key, value, why, sizeof why))
                rc = hapi_error(DPU_ERR_INVALID_PROFILE, "profile: %s", why);
            else
                rc = set_param(prof, key, value);
        } else {
            rc = hapi_error(DPU_ERR_INVALID_PROFILE, "profile: unknown key '%s' (the keys: " KEYS ")", key);
        }
    }
    free(copy);
    return rc;
}
