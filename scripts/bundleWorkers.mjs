#!/usr/bin/env node
// Build step (after tsc): bundles each worker thread entry, so a new agent worker loads one small file at spawn
// and one more (its engine, backends and tools: agentEngine.ts) at its first delivery, instead of ~170 modules.
// A scanning pool thread loads one file. Sources stay as they are; the bundles are build output in dist/.
//
// The agent worker is CommonJS: an ES module entry makes Node set up its ES module loader in every worker, ~5 ms of
// CPU per agent at spawn (measured: an empty worker 26 ms as .mjs, 21 ms as .cjs). The engine is a second CommonJS
// file the entry loads at the first delivery, from V8's code cache written here; the few modules both use (the turn's
// types and helpers, the error classes) are in each file once, which is why errors cross the worker's RPC by shape
// (actors/rpc.ts).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/**
 * The engine's lazy dependencies that ship only as ES modules (toml-patch, for yq) get a CommonJS bundle of their own
 * beside it: a script compiled from a code cache cannot `import()`, so the engine `require`s them (below).
 */
const ESM_ONLY = { '@decimalturn/toml-patch': 'tomlPatch.bundle' };
const esmOnlyAsBundles = {
  name: 'esm-only-as-bundles',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(ESM_ONLY).map((n) => n.replace(/[/@.-]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: `./${ESM_ONLY[args.path]}.cjs`, external: true }));
  },
};

// Earlier builds left an ES module entry and hashed chunks here.
await rm(resolve(root, 'dist/actors/chunks'), { recursive: true, force: true });
// The entry's `import('./agentEngine.js')` is only its fallback outside this build (agentWorker.ts): it stays out.
await build({ ...agentWorker, entryPoints: { 'agentWorker.bundle': 'dist/actors/agentWorker.js' }, external: [...common.external, './agentEngine.js'] });
// The engine: its `import()`s of the yq editors become `require`s (esbuild lowers them when told the target has none).
await build({
  ...agentWorker,
  entryPoints: { 'agentEngine.bundle': 'dist/actors/agentEngine.js' },
  supported: { 'dynamic-import': false },
  plugins: [esmOnlyAsBundles],
});
await build({ ...agentWorker, entryPoints: Object.fromEntries(Object.entries(ESM_ONLY).map(([pkg, name]) => [name, pkg])), external: [] });
// The engine's code cache, written by a fresh Node without flags: the workers compile from it (codeCachedRequire.ts).
const engine = resolve(root, 'dist/actors/agentEngine.bundle.cjs');
const writer = pathToFileURL(resolve(root, 'dist/actors/codeCachedRequire.js')).href;
const written = spawnSync(process.execPath, ['--input-type=module', '-e', `(await import(${JSON.stringify(writer)})).writeCodeCache(${JSON.stringify(engine)});`], { stdio: 'inherit' });
if (written.status !== 0) throw new Error(`bundleWorkers: writing the engine's code cache failed (exit ${written.status})`);
await build({
  ...common,
  format: 'esm',
  // ESM output has no `require`; a bundled CommonJS dependency that calls it gets Node's own.
  banner: { js: "import { createRequire as __ffCreateRequire } from 'node:module'; const require = __ffCreateRequire(import.meta.url);" },
  entryPoints: { 'scanWorker.bundle': 'dist/actors/scanWorker.js' },
});
