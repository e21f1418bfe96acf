/*
 * A log line's header, as condense_log reads it (native/src/log_header.c): the one
 * implementation of the timestamp forms, the level column and a declared level, used per
 * line from JavaScript (src/log/parse/header-native.ts) and per chunk by log_chunk.c.
 */
#ifndef WISP_LOG_HEADER_H
#define WISP_LOG_HEADER_H

#include <stdint.h>

#include "../include/wisp.h"

/* Byte classes as the TypeScript rules' regular expressions read a line's bytes, one char a byte (-1, no byte, is none of them). */
static inline int is_digit(int c) { return c >= '0' && c <= '9'; }
static inline int is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static inline int is_lower(int c) { return c >= 'a' && c <= 'z'; }
static inline int is_letter(int c) { return is_upper(c) || is_lower(c); }
/* A regular expression's word character (\w, \b): ASCII letters, digits and `_`. */
static inline int is_word(int c) { return is_letter(c) || is_digit(c) || c == '_'; }
/* A regular expression's \s: blanks and NBSP. */
static inline int is_space(int c) { return c == ' ' || (c >= 9 && c <= 13) || c == 0xa0; }
static inline int lower(int c) { return is_upper(c) ? c + 32 : c; }

/* No level: what the functions below return where a line declares none. */
#define WISP_LEVEL_NONE (-1)

/*
 * The level words' block, built by src/log/parse/header-native.ts from the level words
 * severity.ts knows (the one list of them): WISP_LEVEL_WORDS_* give its layout.
 */
typedef struct level_words {
  const uint8_t *block;
  /* Level words, then log show's message types (`Default`, `Fault`: matched as written). */
  int32_t count, types;
  /* Trouble words (wisp_trouble_word), and how much of a message they are looked for in. */
  int32_t troubles, window;
  const uint8_t *first, *trouble;
} level_words;

/* The block's words, or count 0 when the block is not one this file can read. */
level_words wisp_level_words_of(const uint8_t *block);

int wisp_match_timestamp(const uint8_t *p, int32_t n, int32_t pos, int32_t *start, int32_t *end);
int32_t wisp_stamp_from(const uint8_t *p, int32_t n, int32_t pos);
/* A timestamped line's header: 1 when p[0, n) has one, with out[WISP_HEADER_*] set. */
int wisp_header_parse(const level_words *w, const uint8_t *p, int32_t n, int32_t content_start, int32_t fields_end, int32_t flags, int32_t column, int32_t *out);
/* Whether p[0, n) holds a trouble word in any case: where a line that declares no level may be more than Info (severity.ts's fromWords). */
int wisp_trouble_word(const level_words *w, const uint8_t *p, int32_t n);
/* The level a line without the input's header declares before its message (its <PRI> or glog letter, its level column, a level word), or WISP_LEVEL_NONE. */
int32_t wisp_plain_level(const level_words *w, const uint8_t *p, int32_t n, int32_t content_start, int32_t from, int32_t flags, int32_t column);

#endif
