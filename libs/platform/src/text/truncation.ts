/** Marks the end of a value cut to its limit (decisions §8): alert values, audit values, verify details. */
export const TRUNCATION_MARKER = '…[truncated]';

/** The first `max` code points of `text`, the last of them being TRUNCATION_MARKER. */
export function truncateWithMarker(text: string, max: number): string {
  const marker = [...TRUNCATION_MARKER].length;
  let kept = '';
  let count = 0;
  for (const point of text) {
    if (++count > max - marker) break;
    kept += point;
  }
  return kept + TRUNCATION_MARKER;
}

/** True when `text` has more than `max` code points. */
export function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

/** `text` itself when it has at most `max` code points, else cut to `max` with TRUNCATION_MARKER. */
export function capText(text: string, max: number): string {
  return longerThan(text, max) ? truncateWithMarker(text, max) : text;
}
