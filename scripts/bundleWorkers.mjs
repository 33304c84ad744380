#!/usr/bin/env node
// Build step (after tsc): bundles each worker thread entry, so a new agent worker loads one small file at spawn
// and one more (its engine, backends and tools: agentEngine.ts) at its first delivery, instead of ~170 modules.
// A scanning pool thread loads one file. Sources stay as they are; the bundles are build output in dist/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // yq's editors are loaded on first use by a few agents: they stay separate files, imported when needed.
  external: ['jsonc-parser', '@decimalturn/toml-patch'],
  // ESM output has no `require`; a bundled CommonJS dependency that calls it gets Node's own.
  banner: { js: "import { createRequire as __ffCreateRequire } from 'node:module'; const require = __ffCreateRequire(import.meta.url);" },
};

// The agent worker: the entry, plus its engine as a lazy chunk (the dynamic import of agentEngine.js). Chunk names
// carry a content hash: clear the old ones first.
rmSync(resolve(root, 'dist/actors/chunks'), { recursive: true, force: true });
await build({
  ...common,
  absWorkingDir: root,
  entryPoints: { 'agentWorker.bundle': 'dist/actors/agentWorker.js' },
  outdir: 'dist/actors',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
await build({ ...common, absWorkingDir: root, entryPoints: { 'scanWorker.bundle': 'dist/actors/scanWorker.js' }, outdir: 'dist/actors' });
