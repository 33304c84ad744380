#!/usr/bin/env node
// Build step (after tsc): bundles the CLI, so `fuseforks-cli` loads one file (oclif, the commands and what every
// command needs) instead of ~300 modules, and each command's own work (ask's host, serve, the GUI server, init…) as
// lazily imported files of its own. Everything lands in dist/cli/bundle/ (the entry cli.js and its chunks);
// sources stay as they are. Kept outside the bundle: native add-ons and what loads files by path at run time (lmdb,
// msgpackr, koffi, the keyring, piscina), the MCP SDK (lazy), the yq editors (lazy), and the TypeScript loaders
// oclif only looks for in development. pino is bundled: it loads files by path only for transports, which the log
// (core/log.ts, its own file destination) never uses, and bundled it costs ~8 ms of CPU at start instead of ~18.
import { build } from 'esbuild';
import { joinChunks, outputOf } from './joinChunks.mjs';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = resolve(root, 'dist/cli/bundle');

/**
 * A bundled file's `import.meta.url` is the bundle's; code that finds files beside itself (the worker entries, the
 * GUI client, the example village, the build info) gets its own file's URL back, computed from the bundle's
 * location (every output sits in dist/cli/bundle/, so the relative path is fixed).
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const rel = relative(outdir, args.path).split('\\').join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * `bin/run.js` installs the signal watch from dist/cli/signals.js before it loads the bundle; the bundle must use
 * that same module instance (the signals counted so far live there), so it imports the file instead of a copy.
 */
const sharedSignals = {
  name: 'shared-signals',
  setup(b) {
    b.onResolve({ filter: /(^|\/)signals\.js$/ }, (args) => {
      if (resolve(args.resolveDir, args.path) !== resolve(root, 'dist/cli/signals.js')) return undefined;
      return { path: '../signals.js', external: true };
    });
  },
};

/**
 * The pure-JS and native packages kept outside the bundle that ship a CommonJS build load through `require`: an ESM
 * `import` of them costs Node an export scan of every CommonJS file (piscina, koffi), and lmdb and msgpackr
 * would load as a dozen ESM files each instead of their one-file CommonJS builds (lmdb's own `require` of msgpackr
 * then shares that one copy).
 *
 * Each stands in the bundle as a small ES module that `require`s the package and exports, besides `default`, every
 * name Node's own `import` of the package gives (read here, at build time). A plain CommonJS stand-in
 * (`module.exports = require(…)`) is what esbuild turns into a chunk with only `export default` when the package is
 * imported dynamically: `const { Piscina } = await import('piscina')` then got `undefined` in every shipped entry
 * point while it worked unbundled (test/ship/bundleImports.test.ts checks every bundle for that class of mistake).
 */
const VIA_REQUIRE = ['lmdb', 'msgpackr', 'piscina', 'koffi'];
const requireHere = createRequire(import.meta.url);

/** The stand-in module of `pkg`: its `require`, the default and each name Node's `import` of it exposes. */
async function viaRequireModule(pkg) {
  const required = requireHere(pkg);
  const names = Object.keys(await import(pkg)).filter((name) => name !== 'default' && name !== '__esModule');
  const missing = names.filter((name) => !(name in required));
  if (missing.length > 0) throw new Error(`bundleCli: ${pkg}'s CommonJS build lacks ${missing.join(', ')}, which its ES module has: load it through import instead`);
  const invalid = names.filter((name) => !/^[A-Za-z_$][\w$]*$/.test(name));
  if (invalid.length > 0) throw new Error(`bundleCli: ${pkg} exports names that are not identifiers (${invalid.join(', ')})`);
  return [`const m = require(${JSON.stringify(pkg)});`, 'export default m;', names.length > 0 ? `export const { ${names.join(', ')} } = m;` : ''].join('\n');
}

const externalsViaRequire = {
  name: 'externals-via-require',
  setup(b) {
    const filter = new RegExp(`^(${VIA_REQUIRE.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      args.kind === 'require-call' ? { path: args.path, external: true } : { path: args.path, namespace: 'via-require' },
    );
    b.onLoad({ filter: /.*/, namespace: 'via-require' }, async (args) => ({ contents: await viaRequireModule(args.path), loader: 'js', resolveDir: root }));
  },
};

// Chunk names carry a content hash: clear the old bundle first.
rmSync(outdir, { recursive: true, force: true });
/** What every CLI output file is built with (the join below rebuilds ask's file with the same). */
const output = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Less text for V8 to scan at every start; names stay (stack traces), the source map maps back.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  absWorkingDir: root,
};
const { metafile } = await build({
  ...output,
  metafile: true,
  // askFast: bin/run.js loads it instead of cli.js for an `ask` with plain arguments (ask/askFromArgv.ts).
  entryPoints: { cli: 'dist/cli/main.js', askFast: 'dist/cli/ask/askFromArgv.js' },
  outdir,
  splitting: true,
  chunkNames: '[name]-[hash]',
  plugins: [sharedSignals, ownImportMetaUrl, externalsViaRequire],
  external: [
    'lmdb', 'msgpackr', 'koffi', '@napi-rs/keyring', 'piscina',
    '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'jsonc-parser', '@decimalturn/toml-patch',
    'typescript', 'ts-node', 'tsx',
  ],
  // ESM output has no `require`; a bundled CommonJS dependency that calls it gets Node's own.
  banner: { js: "import { createRequire as __ffCreateRequire } from 'node:module'; const require = __ffCreateRequire(import.meta.url);" },
});

// The rest of `ask` (preflight, the host boot it always runs) as one file (see joinChunks.mjs): what loaded before
// it (the CLI entry, or the fast path's entry that spawns the workers, so they boot while this file loads) stays shared.
await joinChunks({
  output,
  metafile,
  root,
  shared: [resolve(outdir, 'cli.js'), resolve(outdir, 'askFast.js')],
  part: outputOf(metafile, root, 'dist/cli/ask/runAsk.js'),
  eager: ['dist/host/buildHost.js', 'dist/host/hostPaths.js'].map((entry) => outputOf(metafile, root, entry)),
});
