import type { GroupStat } from '../model/partial.js';
import type { ShownValues } from '../model/result.js';
import { byCount } from '../model/values.js';

const SHOWN_PLACEHOLDERS = 3;
const SHOWN_VALUES = 3;
const PLACEHOLDER_TOKEN_CHARS = 40;
const MARKER = /<(?:NUM|HEX|UUID|IP|MAC|PID|\*)>|<[^<>\s|]+(?:\|[^<>\s|]+)+>/g;

/**
 * The placeholders worth a line: those with few values (fewest first), where the values
 * say something: not when every record has a value of its own.
 */
export function shownValues(g: GroupStat): ShownValues[] | undefined {
  if (g.values === undefined || g.records < 2) return undefined;
  const tokens = placeholderTokens(g.template);
  const picked: { k: number; distinct: number }[] = [];
  g.values.forEach((v, k) => {
    if (v === null || v.length === 0 || tokens[k] === undefined) return;
    if (v.length === g.records && v.length > SHOWN_VALUES) return;
    picked.push({ k, distinct: v.length });
  });
  if (picked.length === 0) return undefined;
  picked.sort((a, b) => a.distinct - b.distinct || a.k - b.k);
  return picked.slice(0, SHOWN_PLACEHOLDERS).sort((a, b) => a.k - b.k).map(({ k }) => {
    const sorted = byCount(g.values![k]!);
    const rest = sorted.slice(SHOWN_VALUES);
    const token = tokens[k]!;
    // A value inside a longer token reads best in its token: `host=orders-7f9c-abcde`, not
    // `7f9c`. Where the token holds other placeholders too, the value stands in its own
    // place among them (`[clip_<NUM>.mp4]`): a bare `4` would not say which it is.
    const inToken = (value: string): string => (token.single ? token.text.replace(MARKER, () => value) : token.nth >= 0 ? replaceNth(token.text, token.nth, value) : value);
    return {
      placeholder: token.text,
      values: sorted.slice(0, SHOWN_VALUES).map(([value, count]) => ({ value: inToken(value), count })),
      others: rest.length,
      otherRecords: rest.reduce((n, [, c]) => n + c, 0),
    };
  });
}

/** The `nth` placeholder marker of a text (counted from 0) replaced by `value`, or the value alone where the text holds no such marker. */
function replaceNth(text: string, nth: number, value: string): string {
  let seen = -1;
  let replaced = false;
  const out = text.replace(MARKER, (m) => {
    seen++;
    if (seen !== nth) return m;
    replaced = true;
    return value;
  });
  return replaced ? out : value;
}

/**
 * For each placeholder of a template, in text order, the token that holds it, whether it
 * holds only that one, and else which of the token's placeholders it is (-1 where its value
 * cannot stand in the token: an enum's or a wildcard's).
 */
function placeholderTokens(template: string): { text: string; single: boolean; nth: number }[] {
  const out: { text: string; single: boolean; nth: number }[] = [];
  for (const m of template.matchAll(MARKER)) {
    const at = m.index;
    let a = at;
    while (a > 0 && template[a - 1] !== ' ' && template[a - 1] !== '\t') a--;
    let b = at + m[0].length;
    while (b < template.length && template[b] !== ' ' && template[b] !== '\t') b++;
    // A token that is only the placeholder says little: the word before it goes with it.
    if (a === at && b === at + m[0].length && a > 1) {
      a--;
      while (a > 0 && (template[a - 1] === ' ' || template[a - 1] === '\t')) a--;
      while (a > 0 && template[a - 1] !== ' ' && template[a - 1] !== '\t') a--;
    }
    // An enum's words are listed with their counts: its label needs only where it stands.
    const token = template.slice(a, b).replace(/[ \t]+/g, ' ').replace(/<[^<>\s|]+(?:\|[^<>\s|]+)+>/g, '<…>');
    const raw = template.slice(a, b);
    const single = (raw.match(MARKER) ?? []).length === 1 && !/\s/.test(raw) && !m[0].includes('|') && m[0] !== '<*>';
    const simple = !/\s/.test(raw) && !raw.includes('|') && !raw.includes('<*>');
    const nth = single || !simple ? -1 : (template.slice(a, at).match(MARKER) ?? []).length;
    out.push({ text: token.length > PLACEHOLDER_TOKEN_CHARS ? `${token.slice(0, PLACEHOLDER_TOKEN_CHARS - 1)}…` : token, single, nth });
  }
  return out;
}
