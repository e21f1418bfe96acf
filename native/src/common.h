/* Helpers shared by both backends: a growable output buffer, results, escaping. */
#ifndef WISP_COMMON_H
#define WISP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "../include/wisp.h"

typedef struct wisp_buf {
  char *data;
  size_t len;
  size_t cap;
  int failed; /* an allocation failed: later writes are dropped, the result says so */
} wisp_buf;

void wisp_buf_put(wisp_buf *b, const char *s, size_t n);
void wisp_buf_puts(wisp_buf *b, const char *s);
void wisp_buf_putc(wisp_buf *b, char c);
void wisp_buf_printf(wisp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A string field: tab, newline, CR, backslash and other control bytes become \t \n \r \\ \xNN. */
void wisp_buf_put_escaped(wisp_buf *b, const char *s, size_t n);
/*
 * A field of a log line: line breaks and other control bytes (but not tab) become \n \r
 * \xNN, so the field cannot end the line; a backslash stays as it is, since log text is
 * shown, not parsed back, and paths and JSON are full of them.
 */
void wisp_buf_put_line_escaped(wisp_buf *b, const char *s, size_t n);
void wisp_buf_free(wisp_buf *b);

/* Hands the buffer over to a new result (status WISP_OK, or WISP_ERR_MEMORY if it failed). */
wisp_result *wisp_result_from(wisp_buf *b);
wisp_result *wisp_result_error(int32_t status, int sys_errno, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Runs job(arg) on a new thread with an ordinary stack and waits for it. koffi runs async
 * calls on a 128 KiB stack of its own; libsystemd, NSS lookups and Objective-C need more,
 * so every exported long call does its work through this.
 */
typedef wisp_result *(*wisp_job)(void *arg);
wisp_result *wisp_run_on_thread(wisp_job job, void *arg);

/*
 * A thread that lives as long as one object and runs every job on that object, one at a
 * time in the order given: for libraries whose objects must stay on the thread that made
 * them (sd-journal(3)). Jobs are handed over from whichever thread koffi calls on.
 */
typedef struct wisp_worker wisp_worker;
/*
 * Starts the thread (an 8 MiB stack) under a name of at most 15 bytes, which shows in
 * /proc/self/task/<tid>/comm; NULL when it cannot be started (*error says why).
 */
wisp_worker *wisp_worker_start(const char *name, wisp_result **error);
/* Runs job(arg) on the worker's thread and waits for its result. */
wisp_result *wisp_worker_run(wisp_worker *w, wisp_job job, void *arg);
/* Runs job(arg) as the worker's last job, then ends the thread and frees the worker. */
void wisp_worker_finish(wisp_worker *w, wisp_job job, void *arg);

/* Monotonic clock in nanoseconds. */
int64_t wisp_now_ns(void);
/* Sleeps up to ms, in short slices, returning early (1) if the token is set. */
int wisp_sleep_cancellable(int32_t token, int64_t ms);

#endif
