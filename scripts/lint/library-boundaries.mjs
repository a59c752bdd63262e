// ESLint rule that holds the monorepo's library boundaries (docs/architecture.md, "Libraries"):
//  - a library depends only on the libraries declared for it below, and the declared graph has no
//    cycle (checked when the rule loads, so a cycle cannot be declared either);
//  - another library is imported only through its public entry (`@svc/<lib>`) or a declared
//    sub-entry (a folder with its own index.ts), never by a deep path to one of its files;
//  - a relative import never leaves its library or app (tests and bench included: they import
//    `@svc/...` like any other code);
//  - another library's entity classes are never imported (call that library's service);
//  - a restricted entry (the investigation engine) is imported only from where it may run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** Which libraries each library may import: the direction of dependencies. */
export const LIBRARY_DEPENDENCIES = {
  platform: [],
  audit: ['platform'],
  organizations: ['platform', 'audit'],
  auth: ['platform', 'audit', 'organizations'],
  relays: ['platform', 'audit'],
  datastores: ['platform'],
  integrations: ['platform', 'audit', 'relays', 'datastores'],
  incidents: ['platform', 'audit'],
  changes: ['platform', 'audit', 'organizations', 'incidents'],
  alerts: ['platform', 'audit', 'integrations', 'incidents', 'changes'],
  investigations: ['platform', 'audit', 'organizations', 'integrations', 'incidents', 'relays', 'changes', 'datastores'],
  conversations: ['platform', 'audit', 'incidents', 'investigations', 'integrations'],
  postmortems: ['platform', 'audit', 'incidents', 'investigations'],
};

/** Sub-entries (`@svc/<lib>/<folder>`) and who may import them; `*` is anyone. */
export const SUB_ENTRIES = {
  'investigations/engine': ['apps/worker/', 'test/', 'bench/', 'eval/', 'libs/postmortems/src/worker/'],
  'postmortems/worker': ['apps/worker/', 'test/', 'bench/'],
  'investigations/stream': ['*'],
  'investigations/tools': ['*'],
  'conversations/worker': ['apps/worker/', 'test/', 'bench/'],
  'relays/protocol': ['*'],
};

function assertAcyclic(graph) {
  const state = new Map();
  const visit = (node, path) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'active') throw new Error(`library-boundaries: declared dependencies form a cycle: ${[...path, node].join(' -> ')}`);
    state.set(node, 'active');
    for (const next of graph[node] ?? []) {
      if (!(next in graph)) throw new Error(`library-boundaries: ${node} depends on unknown library ${next}`);
      visit(next, [...path, node]);
    }
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
}
assertAcyclic(LIBRARY_DEPENDENCIES);

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Entity class names per library, read from its `*.entity.ts` files. */
const entityNames = new Map();
function entitiesOf(library) {
  if (!entityNames.has(library)) {
    const names = new Set();
    for (const file of filesUnder(join(ROOT, 'libs', library, 'src')).filter((f) => f.endsWith('.entity.ts'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/export\s+(?:abstract\s+)?class\s+(\w+)/g)) names.add(match[1]);
    }
    entityNames.set(library, names);
  }
  return entityNames.get(library);
}

/** Where a file sits: a library (`lib`), an app, the tests, the bench, the reasoner evaluation, or elsewhere. */
function unitOf(file) {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] === 'libs' && parts.length > 2) return { kind: 'lib', name: parts[1], root: join(ROOT, 'libs', parts[1]) };
  if (parts[0] === 'apps' && parts.length > 2) return { kind: 'app', name: parts[1], root: join(ROOT, 'apps', parts[1]) };
  if (['test', 'bench', 'eval', 'migrations'].includes(parts[0])) return { kind: parts[0], name: parts[0], root: join(ROOT, parts[0]) };
  return { kind: 'other', name: parts[0], root: ROOT };
}

const fromTestSupport = (target) => `${target}${sep}`.startsWith(`${join(ROOT, 'test', 'support')}${sep}`);

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Library boundaries: declared dependency direction, public entries only, no entities of other libraries' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const here = unitOf(file);
    const fromPath = relative(ROOT, file).split(sep).join('/');

    function check(node, source, importedNames) {
      if (source.startsWith('.')) {
        const target = resolve(dirname(file), source);
        const targetUnit = unitOf(target);
        const inside = `${target}${sep}`.startsWith(`${here.root}${sep}`);
        // A library keeps to itself; anything else may reach shared files (migrations) but never
        // into a library or app other than its own.
        const specReadsTestSupport = here.kind === 'lib' && /\.spec\.ts$/.test(file) && fromTestSupport(target);
        const crosses = here.kind === 'lib' ? !inside && !specReadsTestSupport : targetUnit.kind === 'lib' && targetUnit.root !== here.root;
        if (crosses) {
          context.report({
            node,
            message: `Relative import '${source}' leaves ${here.kind} '${here.name}'${targetUnit.kind === 'lib' ? `: import '@svc/${targetUnit.name}' instead` : ''}`,
          });
        }
        return;
      }
      const match = /^@svc\/([a-z-]+)(?:\/(.+))?$/.exec(source);
      if (!match) return;
      const [, library, subpath] = match;
      if (!(library in LIBRARY_DEPENDENCIES)) {
        context.report({ node, message: `Unknown library '@svc/${library}': declare it in scripts/lint/library-boundaries.mjs` });
        return;
      }
      if (here.kind === 'lib' && here.name === library) {
        context.report({ node, message: `A library imports its own files by relative path, not through '@svc/${library}'` });
        return;
      }
      if (here.kind === 'lib' && !LIBRARY_DEPENDENCIES[here.name].includes(library)) {
        context.report({
          node,
          message: `Library '${here.name}' may not depend on '${library}' (allowed: ${LIBRARY_DEPENDENCIES[here.name].join(', ') || 'none'}); see docs/architecture.md`,
        });
      }
      if (subpath) {
        const entry = `${library}/${subpath}`;
        const allowed = SUB_ENTRIES[entry];
        if (!allowed) {
          context.report({ node, message: `Deep import '${source}': import from '@svc/${library}' (export it from its index.ts) or a declared sub-entry` });
        } else if (!allowed.includes('*') && !allowed.some((prefix) => fromPath.startsWith(prefix))) {
          context.report({ node, message: `'${source}' may only be imported from ${allowed.join(', ')}` });
        }
      }
      // Platform's entities are plumbing (the Organization-owned base, the outbox); an entity may
      // name another library's entity for a foreign key, since the database holds tenancy there.
      if (here.kind === 'lib' && library !== 'platform' && !file.endsWith('.entity.ts')) {
        const entities = entitiesOf(library);
        for (const name of importedNames) {
          if (entities.has(name))
            context.report({ node, message: `'${name}' is an entity of library '${library}': call its service instead of using its tables` });
        }
      }
    }

    const namesOf = (node) =>
      (node.specifiers ?? []).map((s) => (s.type === 'ImportSpecifier' || s.type === 'ExportSpecifier' ? (s.imported ?? s.local).name : null)).filter(Boolean);
    return {
      ImportDeclaration(node) {
        check(node, node.source.value, namesOf(node));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, namesOf(node));
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, []);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value, []);
      },
      CallExpression(node) {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal' &&
          typeof node.arguments[0].value === 'string'
        ) {
          check(node, node.arguments[0].value, []);
        }
      },
    };
  },
};

export default { rules: { 'library-boundaries': rule } };
