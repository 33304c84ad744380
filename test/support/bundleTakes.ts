/**
 * Reads a built bundle file (an esbuild output: ES module or CommonJS) and lists what it takes from other modules:
 * each static `import {a} from 'x'`, each `import('x')` and each `require('x')`, with the names taken when the code
 * says which (destructuring, `(await import(x)).name`, `Promise.all([import(a), …])`, a local bound to the module
 * and read as `lib.name`), or `whole` when the module escapes into something this reader does not follow. It also
 * lists the names an ES module file exports. test/package/bundleImports.test.ts checks every take against what
 * the module gives as Node loads it: the class of mistake where the bundle and Node disagree on a module's shape.
 */
import { parse } from 'acorn';

/** A loose ESTree node: enough structure to walk without `any`. */
interface AstNode {
  type: string;
  start: number;
  [key: string]: unknown;
}

/** What one file takes from one module at one place. */
export interface Take {
  /** The specifier as written (`./chunk-X.js`, `piscina`, `node:fs`). */
  from: string;
  kind: 'static' | 'dynamic' | 'require';
  /** The names taken, or `whole` when the module escapes where this reader cannot follow it. */
  names: string[] | 'whole';
  /** 1-based line of the take (bundles are minified: few lines, so also the offset). */
  line: number;
  offset: number;
}

/** A bundle file's takes and (ES modules) its exports. */
export interface BundleShape {
  format: 'esm' | 'cjs';
  takes: Take[];
  /** Export names of an ES module file (`default` included); empty for CommonJS. */
  exports: string[];
}

const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
const child = (n: AstNode, key: string): AstNode | null => (isNode(n[key]) ? (n[key] as AstNode) : null);
const children = (n: AstNode, key: string): AstNode[] => (Array.isArray(n[key]) ? (n[key] as unknown[]).filter(isNode) : []);

/** Every node with its ancestors (nearest last). */
function walk(root: AstNode, visit: (node: AstNode, ancestors: AstNode[]) => void): void {
  const stack: Array<{ node: AstNode; ancestors: AstNode[] }> = [{ node: root, ancestors: [] }];
  while (stack.length > 0) {
    const { node, ancestors } = stack.pop() as { node: AstNode; ancestors: AstNode[] };
    visit(node, ancestors);
    const next = [...ancestors, node];
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      if (isNode(value)) stack.push({ node: value, ancestors: next });
      else if (Array.isArray(value)) for (const item of value) if (isNode(item)) stack.push({ node: item, ancestors: next });
    }
  }
}

const literalString = (n: AstNode | null): string | null => (n !== null && n.type === 'Literal' && typeof n['value'] === 'string' ? n['value'] : null);
const identifierName = (n: AstNode | null): string | null => (n !== null && n.type === 'Identifier' ? String(n['name']) : null);

/** The names an object pattern takes (`{a, b: c}` → a, b); null when a key is computed or a rest element hides some. */
function patternNames(pattern: AstNode): string[] | null {
  const names: string[] = [];
  for (const prop of children(pattern, 'properties')) {
    if (prop.type !== 'Property' || prop['computed'] === true) return null;
    const key = child(prop, 'key');
    const name = identifierName(key) ?? literalString(key);
    if (name === null) return null;
    names.push(name);
  }
  return names;
}

/**
 * A read that tests whether a name exists (`m.a ?? m.b`, `m.a || …`, `typeof m.a`, `m?.a`): code that works either
 * way, as pino's `util.getCallSites ?? util.getCallSite` on Node versions that have neither.
 */
function isFeatureTest(member: AstNode, parent: AstNode | undefined): boolean {
  if (member['optional'] === true || parent === undefined) return true;
  if (parent.type === 'LogicalExpression') return parent['operator'] === '??' || parent['operator'] === '||';
  if (parent.type === 'UnaryExpression') return parent['operator'] === 'typeof';
  return false;
}

/** `x.name` reads of identifier `local` inside `scope` (any other use of it: null, the module escapes). */
function memberReads(scope: AstNode, local: string, declarator: AstNode): string[] | null {
  const names: string[] = [];
  let escapes = false;
  walk(scope, (node, ancestors) => {
    if (escapes || node.type !== 'Identifier' || node['name'] !== local) return;
    const parent = ancestors.at(-1);
    if (parent === undefined) return;
    if (parent === declarator && child(parent, 'id') === node) return;
    if (parent.type === 'MemberExpression' && child(parent, 'object') === node && parent['computed'] !== true) {
      const name = identifierName(child(parent, 'property'));
      if (name !== null && !isFeatureTest(parent, ancestors.at(-2))) names.push(name);
      return;
    }
    // A write back into the same local (`x ??= await import(…)`) is the binding itself, not a use.
    if (parent.type === 'AssignmentExpression' && child(parent, 'left') === node) return;
    escapes = true;
  });
  return escapes ? null : [...new Set(names)].sort();
}

/**
 * The names taken from the module value that `expr` evaluates to (its consumer is the nearest ancestor), walking
 * up through awaits, `??=`/`=` into locals, `.then(() => …)` bodies and `Promise.all([…])` slots.
 */
function namesTaken(expr: AstNode, ancestors: AstNode[], slot: number | null = null): string[] | 'whole' {
  let node = expr;
  let at = ancestors.length - 1;
  let index = slot;
  for (;;) {
    const parent = ancestors[at];
    if (parent === undefined) return 'whole';
    if (parent.type === 'AwaitExpression' || parent.type === 'ChainExpression') {
      node = parent;
      at -= 1;
      continue;
    }
    if (parent.type === 'AssignmentExpression' && child(parent, 'right') === node) {
      // `cache ??= import(…)`: the value flows on to the assignment's own consumer.
      node = parent;
      at -= 1;
      continue;
    }
    if (parent.type === 'ArrowFunctionExpression' && child(parent, 'body') === node) {
      // `Promise.resolve().then(() => require(…))`: the arrow's result is the `.then(…)` call's value.
      const call = ancestors[at - 1];
      if (call?.type !== 'CallExpression') return 'whole';
      node = call;
      at -= 2;
      continue;
    }
    if (parent.type === 'CallExpression' && children(parent, 'arguments')[0] === node && identifierName(child(parent, 'callee'))?.startsWith('__toESM')) {
      // esbuild's interop wrapper: the module's own names plus a `default` it adds itself.
      const names = namesTaken(parent, ancestors.slice(0, at), index);
      return names === 'whole' ? names : names.filter((n) => n !== 'default');
    }
    if (parent.type === 'ArrayExpression' && index === null) {
      // `Promise.all([import(a), import(b)])` destructured as `[{A}, {B}]`.
      const call = ancestors[at - 1];
      const callee = call === undefined ? null : child(call, 'callee');
      if (call?.type !== 'CallExpression' || callee?.type !== 'MemberExpression' || identifierName(child(callee, 'property')) !== 'all') return 'whole';
      index = children(parent, 'elements').indexOf(node);
      node = call;
      at -= 2;
      continue;
    }
    if (parent.type === 'MemberExpression' && child(parent, 'object') === node && parent['computed'] !== true && index === null) {
      const name = identifierName(child(parent, 'property'));
      return name === null ? 'whole' : [name];
    }
    if (parent.type === 'VariableDeclarator' && child(parent, 'init') === node) {
      let id = child(parent, 'id');
      if (id === null) return 'whole';
      if (index !== null) {
        if (id.type !== 'ArrayPattern') return 'whole';
        id = children(id, 'elements')[index] ?? null;
        if (id === null) return 'whole';
      }
      if (id.type === 'ObjectPattern') return patternNames(id) ?? 'whole';
      const local = identifierName(id);
      if (local === null) return 'whole';
      const scope = [...ancestors.slice(0, at)].reverse().find((a) => /Function|Program/.test(a.type));
      return scope === undefined ? 'whole' : (memberReads(scope, local, parent) ?? 'whole');
    }
    return 'whole';
  }
}

/** Line (1-based) of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The takes and exports of one bundle file's text. */
export function bundleShape(text: string, format: 'esm' | 'cjs'): BundleShape {
  const program = parse(text, { ecmaVersion: 'latest', sourceType: format === 'esm' ? 'module' : 'script', allowHashBang: true, allowReturnOutsideFunction: format === 'cjs' }) as unknown as AstNode;
  const takes: Take[] = [];
  const exports: string[] = [];
  const take = (from: string, kind: Take['kind'], names: Take['names'], at: number): void => {
    takes.push({ from, kind, names, line: lineOf(text, at), offset: at });
  };
  walk(program, (node, ancestors) => {
    switch (node.type) {
      case 'ImportDeclaration': {
        const from = literalString(child(node, 'source'));
        if (from === null) return;
        const specs = children(node, 'specifiers');
        if (specs.some((s) => s.type === 'ImportNamespaceSpecifier')) take(from, 'static', 'whole', node.start);
        else take(from, 'static', specs.map((s) => (s.type === 'ImportDefaultSpecifier' ? 'default' : (identifierName(child(s, 'imported')) ?? literalString(child(s, 'imported')) ?? '?'))), node.start);
        return;
      }
      case 'ExportNamedDeclaration': {
        const from = literalString(child(node, 'source'));
        const specs = children(node, 'specifiers');
        if (from !== null) take(from, 'static', specs.map((s) => identifierName(child(s, 'local')) ?? '?'), node.start);
        for (const s of specs) exports.push(identifierName(child(s, 'exported')) ?? literalString(child(s, 'exported')) ?? '?');
        const declaration = child(node, 'declaration');
        if (declaration !== null) {
          for (const d of declaration.type === 'VariableDeclaration' ? children(declaration, 'declarations').map((x) => child(x, 'id')) : [child(declaration, 'id')]) {
            const name = identifierName(d);
            if (name !== null) exports.push(name);
          }
        }
        return;
      }
      case 'ExportDefaultDeclaration':
        exports.push('default');
        return;
      case 'ExportAllDeclaration': {
        const from = literalString(child(node, 'source'));
        if (from !== null) take(from, 'static', 'whole', node.start);
        exports.push('*');
        return;
      }
      case 'ImportExpression': {
        const from = literalString(child(node, 'source'));
        if (from !== null) take(from, 'dynamic', namesTaken(node, ancestors), node.start);
        return;
      }
      case 'CallExpression': {
        const callee = identifierName(child(node, 'callee'));
        if (callee !== 'require' && callee !== '__require') return;
        const from = literalString(children(node, 'arguments')[0] ?? null);
        if (from !== null) take(from, 'require', namesTaken(node, ancestors), node.start);
        return;
      }
    }
  });
  takes.sort((a, b) => a.offset - b.offset);
  return { format, takes, exports };
}
