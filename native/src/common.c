/* Output buffers, results, cancel tokens and clocks: the parts both backends share. */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int32_t wisp_abi_version(void) { return WISP_ABI_VERSION; }

const char *wisp_platform(void) {
#if defined(__APPLE__)
  return "macos";
#else
  return "linux";
#endif
}

static int grow(wisp_buf *b, size_t extra) {
  if (b->failed) return 0;
  if (b->len + extra <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + extra) cap *= 2;
  char *p = realloc(b->data, cap);
  if (p == NULL) {
    b->failed = 1;
    return 0;
  }
  b->data = p;
  b->cap = cap;
  return 1;
}

void wisp_buf_put(wisp_buf *b, const char *s, size_t n) {
  if (n == 0 || !grow(b, n)) return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
}

void wisp_buf_puts(wisp_buf *b, const char *s) { wisp_buf_put(b, s, strlen(s)); }

void wisp_buf_putc(wisp_buf *b, char c) {
  if (!grow(b, 1)) return;
  b->data[b->len++] = c;
}

void wisp_buf_printf(wisp_buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    wisp_buf_put(b, small, (size_t)n);
    return;
  }
  if (!grow(b, (size_t)n + 1)) return;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void wisp_buf_put_escaped(wisp_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != 0x7f && c != '\\') continue;
    wisp_buf_put(b, s + run, i - run);
    run = i + 1;
    char esc[4] = {'\\', 0, 0, 0};
    size_t len = 2;
    if (c == '\t') esc[1] = 't';
    else if (c == '\n') esc[1] = 'n';
    else if (c == '\r') esc[1] = 'r';
    else if (c == '\\') esc[1] = '\\';
    else {
      esc[1] = 'x';
      esc[2] = hex[c >> 4];
      esc[3] = hex[c & 15];
      len = 4;
    }
    wisp_buf_put(b, esc, len);
  }
  wisp_buf_put(b, s + run, n - run);
}

void wisp_buf_put_line_escaped(wisp_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c >= 0x20 && c != 0x7f) || c == '\t') continue;
    wisp_buf_put(b, s + run, i - run);
    run = i + 1;
    if (c == '\n') wisp_buf_put(b, "\\n", 2);
    else if (c == '\r') wisp_buf_put(b, "\\r", 2);
    else {
      char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
      wisp_buf_put(b, esc, 4);
    }
  }
  wisp_buf_put(b, s + run, n - run);
}

void wisp_buf_free(wisp_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

wisp_result *wisp_result_from(wisp_buf *b) {
  if (b->failed) {
    wisp_buf_free(b);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }
  wisp_result *r = calloc(1, sizeof *r);
  if (r == NULL) {
    wisp_buf_free(b);
    return NULL;
  }
  r->data = b->data;
  r->len = (int64_t)b->len;
  r->status = WISP_OK;
  b->data = NULL;
  b->len = b->cap = 0;
  return r;
}

wisp_result *wisp_result_error(int32_t status, int sys_errno, const char *fmt, ...) {
  wisp_result *r = calloc(1, sizeof *r);
  if (r == NULL) return NULL;
  r->status = status;
  r->sys_errno = sys_errno;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->message, sizeof r->message, fmt, ap);
  va_end(ap);
  return r;
}

void wisp_result_free(wisp_result *r) {
  if (r == NULL) return;
  free(r->data);
  free(r);
}

/*
 * Cancel tokens. A slot is claimed with a compare-and-swap on `used`; the flag is read
 * with an atomic load by the worker thread that runs the long call.
 */
static int32_t token_used[WISP_MAX_TOKENS];
static int32_t token_flag[WISP_MAX_TOKENS];

int32_t wisp_cancel_new(void) {
  for (int32_t i = 0; i < WISP_MAX_TOKENS; i++) {
    int32_t expected = 0;
    if (__atomic_compare_exchange_n(&token_used[i], &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      __atomic_store_n(&token_flag[i], 0, __ATOMIC_RELEASE);
      return i;
    }
  }
  return -1;
}

void wisp_cancel_set(int32_t token) {
  if (token >= 0 && token < WISP_MAX_TOKENS) __atomic_store_n(&token_flag[token], 1, __ATOMIC_RELEASE);
}

void wisp_cancel_release(int32_t token) {
  if (token < 0 || token >= WISP_MAX_TOKENS) return;
  __atomic_store_n(&token_flag[token], 0, __ATOMIC_RELEASE);
  __atomic_store_n(&token_used[token], 0, __ATOMIC_RELEASE);
}

int wisp_cancelled(int32_t token) {
  return token >= 0 && token < WISP_MAX_TOKENS && __atomic_load_n(&token_flag[token], __ATOMIC_ACQUIRE) != 0;
}

int64_t wisp_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int wisp_sleep_cancellable(int32_t token, int64_t ms) {
  /* Slices of 10 ms: cancelling costs at most that much extra wait. */
  int64_t end = wisp_now_ns() + ms * 1000000;
  for (;;) {
    if (wisp_cancelled(token)) return 1;
    int64_t left = end - wisp_now_ns();
    if (left <= 0) return 0;
    int64_t slice = left < 10000000 ? left : 10000000;
    struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)slice};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
  }
}

typedef struct job_call {
  wisp_job job;
  void *arg;
  wisp_result *result;
} job_call;

static void *job_main(void *p) {
  job_call *call = p;
  call->result = call->job(call->arg);
  return NULL;
}

/* Thread attributes with an 8 MiB stack; 0, or an error result. */
static wisp_result *big_stack(pthread_attr_t *attr) {
  if (pthread_attr_init(attr) != 0) return wisp_result_error(WISP_ERR_SYSTEM, EAGAIN, "cannot start a thread");
  int rc = pthread_attr_setstacksize(attr, 8u << 20);
  if (rc != 0) {
    pthread_attr_destroy(attr);
    return wisp_result_error(WISP_ERR_SYSTEM, rc, "cannot give a thread an 8 MiB stack: %s", strerror(rc));
  }
  return NULL;
}

wisp_result *wisp_run_on_thread(wisp_job job, void *arg) {
  job_call call = {job, arg, NULL};
  pthread_attr_t attr;
  pthread_t thread;
  wisp_result *failed = big_stack(&attr);
  if (failed != NULL) return failed;
  int rc = pthread_create(&thread, &attr, job_main, &call);
  pthread_attr_destroy(&attr);
  if (rc != 0) return wisp_result_error(WISP_ERR_SYSTEM, rc, "cannot start a thread");
  pthread_join(thread, NULL);
  return call.result;
}

/*
 * A worker's queue holds jobs that live on their callers' stacks. Each job has its own
 * lock and condition, so the worker never touches a job (or the caller's stack) after
 * saying it is done, and the worker itself may be freed right after its last job.
 */
typedef struct worker_job {
  wisp_job job;
  void *arg;
  wisp_result *result;
  int done;
  int last; /* the thread ends after this job */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  struct worker_job *next;
} worker_job;

struct wisp_worker {
  pthread_t thread;
  char name[16];
  pthread_mutex_t lock;
  pthread_cond_t more;
  worker_job *head, *tail;
};

static void *worker_main(void *p) {
  wisp_worker *w = p;
#if defined(__APPLE__)
  pthread_setname_np(w->name);
#else
  pthread_setname_np(pthread_self(), w->name);
#endif
  for (;;) {
    pthread_mutex_lock(&w->lock);
    while (w->head == NULL) pthread_cond_wait(&w->more, &w->lock);
    worker_job *j = w->head;
    w->head = j->next;
    if (w->head == NULL) w->tail = NULL;
    pthread_mutex_unlock(&w->lock);
    int last = j->last;
    wisp_result *r = j->job(j->arg);
    pthread_mutex_lock(&j->lock);
    j->result = r;
    j->done = 1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
    if (last) return NULL;
  }
}

wisp_worker *wisp_worker_start(const char *name, wisp_result **error) {
  wisp_worker *w = calloc(1, sizeof *w);
  if (w == NULL) {
    *error = wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
    return NULL;
  }
  snprintf(w->name, sizeof w->name, "%s", name);
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->more, NULL);
  pthread_attr_t attr;
  wisp_result *failed = big_stack(&attr);
  int rc = failed == NULL ? pthread_create(&w->thread, &attr, worker_main, w) : 0;
  if (failed == NULL) pthread_attr_destroy(&attr);
  if (failed == NULL && rc != 0) failed = wisp_result_error(WISP_ERR_SYSTEM, rc, "cannot start a thread");
  if (failed != NULL) {
    pthread_cond_destroy(&w->more);
    pthread_mutex_destroy(&w->lock);
    free(w);
    *error = failed;
    return NULL;
  }
  return w;
}

static wisp_result *post(wisp_worker *w, wisp_job job, void *arg, int last) {
  worker_job j = {.job = job, .arg = arg, .last = last};
  pthread_mutex_init(&j.lock, NULL);
  pthread_cond_init(&j.cond, NULL);
  pthread_mutex_lock(&w->lock);
  if (w->tail != NULL) w->tail->next = &j;
  else w->head = &j;
  w->tail = &j;
  pthread_cond_signal(&w->more);
  pthread_mutex_unlock(&w->lock);
  pthread_mutex_lock(&j.lock);
  while (!j.done) pthread_cond_wait(&j.cond, &j.lock);
  pthread_mutex_unlock(&j.lock);
  pthread_cond_destroy(&j.cond);
  pthread_mutex_destroy(&j.lock);
  return j.result;
}

wisp_result *wisp_worker_run(wisp_worker *w, wisp_job job, void *arg) { return post(w, job, arg, 0); }

void wisp_worker_finish(wisp_worker *w, wisp_job job, void *arg) {
  wisp_result_free(post(w, job, arg, 1));
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->more);
  pthread_mutex_destroy(&w->lock);
  free(w);
}
