/* The host API's thread pool (hostapi.h): jobs run in the order they were submitted, each on
 * whichever thread is free; a rank is one job, so ranks run in parallel and one rank's DPUs
 * on one thread (an isk_system is driven by one thread at a time). */
#include <stdlib.h>

#include "hostapi.h"

typedef struct job { void (*fn)(void *); void *arg; struct job *next; } job;

struct hapi_pool {
    pthread_mutex_t lock;
    pthread_cond_t work;
    job *head, *tail;
    bool quit;
    uint32_t n;
    pthread_t threads[];
};

static void *worker(void *arg)
{
    hapi_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->head && !p->quit) pthread_cond_wait(&p->work, &p->lock);
        if (!p->head) break;
        job *j = p->head;
        p->head = j->next;
        if (!p->head) p->tail = NULL;
        pthread_mutex_unlock(&p->lock);
        j->fn(j->arg);
        free(j);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

hapi_pool *hapi_pool_new(uint32_t threads)
{
    hapi_pool *p = calloc(1, sizeof *p + threads * sizeof(pthread_t));
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    for (; p->n < threads; p->n++)
        if (pthread_create(&p->threads[p->n], NULL, worker, p) != 0) break;
    if (!p->n) {
        hapi_pool_free(p);
        return NULL;
    }
    return p;
}

void hapi_pool_submit(hapi_pool *p, void (*fn)(void *arg), void *arg)
{
    job *j = malloc(sizeof *j);
    if (!j) abort();
    *j = (job){ fn, arg, NULL };
    pthread_mutex_lock(&p->lock);
    if (p->tail) p->tail->next = j;
    else p->head = j;
    p->tail = j;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

/* Finishes the queued jobs, then stops the threads. */
void hapi_pool_free(hapi_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->n; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    free(p);
}
