/** NUL and lone surrogates: text PostgreSQL cannot store (nor read from a JSON parameter). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with each character PostgreSQL cannot store replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\ufffd');
}
