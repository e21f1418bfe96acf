/**
 * The screen's automata (scan.ts, run-events.ts), built once when the package is built and
 * read back from dist/redaction-tables.bin by every process and worker thread, instead of
 * built again in each: building them took 40 ms or more of each thread's start, before the
 * JIT had warmed up.
 *
 * A memo, not a second implementation: each set of tables is stored under a key made of
 * the builders' own compiled code (scan.js and run-events.js, as this process loaded them)
 * and the inputs (the rules' keywords). A file from another build, or with another key,
 * or none at all, and the tables are built here as before; what the scan reads is the
 * same either way (test/redaction-tables.test.ts compares a fresh build with the file).
 *
 * File layout: a 4-byte little-endian length, a JSON index of that many bytes
 * ({ [name]: { key, numbers, arrays: { [field]: [type, byteOffset, length] } } }), then,
 * from the next multiple of 8, each array's bytes at its offset there (8-byte aligned).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { packageFile } from '../paths.js';

type TypedArray = Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array;
/** A set of tables: typed arrays and plain numbers, one level deep. */
export type Tables = Record<string, TypedArray | number>;

const ARRAY_TYPES = { Uint8Array, Int8Array, Uint16Array, Int32Array, Uint32Array } as const;
type ArrayType = keyof typeof ARRAY_TYPES;

interface IndexEntry {
  key: string;
  numbers: Record<string, number>;
  arrays: Record<string, [ArrayType, number, number]>;
}

/** dist/src/redact/built-tables.js -> dist/redaction-tables.bin */
export const TABLES_FILE = packageFile('dist/redaction-tables.bin');
/** The builders' compiled code: a change to either makes every stored key stale. */
const BUILDERS = [packageFile('dist/src/redact/scan.js'), packageFile('dist/src/redact/run-events.js')];

/** Every set this thread holds, with where it came from: for the build step that writes the file, and the test. */
const held = new Map<string, { key: string; tables: Tables; source: 'file' | 'built' }>();

/** Where the set `name` came from in this thread ('file' or 'built'), if it holds one. */
export function tablesSource(name: string): 'file' | 'built' | undefined {
  return held.get(name)?.source;
}

let builderCode: string | undefined;
let stored: Stored | null | undefined;

/** The key of a set of tables: the builders' code, the machine's byte order, the set's name and inputs. */
export function tableKey(name: string, inputs: string): string {
  builderCode ??= BUILDERS.map((u) => readFileSync(u, 'utf8')).join('\0');
  return createHash('sha256').update(builderCode).update(`\0${endianness()}\0${name}\0${inputs}`).digest('hex');
}

/**
 * The tables `build` makes from `inputs`, read from the built file where it holds them
 * under the same key, else built. WISP_BUILD_TABLES=1 always builds (the build step that
 * writes the file sets it).
 */
export function builtOnce<T extends object>(name: string, inputs: string, build: () => T): T {
  const key = tableKey(name, inputs);
  const read = process.env.WISP_BUILD_TABLES === '1' ? undefined : readTables(TABLES_FILE, name, key);
  const tables = (read as T | undefined) ?? build();
  held.set(name, { key, tables: tables as Tables, source: read === undefined ? 'built' : 'file' });
  return tables;
}

/** The set `name` stored in `file` under `key`, or undefined (no file, another key, a damaged file). */
export function readTables(file: URL | string, name: string, key: string): Tables | undefined {
  const s = file === TABLES_FILE ? storedFile() : parse(file);
  const entry = s?.index[name];
  if (s == null || entry === undefined || entry.key !== key) return undefined;
  // A damaged index (another shape, a type or an offset out of range) reads as no file.
  try {
    const tables: Tables = {};
    for (const [field, value] of Object.entries(entry.numbers)) {
      if (typeof value !== 'number') return undefined;
      tables[field] = value;
    }
    for (const [field, [type, offset, length]] of Object.entries(entry.arrays)) {
      const Type = ARRAY_TYPES[type];
      if (Type === undefined || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) return undefined;
      const start = s.data + offset;
      const end = start + length * Type.BYTES_PER_ELEMENT;
      if (end > s.bytes.length) return undefined;
      // Copied out, aligned: a view into the file's buffer could start at any byte.
      const array = new Type(length);
      new Uint8Array(array.buffer).set(s.bytes.subarray(start, end));
      tables[field] = array;
    }
    return tables;
  } catch {
    return undefined;
  }
}

/** A tables file read: its index, its bytes, and where its arrays' offsets count from. */
interface Stored {
  index: Record<string, IndexEntry>;
  bytes: Buffer;
  data: number;
}

/** Where the arrays start: past the length and the index, at the next multiple of 8. */
const dataStart = (indexBytes: number): number => Math.ceil((4 + indexBytes) / 8) * 8;

function storedFile(): Stored | null {
  if (stored === undefined) stored = parse(TABLES_FILE);
  return stored;
}

function parse(file: URL | string): Stored | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  try {
    const length = bytes.readUInt32LE(0);
    const index = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as Record<string, IndexEntry>;
    return typeof index === 'object' && index !== null ? { index, bytes, data: dataStart(length) } : null;
  } catch {
    return null;
  }
}

/** The file's bytes for every set this thread holds (the build step writes them). */
export function serializeTables(): Buffer {
  const index: Record<string, IndexEntry> = {};
  const blobs: { at: number; bytes: Uint8Array }[] = [];
  let at = 0;
  for (const [name, { key, tables }] of [...held].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const entry: IndexEntry = { key, numbers: {}, arrays: {} };
    for (const [field, value] of Object.entries(tables)) {
      if (typeof value === 'number') {
        entry.numbers[field] = value;
        continue;
      }
      const type = value.constructor.name as ArrayType;
      if (ARRAY_TYPES[type] === undefined) throw new TypeError(`table ${name}.${field}: ${type} is not stored`);
      at = Math.ceil(at / 8) * 8;
      entry.arrays[field] = [type, at, value.length];
      blobs.push({ at, bytes: new Uint8Array(value.buffer, value.byteOffset, value.byteLength) });
      at += value.byteLength;
    }
    index[name] = entry;
  }
  const json = JSON.stringify(index);
  const head = dataStart(Buffer.byteLength(json));
  const out = Buffer.alloc(head + at);
  out.writeUInt32LE(Buffer.byteLength(json), 0);
  out.write(json, 4, 'utf8');
  for (const b of blobs) out.set(b.bytes, head + b.at);
  return out;
}
