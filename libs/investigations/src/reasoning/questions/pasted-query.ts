import { parser } from '@prometheus-io/lezer-promql';

/**
 * A PromQL expression pasted into a question ("sum(rate(http_client_requests_total{code=\"tls_error\"}[5m])) pls",
 * "what does time() - rabbitmq_queue_head_message_timestamp{queue=\"orders\"} give now?"), found by Prometheus's own
 * grammar (@prometheus-io/lezer-promql), and the question's words around it.
 */
export interface PastedQuery {
  expr: string;
  /** The message before the expression, and after it. */
  before: string;
  after: string;
}

/** Where an expression may begin: a function or an aggregation opening its parenthesis, or a metric's name (snake_case) before its matchers or range. */
const STARTS = /(?<![\w:])(?:[a-z_]+\s*(?:by|without)?\s*\(|[a-z_:][a-z0-9_:]*_[a-z0-9_:]+\s*[{[]|[a-z_:][a-z0-9_:]*_[a-z0-9_:]*_[a-z0-9_:]+(?![\w:{(]))/g;

/**
 * Whether `text` is one whole PromQL expression a person would paste: it parses without an error,
 * joins no set operators (`and`, `or` and `unless` are words of a sentence too), and every metric
 * it selects is written as a metric (snake_case, or with matchers), not a word ("whats").
 */
function wholeExpression(text: string): boolean {
  let valid = true;
  let calls = 0;
  parser.parse(text).iterate({
    enter: (node) => {
      if (node.type.isError || node.name === 'And' || node.name === 'Or' || node.name === 'Unless') valid = false;
      if (node.name === 'FunctionCall' || node.name === 'AggregateExpr' || node.name === 'LabelMatchers' || node.name === 'MatrixSelector') calls++;
      if (node.name === 'VectorSelector') {
        const selector = text.slice(node.from, node.to);
        if (!/[_:{]/.test(selector)) valid = false;
      }
      return valid;
    },
  });
  // A bare metric name is a word unless it is one: two underscores at least ("kube_pod_info", not "max_connections").
  return valid && (calls > 0 || /^[a-z_:][a-z0-9_:]*_[a-z0-9_:]*_[a-z0-9_:]+$/.test(text));
}

/**
 * The first PromQL expression of a message, the longest that is a whole expression from where one
 * may begin, with the rest of the message; null when it has none.
 */
export function pastedQuery(message: string): PastedQuery | null {
  for (const start of message.matchAll(STARTS)) {
    const from = start.index;
    // The ends to try: after each closing bracket, word or number at the expression's top level, the longest first.
    const ends: number[] = [];
    let depth = 0;
    let quote: string | null = null;
    for (let i = from; i < message.length; i++) {
      const c = message[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === '"' || c === "'" || c === '`') quote = c;
      else if ('({['.includes(c)) depth++;
      else if (')}]'.includes(c)) {
        depth--;
        if (depth < 0) break;
        if (depth === 0) ends.push(i + 1);
      } else if (depth === 0) {
        // A sentence's own marks end the expression: a question mark, a dash between words, a semicolon, a full stop before a space.
        if (/[?;!—–]/.test(c) || (c === '.' && /\s|$/.test(message[i + 1] ?? '')) || (c === ',' && depth === 0)) break;
        if (/[\w:]/.test(c) && !/[\w:.]/.test(message[i + 1] ?? '')) ends.push(i + 1);
      }
    }
    for (const end of ends.reverse()) {
      const expr = message.slice(from, end).trim();
      if (!wholeExpression(expr)) continue;
      // An expression that goes on past what parses ("sum(…) / sum(rate(...))" with its end left out) is not given whole.
      if (/^\s*(?:[-+*/%^]\s*)?(?:\(|[a-z_:][a-z0-9_:]*\s*[({[])/.test(message.slice(end))) return null;
      return { expr, before: message.slice(0, from).trim(), after: message.slice(end).trim() };
    }
  }
  return null;
}

/** The operators of arithmetic between two vectors, whose series are matched by their labels. */
const ARITHMETIC = new Set(['Add', 'Sub', 'Mul', 'Div', 'Mod', 'Pow']);

/**
 * The expression with its top-level arithmetic matched on no labels (`a / on() b`), when it is arithmetic
 * between two vectors written without a matching of its own: what `sum(x) / y` means when `y` has labels
 * that `sum(x)` dropped, and so returns no series as written. Null otherwise.
 */
export function matchedOnNoLabels(expr: string): string | null {
  const top = parser.parse(expr).topNode.firstChild;
  if (top?.name !== 'BinaryExpr') return null;
  const op = [...ARITHMETIC].map((name) => top.getChild(name)).find((n) => n !== null);
  if (!op || top.getChild('MatchingModifierClause') || top.getChild('BoolModifier')) return null;
  return `${expr.slice(0, op.to)} on() ${expr.slice(op.to).trimStart()}`;
}
