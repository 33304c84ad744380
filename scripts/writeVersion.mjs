#!/usr/bin/env node
// Build step (after tsc): records the CLI version from git into dist/cli/buildInfo.json (SPEC §6.6).
// Usage: node scripts/writeVersion.mjs [--root <repo dir>] [--out <file>]. Never fails the build:
// without git, without a tag or outside a repository it still writes a version (0.0.0 at worst).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback;
};
const root = option('--root', resolve(here, '..'));
const out = option('--out', resolve(here, '..', 'dist', 'cli', 'buildInfo.json'));

function git(...gitArgs) {
  try {
    const text = execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return text === '' ? null : text;
  } catch {
    return null; // no git, not a repository, no tag: each is a normal case here
  }
}

// The composition rule lives in the compiled CLI (one place, unit-tested); a copy is used only if the build is absent.
let composeVersion = (tag, commit) => {
  const base = tag ? tag.replace(/^v(?=\d)/, '') : '0.0.0';
  return commit ? `${base}+g${commit}` : base;
};
try {
  ({ composeVersion } = await import(new URL('../dist/cli/version.js', import.meta.url).href));
} catch {
  // keep the fallback
}

const tag = git('describe', '--tags', '--abbrev=0');
const commit = git('rev-parse', '--short', 'HEAD');
const info = { version: composeVersion(tag, commit), tag, commit };
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(info)}\n`);
process.stderr.write(`writeVersion: ${info.version} → ${out}\n`);
