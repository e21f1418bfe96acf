/** Cuts text to at most `max` characters, the last one an ellipsis that marks the cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
