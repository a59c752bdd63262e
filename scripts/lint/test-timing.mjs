// ESLint rules that keep tests honest about time (docs/architecture.md, "Tests"):
//  - no-guessed-sleep: a test waits for a condition (test/support/until.ts) or a positive signal,
//    never a fixed time. Caught in every spelling: a promise resolved by a timer (expression or
//    block body, the resolver passed directly or called from a callback), setTimeout, setInterval
//    or scheduler from `timers/promises` (imported, required or loaded), `promisify(setTimeout)`,
//    and helpers named sleep, delay or wait.
//  - no-elapsed-time-assertions: a test never asserts elapsed time (speed is the bench's): an
//    assertion's subject may not hold a difference of clock readings (Date.now(),
//    performance.now(), process.hrtime(), new Date().getTime()), directly or through variables,
//    nor a variable named as a duration (elapsed, duration, took, latency).

const SLEEP = 'No guessed sleeps in tests: wait for a condition (test/support/until.ts) or a positive signal';
const ELAPSED = 'Tests do not assert elapsed time: assert observable order and state (measure speed in the bench)';
const TIMERS_PROMISES = /^(node:)?timers\/promises$/;
const TIMER_EXPORTS = new Set(['setTimeout', 'setInterval', 'scheduler']);
const SLEEP_HELPERS = /^(sleep|delay|wait)$/;
const DURATION_NAME = /(elapsed|duration|took|latency)/i;

const isIdentifier = (node, name) => node?.type === 'Identifier' && (name === undefined || node.name === name);
const isMember = (node, object, property) =>
  node?.type === 'MemberExpression' && !node.computed && isIdentifier(node.property, property) && (object === undefined || isIdentifier(node.object, object));
const isFunction = (node) => node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionExpression';

/** Visits `node` and every node below it (not into nested functions when `shallow`). */
function walk(node, visit, shallow = false) {
  if (!node || typeof node.type !== 'string') return;
  if (visit(node) === false) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child.type === 'string' && !(shallow && isFunction(child))) walk(child, visit, shallow);
    }
  }
}

const noGuessedSleep = {
  meta: { type: 'problem', docs: { description: 'No fixed-time waits in tests' }, schema: [] },
  create(context) {
    const report = (node) => context.report({ node, message: SLEEP });

    /** Whether `fn` does nothing but call `resolve` (a timer callback that resolves the promise). */
    const onlyResolves = (fn, resolve) => {
      if (!isFunction(fn)) return false;
      const body = fn.body.type === 'BlockStatement' && fn.body.body.length === 1 ? fn.body.body[0] : fn.body;
      const call = body.type === 'ExpressionStatement' ? body.expression : body;
      return call?.type === 'CallExpression' && isIdentifier(call.callee, resolve);
    };

    return {
      NewExpression(node) {
        if (!isIdentifier(node.callee, 'Promise') || !isFunction(node.arguments[0])) return;
        const executor = node.arguments[0];
        const resolve = executor.params[0]?.type === 'Identifier' ? executor.params[0].name : undefined;
        if (!resolve) return;
        walk(executor.body, (n) => {
          if (
            n.type === 'CallExpression' &&
            (isIdentifier(n.callee, 'setTimeout') || isMember(n.callee, undefined, 'setTimeout')) &&
            (isIdentifier(n.arguments[0], resolve) || onlyResolves(n.arguments[0], resolve))
          )
            report(n);
        });
      },
      ImportDeclaration(node) {
        if (!TIMERS_PROMISES.test(node.source.value)) return;
        for (const specifier of node.specifiers) {
          if (specifier.type !== 'ImportSpecifier' || TIMER_EXPORTS.has(specifier.imported.name)) report(specifier);
        }
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && TIMERS_PROMISES.test(String(node.source.value))) report(node);
      },
      CallExpression(node) {
        const [first] = node.arguments;
        if (isIdentifier(node.callee, 'require') && first?.type === 'Literal' && TIMERS_PROMISES.test(String(first.value))) report(node);
        else if ((isIdentifier(node.callee, 'promisify') || isMember(node.callee, undefined, 'promisify')) && isIdentifier(first, 'setTimeout')) report(node);
        else if (isIdentifier(node.callee) && SLEEP_HELPERS.test(node.callee.name)) report(node);
      },
    };
  },
};

const noElapsedTimeAssertions = {
  meta: { type: 'problem', docs: { description: 'No elapsed-time assertions in tests' }, schema: [] },
  create(context) {
    const source = context.sourceCode;
    /** Variables holding a clock reading (t0), and those holding a difference of readings (elapsed). */
    const readings = new Set();
    const differences = new Set();

    const variableOf = (identifier) => {
      for (let scope = source.getScope(identifier); scope; scope = scope.upper) {
        const variable = scope.set.get(identifier.name);
        if (variable) return variable;
      }
      return undefined;
    };
    const isReading = (n) =>
      n.type === 'CallExpression' &&
      (isMember(n.callee, 'Date', 'now') ||
        isMember(n.callee, 'performance', 'now') ||
        isMember(n.callee, 'process', 'hrtime') ||
        (isMember(n.callee, undefined, 'bigint') && isMember(n.callee.object, 'process', 'hrtime')) ||
        (isMember(n.callee, undefined, 'getTime') &&
          n.callee.object.type === 'NewExpression' &&
          isIdentifier(n.callee.object.callee, 'Date') &&
          n.callee.object.arguments.length === 0));
    /**
     * The expressions whose value `expression` is computed from by arithmetic or comparison:
     * operands, conversions (Number, Math.*), branches and type assertions; not arguments of other
     * calls or members of objects, whose value is something else.
     */
    const operands = (expression) => {
      const e = expression;
      if (!e) return [];
      switch (e.type) {
        case 'BinaryExpression':
          return ['-', '+', '*', '/', '%', '**', '<', '<=', '>', '>=', '==', '===', '!=', '!=='].includes(e.operator) ? [e.left, e.right] : [];
        case 'LogicalExpression':
          return [e.left, e.right];
        case 'UnaryExpression':
          return ['-', '+'].includes(e.operator) ? [e.argument] : [];
        case 'ConditionalExpression':
          return [e.consequent, e.alternate];
        case 'AwaitExpression':
        case 'TSAsExpression':
        case 'TSNonNullExpression':
        case 'TSTypeAssertion':
        case 'TSSatisfiesExpression':
          return [e.expression ?? e.argument];
        case 'CallExpression':
          return isIdentifier(e.callee, 'Number') || isIdentifier(e.callee, 'BigInt') || isMember(e.callee, 'Math') ? e.arguments : [];
        default:
          return [];
      }
    };
    /** Whether the value of `e` is a clock reading or follows from one (t0, a deadline). */
    const holdsReading = (e) => isReading(e) || (e.type === 'Identifier' && readings.has(variableOf(e))) || operands(e).some(holdsReading);
    /** Whether the value of `e` follows from a difference with a clock reading (elapsed time). */
    const holdsDifference = (e) =>
      (e.type === 'BinaryExpression' && e.operator === '-' && (holdsReading(e.left) || holdsReading(e.right))) ||
      (e.type === 'Identifier' && differences.has(variableOf(e))) ||
      operands(e).some(holdsDifference);

    const remember = (identifier, value) => {
      const variable = variableOf(identifier);
      if (!variable || !value) return;
      if (holdsDifference(value)) differences.add(variable);
      else if (holdsReading(value)) readings.add(variable);
    };
    const isAssertion = (callee) =>
      isIdentifier(callee, 'expect') ||
      isIdentifier(callee, 'assert') ||
      (callee.type === 'MemberExpression' && (isIdentifier(callee.object, 'assert') || isIdentifier(callee.object, 'expect')));

    return {
      VariableDeclarator(node) {
        if (node.id.type === 'Identifier') remember(node.id, node.init);
      },
      AssignmentExpression(node) {
        if (node.left.type === 'Identifier') remember(node.left, node.right);
      },
      CallExpression(node) {
        if (!isAssertion(node.callee)) return;
        for (const argument of node.arguments) {
          const named =
            (isIdentifier(argument) && DURATION_NAME.test(argument.name)) ||
            (argument.type === 'MemberExpression' && !argument.computed && DURATION_NAME.test(argument.property.name));
          if (named || holdsDifference(argument)) context.report({ node: argument, message: ELAPSED });
        }
      },
    };
  },
};

export default { rules: { 'no-guessed-sleep': noGuessedSleep, 'no-elapsed-time-assertions': noElapsedTimeAssertions } };
