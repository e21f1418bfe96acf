/*
 * The macOS unified log through OSLogStore (OSLog framework, macOS 12+), read in wisp's
 * own process: /usr/bin/log refuses to run while sandboxed (so it cannot serve the sandboxed server).
 * OSLogStore.local needs an admin user. The position comes from the start date; the
 * process and subsystem predicate is re-checked in code, since predicate filtering has
 * been unreliable in some scopes. Entries are written as log show compact-style lines,
 * `2026-10-04 03:02:15.445 E  proc[pid:tid] [subsystem:category] message`, whose type
 * decides severity in wisp's log parser; the thread id in hex, as log show prints it.
 * Every field is escaped as it is written (process, subsystem, category, message), so one
 * entry is always one line: a process cannot forge a line through its own log text.
 * Each wisp_log keeps one thread from open to close (its objects and autorelease pools
 * stay on it).
 *
 * Written against Apple's documented API (OSLog/OSLogStore.h, OSLogEntryLog.h); built
 * only on macOS with -fobjc-arc, and not built or run in this repository's Linux CI.
 */
#import <Foundation/Foundation.h>
#import <OSLog/OSLog.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

struct wisp_log {
  wisp_worker *worker; /* started by the first open; every OSLog call runs on it */
  void *store;      /* OSLogStore, retained (CFBridgingRetain) */
  void *enumerator; /* OSLogEnumerator, retained */
  void *process;    /* NSString or NULL */
  void *subsystem;  /* NSString or NULL */
  double since;     /* seconds since the epoch */
  double until;     /* 0: no end */
  int ended;
};

wisp_log *wisp_log_new(void) { return calloc(1, sizeof(wisp_log)); }

static void release(void **p) {
  if (*p != NULL) CFRelease(*p);
  *p = NULL;
}

static wisp_result *close_job(void *p) {
  wisp_log *log = p;
  @autoreleasepool {
    release(&log->enumerator);
    release(&log->store);
    release(&log->process);
    release(&log->subsystem);
  }
  return NULL;
}

void wisp_log_close(wisp_log *log) {
  if (log == NULL) return;
  /* Queued behind a read still running, so nothing is released under it. */
  if (log->worker != NULL) wisp_worker_finish(log->worker, close_job, log);
  free(log);
}

static wisp_result *log_open(wisp_log *log, const char *file, int64_t since_usec, int64_t until_usec, const char *process,
                             const char *subsystem) {
  if (log == NULL || file == NULL || process == NULL || subsystem == NULL || since_usec < 0 || until_usec < 0)
    return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "bad arguments to wisp_log_open");
  if (log->store != NULL) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "log already open");
  @autoreleasepool {
    if (@available(macOS 12.0, *)) {
      NSError *error = nil;
      OSLogStore *store = nil;
      if (file[0] != '\0') {
        NSURL *url = [NSURL fileURLWithPath:[NSString stringWithUTF8String:file]];
        store = [OSLogStore storeWithURL:url error:&error];
      } else {
        store = [OSLogStore localStoreAndReturnError:&error];
      }
      if (store == nil) {
        return wisp_result_error(WISP_ERR_UNAVAILABLE, EPERM, "cannot open the unified log: %s",
                                 error ? error.localizedDescription.UTF8String : "unknown error");
      }
      NSMutableArray<NSPredicate *> *parts = [NSMutableArray array];
      NSString *proc = nil, *sub = nil;
      if (process[0] != '\0') {
        proc = [NSString stringWithUTF8String:process];
        [parts addObject:[NSPredicate predicateWithFormat:@"process == %@", proc]];
      }
      if (subsystem[0] != '\0') {
        sub = [NSString stringWithUTF8String:subsystem];
        [parts addObject:[NSPredicate predicateWithFormat:@"subsystem == %@", sub]];
      }
      NSPredicate *predicate = parts.count > 0 ? [NSCompoundPredicate andPredicateWithSubpredicates:parts] : nil;
      NSDate *since = [NSDate dateWithTimeIntervalSince1970:(double)since_usec / 1e6];
      OSLogPosition *position = [store positionWithDate:since];
      OSLogEnumerator *entries = [store entriesEnumeratorWithOptions:0 position:position predicate:predicate error:&error];
      if (entries == nil) {
        return wisp_result_error(WISP_ERR_SYSTEM, EIO, "cannot read the unified log: %s",
                                 error ? error.localizedDescription.UTF8String : "unknown error");
      }
      log->store = (void *)CFBridgingRetain(store);
      log->enumerator = (void *)CFBridgingRetain(entries);
      log->process = proc ? (void *)CFBridgingRetain(proc) : NULL;
      log->subsystem = sub ? (void *)CFBridgingRetain(sub) : NULL;
      log->since = (double)since_usec / 1e6;
      log->until = (double)until_usec / 1e6;
      wisp_buf b = {0};
      wisp_buf_puts(&b, "F\t1\n");
      return wisp_result_from(&b);
    } else {
      return wisp_result_error(WISP_ERR_UNAVAILABLE, ENOTSUP, "OSLogStore needs macOS 12 or later");
    }
  }
  return NULL; /* not reached */
}

/* log show compact style's two-character types. */
static const char *type_code(OSLogEntryLogLevel level) {
  switch (level) {
    case OSLogEntryLogLevelDebug: return "Db";
    case OSLogEntryLogLevelInfo: return "I ";
    case OSLogEntryLogLevelError: return "E ";
    case OSLogEntryLogLevelFault: return "F ";
    case OSLogEntryLogLevelNotice:
    case OSLogEntryLogLevelUndefined:
    default: return "Df";
  }
}

/* A field of the line, escaped: no field can end the line. */
static void put_ns(wisp_buf *b, NSString *s) {
  const char *u = s.UTF8String;
  if (u != NULL) wisp_buf_put_line_escaped(b, u, strlen(u));
}

static void put_entry(wisp_buf *b, OSLogEntryLog *e, double when) {
  time_t secs = (time_t)when;
  struct tm tm;
  char stamp[32];
  localtime_r(&secs, &tm);
  strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
  unsigned ms = (unsigned)((when - (double)secs) * 1000.0);
  if (ms > 999) ms = 999;
  wisp_buf_printf(b, "%s.%03u %s ", stamp, ms, type_code(e.level));
  put_ns(b, e.process);
  wisp_buf_printf(b, "[%d:%llx] ", (int)e.processIdentifier, (unsigned long long)e.threadIdentifier);
  if (e.subsystem.length > 0) {
    wisp_buf_putc(b, '[');
    put_ns(b, e.subsystem);
    wisp_buf_putc(b, ':');
    put_ns(b, e.category);
    wisp_buf_puts(b, "] ");
  }
  /* A message with newlines stays on this line: they are escaped like every other field's. */
  put_ns(b, [e.composedMessage stringByTrimmingCharactersInSet:NSCharacterSet.newlineCharacterSet]);
  wisp_buf_putc(b, '\n');
}

static wisp_result *log_read(wisp_log *log, int32_t token, int32_t max_bytes) {
  if (log == NULL || log->enumerator == NULL || max_bytes <= 0)
    return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "log not open");
  wisp_buf b = {0};
  if (@available(macOS 12.0, *)) {
    OSLogEnumerator *entries = (__bridge OSLogEnumerator *)log->enumerator;
    NSString *proc = (__bridge NSString *)log->process;
    NSString *sub = (__bridge NSString *)log->subsystem;
    unsigned count = 0;
    while (!log->ended && b.len < (size_t)max_bytes) {
      if ((count++ & 255) == 0 && wisp_cancelled(token)) {
        wisp_buf_free(&b);
        return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
      }
      @autoreleasepool {
        id next = [entries nextObject];
        if (next == nil) {
          log->ended = 1;
          break;
        }
        if (![next isKindOfClass:[OSLogEntryLog class]]) continue;
        OSLogEntryLog *e = next;
        double when = e.date.timeIntervalSince1970;
        if (when < log->since) continue;
        if (log->until > 0 && when > log->until) {
          log->ended = 1;
          break;
        }
        if (proc != nil && ![e.process isEqualToString:proc]) continue;
        if (sub != nil && ![e.subsystem isEqualToString:sub]) continue;
        put_entry(&b, e, when);
      }
    }
  } else {
    return wisp_result_error(WISP_ERR_UNAVAILABLE, ENOTSUP, "OSLogStore needs macOS 12 or later");
  }
  wisp_result *r = wisp_result_from(&b);
  if (r != NULL && r->status == WISP_OK && log->ended) r->status = WISP_END;
  return r;
}

typedef struct log_args {
  wisp_log *log;
  const char *file, *process, *subsystem;
  int64_t since, until;
  int32_t token, max_bytes;
} log_args;

static wisp_result *open_job(void *p) {
  log_args *a = p;
  return log_open(a->log, a->file, a->since, a->until, a->process, a->subsystem);
}

static wisp_result *read_job(void *p) {
  log_args *a = p;
  return log_read(a->log, a->token, a->max_bytes);
}

wisp_result *wisp_log_open(wisp_log *log, const char *file, int64_t since_usec, int64_t until_usec, const char *process,
                           const char *subsystem) {
  if (log == NULL) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "bad arguments to wisp_log_open");
  if (log->worker == NULL) {
    wisp_result *error = NULL;
    log->worker = wisp_worker_start("wisp-log", &error);
    if (log->worker == NULL) return error;
  }
  log_args a = {.log = log, .file = file, .process = process, .subsystem = subsystem, .since = since_usec, .until = until_usec};
  return wisp_worker_run(log->worker, open_job, &a);
}

wisp_result *wisp_log_read(wisp_log *log, int32_t token, int32_t max_bytes) {
  if (log == NULL || log->worker == NULL) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "log not open");
  log_args a = {.log = log, .token = token, .max_bytes = max_bytes};
  return wisp_worker_run(log->worker, read_job, &a);
}
