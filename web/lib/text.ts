/** `text` cut at `max` characters with an ellipsis; whether it was cut. */
export function truncate(text: string, max: number): { text: string; cut: boolean } {
  const chars = Array.from(text);
  if (chars.length <= max) return { text, cut: false };
  return { text: `${chars.slice(0, max).join('').trimEnd()}…`, cut: true };
}
