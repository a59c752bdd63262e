// Keeps the evaluation's holdout a holdout (eval/holdout/README.md): no distinctive string of the
// holdout's files may appear anywhere else in the tree, so that nothing outside the holdout (the
// reasoner in libs/, the apps, tests, docs, the dev scenarios) can name what only the holdout holds.
//
// A distinctive string is every string literal (and every fixed part of a template literal) of 8 or
// more characters in the holdout folder's TypeScript files, except module specifiers and those that
// also appear in the shared generator files (GENERATORS below: metric names, label names and the
// shop's services that every suite shares, and the values the conversation cases' types allow). Of the
// held-out conversation questions (conversation-questions*.ts) only their prose of four words or more
// counts: their PromQL oracles and short fragments are the shared vocabulary of these metrics
// (OWN_PROSE). "Appears" is a case-insensitive substring match.
// Every file of the tree is read except node_modules, dist, .git and other build or test output,
// the holdout folder itself and this script; binary files are skipped.
//
// Usage: node scripts/lint/holdout-strings.mjs [--root=<dir>]   (default: the repository's root)
// Exit status 0 when clean, 1 when a string leaked (each one listed with its files), 2 when the
// holdout folder is missing or holds no string to check.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SELF = fileURLToPath(import.meta.url);
const HOLDOUT = 'eval/holdout';
/** The generator files every suite shares, and the cases' types: a holdout string found in them is not distinctive. */
const GENERATORS = [
  'eval/cluster.ts',
  'eval/conventions.ts',
  'eval/shop.ts',
  'eval/scenarios.ts',
  'eval/telemetry.ts',
  'eval/random.ts',
  'eval/shapes.ts',
  'eval/conversation-cases.ts',
];
/** Directories never read: dependencies, build and test output, version control. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage', '.test-results', '.data']);
const MIN_LENGTH = 8;

const arg = process.argv.find((a) => a.startsWith('--root='));
const root = resolve(arg ? arg.slice('--root='.length) : join(dirname(SELF), '..', '..'));

/** Every file under `dir` (symbolic links not followed), but the skipped directories. */
function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) yield* files(path);
    } else if (entry.isFile()) yield path;
  }
}

const posix = (path) => relative(root, path).split(sep).join('/');

/** The string literals and template parts of a TypeScript file, module specifiers left out. */
function literals(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      // import ... from '<specifier>': what a file is called is no holdout's secret.
      if (node.importClause) visit(node.importClause);
      if (node.exportClause) visit(node.exportClause);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isBinary(buffer) {
  return buffer.subarray(0, 8192).includes(0);
}

const holdoutDir = join(root, HOLDOUT);
let holdoutFiles;
try {
  if (!lstatSync(holdoutDir).isDirectory()) throw new Error('not a directory');
  holdoutFiles = [...files(holdoutDir)].filter((f) => /\.(ts|mts|cts)$/.test(f));
} catch {
  console.error(`holdout-strings: no ${HOLDOUT}/ under ${root}`);
  process.exit(2);
}

const shared = GENERATORS.map((f) => join(root, f))
  .filter((f) => {
    try {
      return lstatSync(f).isFile();
    } catch {
      return false;
    }
  })
  .map((f) => readFileSync(f, 'utf8').toLowerCase())
  .join('\n');

/**
 * Whether a string of a held-out conversation question file (conversation-questions*.ts) says
 * something of its own: a question's prose of four words or more. Its PromQL oracles (computed
 * from the metrics every suite shares) and its fragments of a word or three ("since when") are
 * the vocabulary every question and every reader of these metrics uses, not what only it holds.
 */
const OWN_PROSE = (s) =>
  !/[{}[\]()]|=~|!=/.test(s) &&
  s
    .trim()
    .split(/\s+/)
    .filter((w) => /[a-z]/i.test(w)).length >= 4;
const conversational = (f) => /(^|[\\/])conversation-questions[^\\/]*\.ts$/.test(f);
const distinctive = [...new Set(holdoutFiles.flatMap((f) => (conversational(f) ? literals(f).filter(OWN_PROSE) : literals(f))))].filter(
  (s) => s.length >= MIN_LENGTH && !shared.includes(s.toLowerCase()),
);
if (distinctive.length === 0) {
  console.error(`holdout-strings: ${HOLDOUT}/ holds no string of ${MIN_LENGTH} or more characters to check`);
  process.exit(2);
}

const leaks = new Map();
for (const path of files(root)) {
  if (path.startsWith(holdoutDir + sep) || path === SELF) continue;
  const buffer = readFileSync(path);
  if (isBinary(buffer)) continue;
  const text = buffer.toString('utf8').toLowerCase();
  for (const s of distinctive) {
    if (text.includes(s.toLowerCase())) leaks.set(s, [...(leaks.get(s) ?? []), posix(path)]);
  }
}

if (leaks.size) {
  console.error(`holdout-strings: ${leaks.size} string(s) of ${HOLDOUT}/ appear elsewhere in the tree (eval/holdout/README.md):`);
  for (const [s, where] of leaks) console.error(`  ${JSON.stringify(s)} in ${where.join(', ')}`);
  process.exit(1);
}
console.log(`holdout-strings: ${distinctive.length} distinctive string(s) of ${HOLDOUT}/ appear nowhere else.`);
