#define _GNU_SOURCE
#include "linux_util.h"

#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

ssize_t wisp_read_file(const char *path, char *buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  size_t got = 0;
  while (got + 1 < cap) {
    ssize_t n = read(fd, buf + got, cap - 1 - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      return -e;
    }
    if (n == 0) break;
    got += (size_t)n;
  }
  close(fd);
  buf[got] = '\0';
  return (ssize_t)got;
}

ssize_t wisp_read_whole(const char *path, wisp_buf *out, size_t max, int *more) {
  out->len = 0;
  *more = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  char chunk[4096];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      return -e;
    }
    if (n == 0) break;
    size_t take = (size_t)n;
    if (out->len + take > max) {
      take = max - out->len;
      *more = 1;
    }
    wisp_buf_put(out, chunk, take);
    if (*more) break;
  }
  close(fd);
  if (out->failed) return -ENOMEM;
  return (ssize_t)out->len;
}

int wisp_is_pid_name(const char *name) {
  if (*name == '\0') return 0;
  for (const char *p = name; *p; p++)
    if (*p < '0' || *p > '9') return 0;
  return 1;
}

const char *wisp_basename_n(const char *s, size_t n, size_t *out_len) {
  size_t start = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '/') start = i + 1;
  *out_len = n - start;
  return s + start;
}
