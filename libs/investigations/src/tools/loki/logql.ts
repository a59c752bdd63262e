import { parser } from '@grafana/lezer-logql';

type Tree = ReturnType<typeof parser.parse>;
type SyntaxNode = Tree['topNode'];

/** The longest LogQL query the Loki tools accept. */
export const MAX_LOGQL_CHARS = 8192;

/** What a query is once it parses: a log query answers lines (`streams`), a metric query numbers (`matrix`). */
export type LogqlKind = 'log' | 'metric';

export interface StreamMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

const OPS: Record<string, StreamMatcher['op']> = { Eq: '=', Neq: '!=', Re: '=~', Nre: '!~' };

/** A LogQL string literal's value: Go-quoted ("…", JSON-compatible escapes) or raw (`…`). */
export function logqlString(text: string): string {
  if (text.startsWith('`')) return text.slice(1, -1);
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.slice(1, -1);
  }
}

function lineAndColumn(text: string, at: number): { line: number; col: number } {
  const before = text.slice(0, at).split('\n');
  return { line: before.length, col: before[before.length - 1].length + 1 };
}

/** The first syntax error the grammar found, as Loki words its parse errors (line and column, 1-based). */
function syntaxError(query: string, tree: Tree): string | null {
  let at = -1;
  tree.iterate({
    enter: (node) => {
      if (at >= 0) return false;
      if (node.type.isError) at = node.from;
      return undefined;
    },
  });
  if (at < 0) return null;
  const { line, col } = lineAndColumn(query, at);
  const near = query.slice(at, at + 24).trim();
  return near
    ? `does not parse as LogQL: syntax error at line ${line}, col ${col} near ${JSON.stringify(near)}`
    : `does not parse as LogQL: syntax error at line ${line}, col ${col}: the query ends too early`;
}

function parse(query: string): { tree: Tree; error: string | null } {
  const tree = parser.parse(query);
  return { tree, error: syntaxError(query, tree) };
}

/** The node under LogQL > Expr: LogExpr or MetricExpr. */
function body(tree: Tree): SyntaxNode | null {
  return tree.topNode.getChild('Expr')?.firstChild ?? null;
}

function matchersOf(query: string, selector: SyntaxNode): StreamMatcher[] {
  return selector.getChild('Matchers')
    ? collect(selector.getChild('Matchers')!, 'Matcher').map((m) => {
        const label = m.getChild('Identifier')!;
        const op = m.getChild('Eq') ?? m.getChild('Neq') ?? m.getChild('Re') ?? m.getChild('Nre');
        const value = m.getChild('String');
        return { label: query.slice(label.from, label.to), op: OPS[op!.name], value: value ? logqlString(query.slice(value.from, value.to)) : '' };
      })
    : [];
}

/** Every descendant named `name`, in order (Matchers and LineFilters nest left-recursively). */
function collect(node: SyntaxNode, name: string): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const cursor = node.cursor();
  do {
    if (cursor.name === name) found.push(cursor.node);
  } while (cursor.next() && cursor.from < node.to);
  return found.filter((n) => n.from >= node.from && n.to <= node.to);
}

/**
 * Loki refuses a selector none of whose matchers needs a non-empty value (`{app=~".*"}` would
 * select every stream): at least one `=` with a value, or `=~` whose expression does not match "".
 */
function selectsTooMuch(matchers: StreamMatcher[]): boolean {
  return !matchers.some((m) => {
    if (m.op === '=') return m.value !== '';
    if (m.op !== '=~') return false;
    try {
      return !new RegExp(`^(?:${m.value.replace(/^\(\?i\)/, '')})$`).test('');
    } catch {
      return true; // Loki's own regexp engine decides; let it answer
    }
  });
}

const TOO_WIDE =
  'needs at least one matcher that requires a non-empty value: an = with a value, or an =~ that does not match "" (Loki refuses {app=~".*"} but takes {app=~".+"})';

/** The query's kind, or why it cannot be sent (a syntax error, or a selector Loki refuses). */
export function checkQuery(query: string): { kind: LogqlKind } | { error: string } {
  const { tree, error } = parse(query);
  if (error) return { error: `query ${error}` };
  const top = body(tree);
  if (!top) return { error: 'query does not parse as LogQL' };
  for (const selector of collect(top, 'Selector')) if (selectsTooMuch(matchersOf(query, selector))) return { error: `query: the stream selector ${TOO_WIDE}` };
  return { kind: top.name === 'MetricExpr' ? 'metric' : 'log' };
}

/** A stream selector and nothing else (`{namespace="shop", app=~"checkout.*"}`): null when it is one, else why not. */
export function checkSelector(selector: string, field = 'selector'): string | null {
  const { tree, error } = parse(selector);
  if (error) return `${field} ${error}`;
  const top = body(tree);
  if (top?.name !== 'LogExpr' || top.getChild('PipelineExpr') || !top.getChild('Selector'))
    return `${field} must be a stream selector only, such as {namespace="shop", app="checkout"} (no line filter or pipeline)`;
  if (selectsTooMuch(matchersOf(selector, top.getChild('Selector')!))) return `${field} ${TOO_WIDE}`;
  return null;
}

/**
 * Line filters to follow a selector (`|= "error" != "timeout" |~ "(?i)refused"`), nothing else:
 * null when they are, else why not. Parsed together with the selector, as Loki parses them.
 */
export function checkLineFilters(selector: string, filter: string, field = 'filter'): string | null {
  const { tree, error } = parse(`${selector} ${filter}`);
  if (error) return `${field} ${error.replace(/at line 1, col (\d+)/, (_, col: string) => `at col ${Number(col) - selector.length - 1}`)}`;
  const pipeline = body(tree)?.getChild('PipelineExpr');
  const stages = pipeline ? collect(pipeline, 'PipelineStage') : [];
  if (!stages.length || stages.some((stage) => !stage.getChild('LineFilters')))
    return `${field} must be line filters only (|= "text", != "text", |~ "regexp", !~ "regexp", |> "pattern"), such as |= "error" != "timeout"`;
  return null;
}
