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

wisp_result *wisp_run_on_thread(wisp_job job, void *arg) {
  job_call call = {job, arg, NULL};
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0) return wisp_result_error(WISP_ERR_SYSTEM, EAGAIN, "cannot start a thread");
  pthread_attr_setstacksize(&attr, 8u << 20);
  int rc = pthread_create(&thread, &attr, job_main, &call);
  pthread_attr_destroy(&attr);
  if (rc != 0) return wisp_result_error(WISP_ERR_SYSTEM, rc, "cannot start a thread");
  pthread_join(thread, NULL);
  return call.result;
}
