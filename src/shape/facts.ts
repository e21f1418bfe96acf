/**
 * What the outline says about one node, as data (for --json) and as one line of text.
 * Both come from the same facts so the two outputs cannot disagree.
 */
import { formatName, isEnum } from './formats.js';
import { FORMAT_NONE, FORMAT_UNSEEN, MAX_DEPTH, isBefore, type ShapeNode } from './node.js';
import { isSecretNumberKey } from '../redact/key-names.js';
import { isCardNumber } from '../redact/validators.js';
import { EXAMPLE_CHARS, formatCount, formatValue, quote, shownMapKey, shownValue } from './text.js';

export type TypeName = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export interface NumberFacts {
  /** Absent when the values are not shown (`redacted`). */
  min?: number;
  max?: number;
  /** The values are a secret or personal datum: a secret-named key, or card numbers. */
  redacted?: true;
  integers: number;
  floats: number;
  /** Integer-valued numbers beyond 2^53: JSON.parse rounded them, so min/max are approximate. */
  beyond2to53: number;
}

export interface StringFacts {
  minLength: number;
  maxLength: number;
  format?: string;
  /** Values (redacted, cut) and counts, most frequent first, when the enum rule holds. */
  enum?: { value: string; count: number }[];
  /** The first string seen here, redacted and cut to 40 characters. */
  example?: string;
}

export interface ArrayFacts {
  minLength: number;
  maxLength: number;
  items?: NodeFacts;
}

export interface MapFacts {
  minKeys: number;
  maxKeys: number;
  sampleKeys: string[];
  values: NodeFacts;
}

export interface ObjectFacts {
  minKeys: number;
  maxKeys: number;
  map?: MapFacts;
}

export interface NodeFacts {
  count: number;
  /** Types with counts, most frequent first. */
  types: { type: TypeName; count: number }[];
  number?: NumberFacts;
  string?: StringFacts;
  boolean?: { true: number; false: number };
  array?: ArrayFacts;
  object?: ObjectFacts;
  /** Objects and arrays below the depth cap: counted, not outlined. */
  unexpanded?: number;
}

const TYPE_ORDER: TypeName[] = ['object', 'array', 'string', 'number', 'boolean', 'null'];

/** `field` is the nearest object key above the node: it decides key-based redaction. */
export function factsOf(n: ShapeNode, field: string | undefined): NodeFacts {
  const counts: Record<TypeName, number> = {
    object: n.objects,
    array: n.arrays,
    string: n.strings,
    number: n.ints + n.floats,
    boolean: n.trues + n.falses,
    null: n.nulls,
  };
  const types = TYPE_ORDER.filter((t) => counts[t] > 0)
    .map((type) => ({ type, count: counts[type] }))
    .sort((a, b) => b.count - a.count || TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type));
  const facts: NodeFacts = { count: n.count, types };
  if (counts.number > 0) {
    facts.number = hidesNumbers(field, n.numMin, n.numMax)
      ? { redacted: true, integers: n.ints, floats: n.floats, beyond2to53: n.unsafeInts }
      : { min: n.numMin, max: n.numMax, integers: n.ints, floats: n.floats, beyond2to53: n.unsafeInts };
  }
  if (n.strings > 0) facts.string = stringFacts(n, field);
  if (counts.boolean > 0) facts.boolean = { true: n.trues, false: n.falses };
  if (n.arrays > 0) {
    const array: ArrayFacts = { minLength: n.arrMinLen, maxLength: n.arrMaxLen };
    if (n.items !== undefined && n.items.count > 0) array.items = factsOf(n.items, field);
    facts.array = array;
  }
  if (n.objects > 0) {
    const object: ObjectFacts = { minKeys: n.objMinKeys, maxKeys: n.objMaxKeys };
    if (n.map !== undefined) {
      object.map = {
        minKeys: n.objMinKeys,
        maxKeys: n.objMaxKeys,
        sampleKeys: n.map.sampleKeys.map((k) => shownMapKey(k.key)),
        values: factsOf(n.map.values, field),
      };
    }
    facts.object = object;
  }
  if (n.unexpanded > 0) facts.unexpanded = n.unexpanded;
  return facts;
}

function stringFacts(n: ShapeNode, field: string | undefined): StringFacts {
  const facts: StringFacts = { minLength: n.strMinLen, maxLength: n.strMaxLen };
  if (n.format !== FORMAT_UNSEEN && n.format !== FORMAT_NONE) {
    const name = formatName(n.format);
    if (name !== undefined) facts.format = name;
  }
  const values = n.enumValues;
  if (values !== null && isEnum(n.strings, values.size)) {
    facts.enum = [...values.entries()]
      .sort(([, a], [, b]) => b.count - a.count || (isBefore(a.major, a.minor, b.major, b.minor) ? -1 : 1))
      .map(([value, entry]) => ({ value: shownValue(value, EXAMPLE_CHARS, field), count: entry.count }));
  } else if (n.example !== undefined) {
    facts.example = shownValue(n.example, EXAMPLE_CHARS, field);
  }
  return facts;
}

/** Array and map chains described inline ("array of array of ...") stop at this depth. */
const INLINE_DEPTH = 8;

/** The text after "key: " for a node. */
export function describe(f: NodeFacts, depth = 0): string {
  const mixed = f.types.length > 1;
  const parts = f.types.map(({ type, count }) => {
    const head = mixed ? `${type === 'number' ? numberType(f.number) : type} ${formatCount(count)}` : type === 'number' ? numberType(f.number) : type;
    const detail = detailOf(type, f, depth);
    return detail === '' ? head : `${head} ${detail}`;
  });
  let text = parts.join(' | ');
  if (f.unexpanded !== undefined) text += ` (deeper than ${MAX_DEPTH} levels: not outlined)`;
  return text;
}

function numberType(n: NumberFacts | undefined): string {
  if (n === undefined || n.floats === 0) return 'integer';
  return n.integers === 0 ? 'float' : 'number';
}

function detailOf(type: TypeName, f: NodeFacts, depth: number): string {
  switch (type) {
    case 'number':
      return f.number === undefined ? '' : numberDetail(f.number);
    case 'string':
      return f.string === undefined ? '' : stringDetail(f.string);
    case 'boolean':
      if (f.boolean === undefined) return '';
      if (f.boolean.true === 0 || f.boolean.false === 0) return `always ${f.boolean.true === 0 ? 'false' : 'true'}`;
      return `(true ${formatCount(f.boolean.true)}, false ${formatCount(f.boolean.false)})`;
    case 'array':
      return f.array === undefined ? '' : arrayDetail(f.array, depth);
    case 'object':
      if (f.object === undefined) return '';
      if (f.object.map !== undefined) return mapDetail(f.object.map, depth);
      return f.object.maxKeys === 0 ? '(empty)' : '';
    case 'null':
      return '';
  }
}

/**
 * Numbers that must not be shown: under a secret-named key (`password: 83726451`,
 * `otp: 492817`), or a card number (13-19 digits, issuer prefix, Luhn) at either end of
 * the range, which is all the outline shows of the values.
 */
function hidesNumbers(field: string | undefined, min: number, max: number): boolean {
  if (field !== undefined && isSecretNumberKey(field)) return true;
  const card = (v: number): boolean => Number.isInteger(v) && v > 0 && isCardNumber(String(v));
  return card(min) || card(max);
}

function numberDetail(n: NumberFacts): string {
  if (n.redacted === true || n.min === undefined || n.max === undefined) return '[REDACTED]';
  const approx = n.beyond2to53 > 0 ? '~' : '';
  let text = n.min === n.max ? `always ${approx}${formatValue(n.min)}` : `${approx}${formatValue(n.min)}..${approx}${formatValue(n.max)}`;
  if (n.integers > 0 && n.floats > 0) text += ` (integer ${formatCount(n.integers)}, float ${formatCount(n.floats)})`;
  if (n.beyond2to53 > 0) text += ` (${formatCount(n.beyond2to53)} beyond 2^53: approximate)`;
  return text;
}

function stringDetail(s: StringFacts): string {
  const out: string[] = [];
  if (s.format !== undefined) out.push(s.format);
  out.push(s.minLength === s.maxLength ? `len ${formatCount(s.minLength)}` : `len ${formatCount(s.minLength)}..${formatCount(s.maxLength)}`);
  if (s.enum?.length === 1 && s.enum[0] !== undefined) out.push(`always ${quote(s.enum[0].value)}`);
  else if (s.enum !== undefined) out.push(`enum ${s.enum.map((e) => `${quote(e.value)} ${formatCount(e.count)}`).join(', ')}`);
  else if (s.example !== undefined) out.push(`e.g. ${quote(s.example)}`);
  return out.join(' ');
}

function arrayDetail(a: ArrayFacts, depth: number): string {
  const len = a.minLength === a.maxLength ? `len ${formatCount(a.minLength)}` : `len ${formatCount(a.minLength)}..${formatCount(a.maxLength)}`;
  if (a.items === undefined) return len;
  return `${len} of ${inner(a.items, depth)}`;
}

function mapDetail(m: MapFacts, depth: number): string {
  const keys = m.minKeys === m.maxKeys ? `${formatCount(m.maxKeys)} keys` : `${formatCount(m.minKeys)}..${formatCount(m.maxKeys)} keys each`;
  return `as map: ${keys} like ${m.sampleKeys.map(quote).join(', ')} -> ${inner(m.values, depth)}`;
}

/** Elements or map values, inline; parenthesised when mixed, elided past INLINE_DEPTH. */
function inner(f: NodeFacts, depth: number): string {
  if (depth + 1 >= INLINE_DEPTH) {
    const { levels, capped } = chainDepth(f);
    return `... (${formatCount(levels)} more levels, not described${capped ? `; the last deeper than ${MAX_DEPTH} levels: not outlined` : ''})`;
  }
  const text = describe(f, depth + 1);
  return f.types.length > 1 ? `(${text})` : text;
}

/** Levels of array elements and map values below f (f itself included), and whether the last is at the depth cap. */
function chainDepth(f: NodeFacts): { levels: number; capped: boolean } {
  let levels = 0;
  let capped = false;
  for (let at: NodeFacts | undefined = f; at !== undefined; at = at.array?.items ?? at.object?.map?.values) {
    levels++;
    capped = at.unexpanded !== undefined;
  }
  return { levels, capped };
}
