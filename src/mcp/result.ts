/**
 * Tool results whose structuredContent is the whole answer. Several clients hand the model
 * only JSON.stringify(structuredContent) when a result has one, and drop the text; so the
 * rendered text travels inside it, beside a few machine facts (handle, totals, exit
 * status), and the JSON as a whole stays within a byte budget. Carrying the text rather
 * than mirroring each rendered field keeps whatever the renderers add (cause lines, value
 * summaries, notes) in front of the model without work here.
 */

export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
}

/** Bytes of the JSON a client passes to the model. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** How many times a renderer is asked again with less room before the text is cut. */
const ATTEMPTS = 4;

/**
 * `facts` plus `text`, rendered by `render(budget)` (about `budget` characters), asked again
 * with less room while the JSON is over `maxBytes` (escaping makes JSON longer than the
 * text). A renderer that cannot shrink enough has its text cut, and the cut is said.
 */
export function fitAnswer(facts: Record<string, unknown>, render: (budget: number) => string, maxBytes: number): ToolAnswer {
  let budget = maxBytes - jsonBytes({ ...facts, text: '' });
  let text = '';
  for (let attempt = 0; attempt < ATTEMPTS && budget > 0; attempt++) {
    text = render(budget);
    const over = jsonBytes({ ...facts, text }) - maxBytes;
    if (over <= 0) return answer(facts, text);
    budget -= over;
  }
  return answer(facts, cutToFit(facts, text, maxBytes));
}

function answer(facts: Record<string, unknown>, text: string): ToolAnswer {
  return { content: [{ type: 'text', text }], structuredContent: { ...facts, text } };
}

/** The longest head of `text`, cut at a line end, that fits with a note saying so. */
function cutToFit(facts: Record<string, unknown>, text: string, maxBytes: number): string {
  const note = (shown: number): string => `[wisp: the text was cut to ${shown} of ${text.length} characters to stay within ${maxBytes} bytes]\n`;
  let end = text.length;
  for (;;) {
    const nl = text.lastIndexOf('\n', end - 1);
    end = nl < 0 ? 0 : nl + 1;
    const candidate = text.slice(0, end) + note(end);
    if (jsonBytes({ ...facts, text: candidate }) <= maxBytes || end === 0) return candidate;
  }
}
