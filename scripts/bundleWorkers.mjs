#!/usr/bin/env node
// Build step (after tsc): bundles each worker thread entry, so a new agent worker loads one small file at spawn
// and one more (its engine, backends and tools: agentEngine.ts) at its first delivery, instead of ~170 modules.
// A scanning pool thread loads one file. Sources stay as they are; the bundles are build output in dist/.
//
// The agent worker is CommonJS: an ES module entry makes Node set up its ES module loader in every worker, ~5 ms of
// CPU per agent at spawn (measured: an empty worker 26 ms as .mjs, 21 ms as .cjs). The engine is a second CommonJS
// file the entry `require`s at the first delivery; the few modules both use (the turn's types and helpers, the
// error classes) are in each file once, which is why errors cross the worker's RPC by shape (actors/rpc.ts).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: root,
  outdir: 'dist/actors',
  // yq's editors are loaded on first use by a few agents: they stay separate files, imported when needed.
  external: ['jsonc-parser', '@decimalturn/toml-patch'],
};
// Less text for V8 to scan in every worker; names stay (stack traces), the source map maps back.
const agentWorker = { ...common, format: 'cjs', outExtension: { '.js': '.cjs' }, minifyWhitespace: true, minifySyntax: true };

/** The entry's one dynamic import of its engine becomes a `require` of the engine's own bundle (below). */
const ENGINE_IMPORT = "import('./agentEngine.js')";
const engineViaRequire = {
  name: 'engine-via-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]actors[\\/]agentWorker\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(ENGINE_IMPORT)) throw new Error(`bundleWorkers: ${args.path} no longer has ${ENGINE_IMPORT}`);
      const contents = source.replace(ENGINE_IMPORT, "Promise.resolve().then(() => require('./agentEngine.bundle.cjs'))");
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

// Earlier builds left an ES module entry and hashed chunks here.
await rm(resolve(root, 'dist/actors/chunks'), { recursive: true, force: true });
await build({
  ...agentWorker,
  entryPoints: { 'agentWorker.bundle': 'dist/actors/agentWorker.js' },
  plugins: [engineViaRequire],
  external: [...common.external, './agentEngine.bundle.cjs'],
});
await build({ ...agentWorker, entryPoints: { 'agentEngine.bundle': 'dist/actors/agentEngine.js' } });
await build({
  ...common,
  format: 'esm',
  // ESM output has no `require`; a bundled CommonJS dependency that calls it gets Node's own.
  banner: { js: "import { createRequire as __ffCreateRequire } from 'node:module'; const require = __ffCreateRequire(import.meta.url);" },
  entryPoints: { 'scanWorker.bundle': 'dist/actors/scanWorker.js' },
});
