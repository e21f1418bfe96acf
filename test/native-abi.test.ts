/**
 * The C ABI and the TypeScript that binds it agree: status codes, the ABI version and the
 * constants both sides use are read from native/include/wisp.h, and the built library
 * exports exactly the functions wisp.h declares with WISP_EXPORT (hidden visibility keeps
 * the helpers the backends share out of the dynamic symbol table).
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ABI_VERSION, libraryPath, nativeLibrary, Status } from '../src/native/library.js';
import { PORTS_PROCFS } from '../src/native/ports.js';
import { CMDLINE_MAX_BYTES } from '../src/native/processes.js';
import { MAX_TEMPLATE_BYTES, TEMPLATE_SEED, TEMPLATE_STATE } from '../src/log/parse/template.js';
import { CHAR_CLASS_NAMES, CONTEXT_CODES, SCAN_LAYOUT, SHAPES } from '../src/redact/scan.js';
import { RunEvent } from '../src/redact/run-events.js';
import { ROOT } from './helpers.js';
import { HEADER_FLAG, HEADER_OUT, LEVEL_BAD_ARGUMENT, LEVEL_TOKENS, LEVEL_WORDS_LAYOUT } from '../src/log/parse/header-native.js';
import { PREFIX_BYTES } from '../src/log/parse/line-parser.js';
import { CHUNK_HEAD, GROUP, GROUP_WORDS, RECORD_WORDS, SEGMENT, SEGMENT_WORDS, TALLY_WORDS } from '../src/log/chunk/native-chunk.js';
import { MAX_PLACEHOLDERS } from '../src/log/chunk/condense-chunk.js';
import { MAX_VALUES } from '../src/log/model/values.js';
import { Severity } from '../src/log/model/severity.js';

const header = readFileSync(join(ROOT, 'native', 'include', 'wisp.h'), 'utf8');

function define(name: string): number {
  const m = new RegExp(`^#define ${name} (0x[0-9a-fA-F]+|\\d+)`, 'm').exec(header);
  if (m === null) throw new Error(`wisp.h defines no ${name}`);
  return Number(m[1]);
}

test('the status codes in library.ts are the ones in wisp.h', (t) => {
  const statuses = [...header.matchAll(/^#define (WISP_(?:OK|END|CANCELLED|ERR_\w+)) (\d+)/gm)].map((m) => [m[1]!, Number(m[2])] as const);
  t.is(statuses.length, 7, 'every status wisp.h defines is checked');
  const names: Record<string, keyof typeof Status> = {
    WISP_OK: 'Ok', WISP_END: 'End', WISP_CANCELLED: 'Cancelled', WISP_ERR_SYSTEM: 'System',
    WISP_ERR_UNAVAILABLE: 'Unavailable', WISP_ERR_ARGUMENT: 'Argument', WISP_ERR_MEMORY: 'Memory',
  };
  for (const [name, value] of statuses) {
    t.truthy(names[name], `${name} has a name in library.ts`);
    t.is(Status[names[name]!] as number, value, name);
  }
  t.is(Object.keys(Status).length, statuses.length);
});

test('ABI version and shared constants match wisp.h, and the built library says the same version', (t) => {
  t.is(ABI_VERSION, define('WISP_ABI_VERSION'));
  t.is(PORTS_PROCFS, define('WISP_PORTS_PROCFS'));
  t.is(CMDLINE_MAX_BYTES, define('WISP_CMDLINE_MAX'));
  t.is(MAX_TEMPLATE_BYTES, define('WISP_TEMPLATE_BYTES'));
  t.is(TEMPLATE_STATE.segments, define('WISP_TEMPLATE_SEGMENTS'));
  for (const field of ['h1', 'h2', 'budget', 'cut', 'segs', 'head'] as const) t.is(TEMPLATE_STATE[field] as number, define(`WISP_TEMPLATE_${field.toUpperCase()}`), field);
  for (const hash of ['h1', 'h2'] as const) t.is(TEMPLATE_SEED[hash] as number, define(`WISP_TEMPLATE_${hash.toUpperCase()}_SEED`), `${hash} seed`);
  t.notThrows(() => nativeLibrary(), 'the library loads only when its ABI version is this one');
});

/** The names of a C enum's members in wisp.h, in order (each from 0, or the first one given), without their prefix. */
function enumMembers(prefix: string, first: string): string[] {
  const body = header.slice(header.indexOf(`${prefix}${first} =`)).replace(/\/\*[\s\S]*?\*\//g, '');
  const names = [...body.slice(0, body.indexOf('}')).matchAll(new RegExp(`\\b${prefix}(\\w+)`, 'g'))].map((m) => m[1]!);
  return names;
}

test("the redaction scan's block layout, contexts, shapes, events and byte classes are wisp.h's", (t) => {
  t.is(SCAN_LAYOUT.layout as number, define('WISP_SCAN_LAYOUT'));
  t.is(SCAN_LAYOUT.head as number, define('WISP_SCAN_HEAD'));
  const words = enumMembers('WISP_SCAN_', 'LAYOUT_WORD');
  t.is(words.at(-1), 'WORDS');
  t.true(words.length - 1 <= SCAN_LAYOUT.head, 'the header words fit the header');
  const camel = (name: string): string => name.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  t.deepEqual(Object.keys(SCAN_LAYOUT.words), ['layout', ...words.slice(1, -1).map(camel)]);
  t.deepEqual(Object.values(SCAN_LAYOUT.words), words.slice(0, -1).map((_, k) => k));
  t.deepEqual(enumMembers('WISP_SCAN_CONTEXT_', 'ANY'), CONTEXT_CODES.map((c) => c.toUpperCase().replace('-', '_')));
  t.deepEqual(enumMembers('WISP_SCAN_SHAPE_', 'BASE64'), [...SHAPES.map((s) => s.replace(/-40$/, '').replace(/-/g, '_').toUpperCase())]);
  t.deepEqual(enumMembers('WISP_CC_', 'DIGIT'), CHAR_CLASS_NAMES);
  const events = { BASE64: RunEvent.Base64, HEX_DASH: RunEvent.HexDash, TOKEN_DOT: RunEvent.TokenDot, DIGITS: RunEvent.Digits, IBAN: RunEvent.Iban, ESCAPE: RunEvent.Escape };
  for (const [name, bit] of Object.entries(events)) t.is(bit as number, define(`WISP_SCAN_EVENT_${name}`), name);
});

test("the log header's and the chunk pass's layouts are wisp.h's", (t) => {
  t.is(LEVEL_WORDS_LAYOUT.layout as number, define('WISP_LEVEL_WORDS_LAYOUT'));
  t.is(LEVEL_WORDS_LAYOUT.head as number, define('WISP_LEVEL_WORDS_HEAD'));
  t.is(LEVEL_WORDS_LAYOUT.syslog as number, define('WISP_LEVEL_WORDS_SYSLOG'));
  t.is(LEVEL_WORDS_LAYOUT.wordBytes as number, define('WISP_LEVEL_WORD_BYTES'));
  t.is(LEVEL_WORDS_LAYOUT.troubles as number, define('WISP_LEVEL_WORDS_TROUBLES'));
  t.is(LEVEL_WORDS_LAYOUT.window as number, define('WISP_LEVEL_WORDS_WINDOW'));
  t.is(LEVEL_WORDS_LAYOUT.troubleFirst as number, define('WISP_TROUBLE_FIRST'));
  t.is(LEVEL_WORDS_LAYOUT.troubleBytes as number, define('WISP_TROUBLE_WORD_BYTES'));
  t.is(Severity.Warning as number, define('WISP_SEVERITY_WARNING'));
  t.is(Severity.Info as number, define('WISP_SEVERITY_INFO'));
  t.is(LEVEL_TOKENS, define('WISP_LEVEL_TOKENS'));
  t.is(LEVEL_BAD_ARGUMENT, -Number(/^#define WISP_LEVEL_BAD_ARGUMENT \(-(\d+)\)/m.exec(header)![1]));
  for (const [name, bit] of Object.entries(HEADER_FLAG)) t.is(bit as number, define(`WISP_HEADER_FLAG_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`), name);
  const upper = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
  t.deepEqual(enumMembers('WISP_HEADER_', 'TIME_START'), Object.keys(HEADER_OUT).map((k) => (k === 'words' ? 'OUT' : upper(k))));
  t.is(PREFIX_BYTES, define('WISP_HEADER_PREFIX_BYTES'));
  t.deepEqual(enumMembers('WISP_CHUNK_', 'LINES'), Object.keys(CHUNK_HEAD).map(upper));
  t.true(Object.keys(CHUNK_HEAD).length <= define('WISP_CHUNK_HEAD'));
  t.deepEqual(enumMembers('WISP_SEGMENT_', 'FIRST_LINE'), Object.keys(SEGMENT).map(upper));
  t.deepEqual(enumMembers('WISP_GROUP_', 'SEVERITY'), Object.keys(GROUP).map(upper));
  t.deepEqual(Object.values(GROUP), Object.keys(GROUP).map((_, k) => k));
  t.is(RECORD_WORDS, define('WISP_CHUNK_RECORD_WORDS'));
  t.is(SEGMENT_WORDS, define('WISP_CHUNK_SEGMENT_WORDS'));
  t.is(GROUP_WORDS, define('WISP_CHUNK_GROUP_WORDS'));
  t.is(Object.keys(GROUP).length, GROUP_WORDS);
  t.is(MAX_VALUES, define('WISP_TALLY_VALUES'));
  t.is(TALLY_WORDS, 1 + 4 * MAX_VALUES);
  t.is(MAX_PLACEHOLDERS, define('WISP_CHUNK_PLACEHOLDERS'));
});

test('the library exports exactly the functions wisp.h declares with WISP_EXPORT', (t) => {
  const declared = [...header.matchAll(/^WISP_EXPORT [^(]*?\**(wisp_\w+)\(/gm)].map((m) => m[1]!).sort();
  t.is(declared.length, 25);
  const tool = process.platform === 'darwin' ? ['nm', ['-gU', libraryPath()]] as const : ['nm', ['-D', '--defined-only', libraryPath()]] as const;
  const exported = execFileSync(tool[0], tool[1], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[1] === 'T')
    .map((f) => f[2]!.replace(/^_/, ''))
    .sort();
  t.deepEqual(exported, declared);
});
