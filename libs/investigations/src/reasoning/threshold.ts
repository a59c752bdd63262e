/**
 * An alerting rule's expression split at its threshold: `rate(errors[5m]) / rate(requests[5m]) >
 * 0.05` is the symptom `rate(errors[5m]) / rate(requests[5m])` compared `>` with 0.05. Queried
 * without the comparison, the symptom has values before the condition held too, so its rise can be
 * seen against the threshold. Only a single comparison of a query with a number, at the top level of
 * the expression (outside parentheses, brackets, braces and strings), is split: `a > 1 and b > 2`,
 * a comparison of two queries, or none at all is not.
 */
export interface Threshold {
  /** The expression without its comparison. */
  symptom: string;
  /** The comparison as the condition reads with the symptom on the left: `>`, `>=`, `<`, `<=`, `==`, `!=`. */
  comparison: '>' | '>=' | '<' | '<=' | '==' | '!=';
  value: number;
}

const MIRRORED: Record<Threshold['comparison'], Threshold['comparison']> = { '>': '<', '>=': '<=', '<': '>', '<=': '>=', '==': '==', '!=': '!=' };
const NUMBER = /^\(*\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*\)*$/i;
/** Operators that join two conditions at the top level: such an expression has no single threshold. */
const SET_OPERATOR = /^(?:and|or|unless)\b/i;

/** The top-level comparisons of `expression`, with where they start and end. */
function topLevelComparisons(expression: string): Array<{ at: number; end: number; operator: Threshold['comparison'] }> | null {
  const found: Array<{ at: number; end: number; operator: Threshold['comparison'] }> = [];
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === '#') {
      const eol = expression.indexOf('\n', i);
      i = eol < 0 ? expression.length : eol;
    } else if (depth === 0) {
      if (/[\s)]/.test(expression[i - 1] ?? ' ') && SET_OPERATOR.test(expression.slice(i))) return null;
      const two = expression.slice(i, i + 2);
      if (['>=', '<=', '==', '!='].includes(two)) {
        found.push({ at: i, end: i + 2, operator: two as Threshold['comparison'] });
        i++;
      } else if (c === '>' || c === '<') found.push({ at: i, end: i + 1, operator: c });
    }
  }
  return found;
}

export function splitThreshold(expression: string | null | undefined): Threshold | null {
  if (!expression) return null;
  const comparisons = topLevelComparisons(expression);
  if (!comparisons || comparisons.length !== 1) return null;
  const [{ at, end, operator }] = comparisons;
  const left = expression.slice(0, at).trim();
  // `> bool 1` compares too: the modifier goes with the comparison.
  const right = expression
    .slice(end)
    .trim()
    .replace(/^bool\s+/i, '');
  const leftNumber = NUMBER.exec(left);
  const rightNumber = NUMBER.exec(right);
  if (rightNumber && !leftNumber && left) return { symptom: left, comparison: operator, value: Number(rightNumber[1]) };
  if (leftNumber && !rightNumber && right) return { symptom: right, comparison: MIRRORED[operator], value: Number(leftNumber[1]) };
  return null;
}
