/*
 * A log line's template: its message with variables replaced by typed placeholders, so
 * that lines of the same event share one key (src/log/parse/template.ts reads the state
 * this writes). condense_log's hot path: one pass over the message's bytes hashes the
 * template (two 32-bit hashes, the group key) and records its verbatim runs and
 * placeholders as byte ranges, so the template's text is built only for a new group.
 *
 * Reads of bytes past `end` (the byte after a token, a colour code's next bytes) see the
 * buffer's real bytes up to `len` and nothing past it, as the rules were written.
 */
#include <stddef.h>

#include "../include/wisp.h"

enum { VERBATIM = 0, NUM = 1, HEXV = 2, UUID = 3, IP = 4, MAC = 5, PID = 6 };

#define TAB 9
#define SPACE 32
#define QUOTE 34
#define APOS 39
#define LPAREN 40
#define RPAREN 41
#define COMMA 44
#define MINUS 45
#define DOT 46
#define ZERO 48
#define COLON 58
#define SEMI 59
#define LT 60
#define EQ 61
#define GT 62
#define LBRACKET 91
#define RBRACKET 93
#define LBRACE 123
#define PIPE 124
#define RBRACE 125
#define LOWER_X 120
#define ESC 27
#define CARET 94

#define FNV 0x01000193u
#define MUR 0x5bd1e995u

/* Byte classes: 1 digit, 2 hex letter, 3 other ASCII letter, 0 anything else. */
static uint8_t CLASS[256];
/*
 * Bytes that end a token. `:`, `.`, `/`, `-`, `_` and `@` stay inside tokens so that
 * addresses, paths and ids are classified whole; ESC and `^` end tokens so that a colour
 * code inside a word is seen and dropped.
 */
static uint8_t DELIMITER[256];
/* A token's bytes in one read: 1 a delimiter (the token ends), 2 a digit (counted). */
static uint8_t TOKEN_BYTE[256];
/* Punctuation that can stand before a value without being part of it. */
static uint8_t LEADING_PUNCT[256];
/* Built when the library is loaded, before any thread can scan. */
__attribute__((constructor)) static void build_tables(void) {
  static const uint8_t delimiters[] = {TAB, SPACE, QUOTE, APOS, LPAREN, RPAREN, COMMA, SEMI, LT,
                                       EQ, GT, LBRACKET, RBRACKET, LBRACE, PIPE, RBRACE, ESC, CARET};
  for (int c = '0'; c <= '9'; c++) CLASS[c] = 1;
  for (int c = 'a'; c <= 'z'; c++) CLASS[c] = c <= 'f' ? 2 : 3;
  for (int c = 'A'; c <= 'Z'; c++) CLASS[c] = c <= 'F' ? 2 : 3;
  for (size_t k = 0; k < sizeof delimiters; k++) DELIMITER[delimiters[k]] = 1;
  for (int c = 0; c < 256; c++) TOKEN_BYTE[c] = DELIMITER[c] ? 1 : CLASS[c] == 1 ? 2 : 0;
  for (const char *p = "/*#@~!%&+\\$?"; *p; p++) LEADING_PUNCT[(uint8_t)*p] = 1;
}

typedef struct scan {
  const uint8_t *b;
  int32_t len;
  uint32_t h1, h2;
  int32_t *from, *to, *kind;
  int32_t segs;
} scan;

/* The byte at k, or -1 past the buffer (JavaScript's undefined: equal to no byte). */
static inline int at(const scan *s, int32_t k) { return k >= 0 && k < s->len ? s->b[k] : -1; }
static inline int is_digit(int c) { return c >= 0 && CLASS[c] == 1; }
static inline int is_hex(int c) { return c >= 0 && (CLASS[c] == 1 || CLASS[c] == 2); }

static inline void hash_byte(scan *s, uint32_t c) {
  s->h1 = (s->h1 ^ c) * FNV;
  s->h2 = ((s->h2 + c) * MUR) ^ (s->h2 >> 13);
}

/* Records bytes already hashed; joins a verbatim run that ends where this one starts. */
static void push_verbatim(scan *s, int32_t from, int32_t to) {
  if (to <= from) return;
  int32_t n = s->segs;
  if (n > 0 && s->kind[n - 1] == VERBATIM && s->to[n - 1] == from) {
    s->to[n - 1] = to;
    return;
  }
  if (n >= WISP_TEMPLATE_SEGMENTS) return;
  s->from[n] = from;
  s->to[n] = to;
  s->kind[n] = VERBATIM;
  s->segs = n + 1;
}

/* Hashes and records verbatim bytes inside a variable token. */
static void emit_verbatim(scan *s, int32_t from, int32_t to) {
  for (int32_t i = from; i < to; i++) hash_byte(s, s->b[i]);
  push_verbatim(s, from, to);
}

/* A placeholder for bytes [from, to), which are its value. <HEX> hashes as <NUM>: a bare hex id is all digits now and then. */
static void emit_placeholder(scan *s, int kind, int32_t from, int32_t to) {
  uint32_t hashed = kind == HEXV ? NUM : (uint32_t)kind;
  /* A zero byte first: placeholders cannot hash like text. */
  s->h1 = ((s->h1 * FNV) ^ hashed) * FNV;
  s->h2 = (((s->h2 * MUR) + hashed) * MUR) ^ (s->h2 >> 13);
  int32_t n = s->segs;
  if (n >= WISP_TEMPLATE_SEGMENTS) return;
  s->kind[n] = kind;
  s->from[n] = from;
  s->to[n] = to;
  s->segs = n + 1;
}

/* The end of an ANSI CSI sequence whose introducer ends at i + 1 (ESC [ parameters final-byte). */
static int32_t skip_ansi(const uint8_t *b, int32_t i, int32_t end) {
  int32_t k = i + 2;
  while (k < end && b[k] >= 0x20 && b[k] <= 0x3f) k++;
  return k < end && b[k] >= 0x40 && b[k] <= 0x7e ? k + 1 : k;
}

/* aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff (17 bytes from a, within the token). */
static int is_mac(const uint8_t *b, int32_t a) {
  uint8_t sep = b[a + 2];
  if (sep != COLON && sep != MINUS) return 0;
  for (int k = 0; k < 17; k++) {
    uint8_t c = b[a + k];
    if (k % 3 == 2) {
      if (c != sep) return 0;
    } else if (!is_hex(c)) return 0;
  }
  return 1;
}

static int hex_run(const uint8_t *b, int32_t from, int32_t to) {
  for (int32_t i = from; i < to; i++)
    if (!is_hex(b[i])) return 0;
  return 1;
}

/* 36 bytes from a (within the token): 8-4-4-4-12 hex digits. */
static int is_uuid(const uint8_t *b, int32_t a) {
  return b[a + 8] == MINUS && b[a + 13] == MINUS && b[a + 18] == MINUS && b[a + 23] == MINUS && hex_run(b, a, a + 8) &&
         hex_run(b, a + 9, a + 13) && hex_run(b, a + 14, a + 18) && hex_run(b, a + 19, a + 23) && hex_run(b, a + 24, a + 36);
}

/* `123` or `123:456` (thread ids may be hex) between brackets: a pid, or pid and thread. */
static int is_pid_tid(const uint8_t *b, int32_t a, int32_t e) {
  int colons = 0;
  for (int32_t i = a; i < e; i++) {
    uint8_t c = b[i];
    if (c == COLON) {
      if (++colons > 1 || i == a || i == e - 1) return 0;
    } else if (!is_hex(c)) return 0;
  }
  return is_digit(b[a]);
}

static int all_hex(const uint8_t *b, int32_t a, int32_t e) { return e > a && hex_run(b, a, e); }

/* Dotted quad, optionally with `:port`. */
static int is_ipv4(const uint8_t *b, int32_t a, int32_t e) {
  int dots = 0, run = 0;
  for (int32_t i = a; i < e; i++) {
    uint8_t c = b[i];
    if (CLASS[c] == 1) {
      if (++run > 3) return 0;
    } else if (c == DOT) {
      if (run == 0 || ++dots > 3) return 0;
      run = 0;
    } else if (c == COLON && dots == 3 && run > 0) {
      for (int32_t k = i + 1; k < e; k++)
        if (CLASS[b[k]] != 1) return 0;
      return i + 1 < e;
    } else return 0;
  }
  return dots == 3 && run > 0;
}

/* IPv6 addresses: hex groups joined by colons, with `::` or at least six groups. */
static int is_colon_hex(const uint8_t *b, int32_t a, int32_t e) {
  int colons = 0, double_colon = 0, run = 0;
  for (int32_t i = a; i < e; i++) {
    uint8_t c = b[i];
    if (c == COLON) {
      if (run == 0 && i > a) double_colon = 1;
      colons++;
      run = 0;
    } else if (is_hex(c)) {
      if (++run > 4) return 0;
    } else if (c != DOT) return 0;
  }
  return double_colon ? colons >= 2 : colons >= 5;
}

/*
 * Alphanumeric runs inside a token: all digits become <NUM> (a decimal point included),
 * hex-looking runs of four or more become <HEX>, and other runs keep their letters with
 * their digit runs replaced (`worker12` and `worker13` share `worker<NUM>`).
 */
static void mask_parts(scan *s, int32_t a, int32_t e) {
  const uint8_t *b = s->b;
  int32_t i = a;
  while (i < e) {
    if (CLASS[b[i]] == 0) {
      int32_t j = i + 1;
      while (j < e && CLASS[b[j]] == 0) j++;
      /* A minus between a separator and digits is a sign (`blk_-42` is `blk_` and -42). */
      int sign = b[j - 1] == MINUS && j < e && CLASS[b[j]] == 1 && (j - 1 == a || CLASS[b[j - 2]] == 0);
      emit_verbatim(s, i, sign ? j - 1 : j);
      i = j;
      continue;
    }
    /* A UUID inside a longer token (`req-38101a0b-2096-447d-96ea-a692162415ae`). */
    if (e - i >= 36 && (i == a || CLASS[b[i - 1]] == 0) && (e - i == 36 || CLASS[b[i + 36]] == 0) && is_uuid(b, i)) {
      emit_placeholder(s, UUID, i, i + 36);
      i += 36;
      continue;
    }
    int32_t j = i;
    int digits = 0, other = 0;
    while (j < e) {
      uint8_t cls = CLASS[b[j]];
      if (cls == 0) break;
      if (cls == 1) digits++;
      else if (cls == 3) other++;
      j++;
    }
    if (digits == 0) {
      emit_verbatim(s, i, j);
    } else if (digits == j - i) {
      /* A decimal number: swallow `.digits` so that 3.14 is one placeholder. */
      if (at(s, j) == DOT && is_digit(at(s, j + 1))) {
        j++;
        while (j < e && is_digit(b[j])) j++;
      }
      emit_placeholder(s, NUM, i, j);
    } else if (other == 0 && j - i >= 4) {
      emit_placeholder(s, HEXV, i, j);
    } else {
      for (int32_t k = i; k < j;) {
        int32_t m = k;
        if (is_digit(b[k])) {
          while (m < j && is_digit(b[m])) m++;
          emit_placeholder(s, NUM, k, m);
        } else {
          while (m < j && !is_digit(b[m])) m++;
          emit_verbatim(s, k, m);
        }
        k = m;
      }
    }
    i = j;
  }
}

/* A token that holds a digit (or is a MAC), classified whole first, then part by part. */
static void mask_token(scan *s, int32_t a, int32_t end, int32_t digits) {
  const uint8_t *b = s->b;
  /* Trailing sentence punctuation is not part of the value ("port 8080." "from 10.0.0.1:"). */
  int32_t e = end;
  while (e - a > 1 && (b[e - 1] == DOT || b[e - 1] == COLON)) e--;
  /* Leading punctuation neither (`/10.0.0.1`, `*42`, `#7`); a minus sign before digits stays with them, and `::1` keeps its colons. */
  int32_t start = a;
  while (a < e - 1 && LEADING_PUNCT[b[a]]) a++;
  if (a > start) emit_verbatim(s, start, a);
  if (b[a] == MINUS && digits == e - a - 1) {
    emit_placeholder(s, NUM, a, e);
    emit_verbatim(s, e, end);
    return;
  }
  int32_t len = e - a;
  int bracketed = a > 0 && b[a - 1] == LBRACKET && at(s, e) == RBRACKET;
  int kind = -1;
  /* The scan counted the digits: a plain number needs no further look. */
  if (digits == len) kind = bracketed ? PID : NUM;
  else if (bracketed && is_pid_tid(b, a, e)) kind = PID;
  else if (len == 36 && is_uuid(b, a)) kind = UUID;
  else if (len > 2 && b[a] == ZERO && (b[a + 1] | 32) == LOWER_X && all_hex(b, a + 2, e)) kind = HEXV;
  else if (len == 17 && is_mac(b, a)) kind = MAC;
  else if (is_ipv4(b, a, e) || is_colon_hex(b, a, e)) kind = IP;
  if (kind >= 0) emit_placeholder(s, kind, a, e);
  else mask_parts(s, a, e);
  emit_verbatim(s, e, end);
}

static const uint8_t MARKER_WORD[] = "REDACTED:";
#define MARKER_LENGTH (sizeof MARKER_WORD - 1)

/* Whether the token [i, j) is the inside of a redaction marker: `[REDACTED:kind]`. */
static int is_redaction_marker(const scan *s, int32_t i, int32_t j) {
  if (at(s, i - 1) != LBRACKET || at(s, j) != RBRACKET || j - i <= (int32_t)MARKER_LENGTH) return 0;
  for (size_t k = 0; k < MARKER_LENGTH; k++)
    if (s->b[i + k] != MARKER_WORD[k]) return 0;
  return 1;
}

int32_t wisp_template_add(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t *state) {
  /* An empty buffer may come as NULL. */
  if (state == 0 || start < 0 || end < start || end > len || (buf == 0 && len > 0)) return WISP_ERR_ARGUMENT;
  int32_t budget = state[WISP_TEMPLATE_BUDGET];
  if (end - start > budget) {
    end = start + budget;
    state[WISP_TEMPLATE_CUT] = 1;
  }
  state[WISP_TEMPLATE_BUDGET] = budget - (end - start);
  scan s = {
      .b = buf,
      .len = len,
      .h1 = (uint32_t)state[WISP_TEMPLATE_H1],
      .h2 = (uint32_t)state[WISP_TEMPLATE_H2],
      .from = state + WISP_TEMPLATE_HEAD,
      .to = state + WISP_TEMPLATE_HEAD + WISP_TEMPLATE_SEGMENTS,
      .kind = state + WISP_TEMPLATE_HEAD + 2 * WISP_TEMPLATE_SEGMENTS,
      .segs = state[WISP_TEMPLATE_SEGS],
  };
  const uint8_t *b = buf;
  int32_t verbatim_from = start;
  int32_t i = start;
  while (i < end) {
    uint8_t c = b[i];
    if (DELIMITER[c]) {
      if ((c == ESC || c == CARET) && at(&s, i + 1) == LBRACKET && (c == ESC || at(&s, i + 2) == LBRACKET)) {
        /* Terminal colours (CI logs are full of them) are no part of the event; copied logs show ESC as a literal `^[`. */
        push_verbatim(&s, verbatim_from, i);
        i = skip_ansi(b, c == ESC ? i : i + 1, end);
        verbatim_from = i;
        continue;
      }
      if (c == SPACE || c == TAB) {
        /* A run of blanks is one separator: padding that varies with a number's width does not split an event. */
        hash_byte(&s, SPACE);
        i++;
        while (i < end && (b[i] == SPACE || b[i] == TAB)) i++;
        continue;
      }
      hash_byte(&s, c);
      i++;
      continue;
    }
    /* A token: its end and digits first, then hashed as verbatim unless it is a variable. */
    int32_t j = i;
    int32_t digits = 0;
    for (; j < end; j++) {
      uint8_t t = TOKEN_BYTE[b[j]];
      if (t == 1) break;
      digits += t >> 1;
    }
    /* A MAC address can be all letters; every other variable holds a digit. A redaction marker's kind is a word. */
    if ((digits > 0 || (j - i == 17 && is_mac(b, i))) && !is_redaction_marker(&s, i, j)) {
      push_verbatim(&s, verbatim_from, i);
      mask_token(&s, i, j, digits);
      verbatim_from = j;
    } else {
      for (int32_t k = i; k < j; k++) hash_byte(&s, b[k]);
    }
    i = j;
  }
  push_verbatim(&s, verbatim_from, end);
  state[WISP_TEMPLATE_H1] = (int32_t)s.h1;
  state[WISP_TEMPLATE_H2] = (int32_t)s.h2;
  state[WISP_TEMPLATE_SEGS] = s.segs;
  return WISP_OK;
}
