/**
 * ask's fast path reads its arguments without oclif (src/cli/ask/askArgv.ts). Whatever it reads, oclif's own parser
 * must read the same from the same arguments (the fast path is only allowed to be faster, never different); what
 * it declines (null) goes to oclif, which explains any problem as before. Both sides run here on every case.
 */
import { Parser } from '@oclif/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAskArgv } from '../../src/cli/ask/askArgv.js';
import Ask from '../../src/cli/commands/ask.js';
import { ASK_FLAG_SPECS } from '../../src/cli/flagSpecs.js';

/** oclif's reading of `ask <words>` (flags without the unset ones), or the reason it refuses. */
async function oclifReads(words: string[]): Promise<{ flags: Record<string, unknown>; text: unknown } | { error: string }> {
  try {
    const out = await Parser.parse(words, { flags: Ask.flags, args: Ask.args, strict: true });
    const flags = Object.fromEntries(Object.entries(out.flags).filter(([, v]) => v !== undefined));
    return { flags, text: out.args.text };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function fastReads(words: string[], env: Record<string, string | undefined> = {}): { flags: Record<string, unknown>; text: unknown } | null {
  const read = parseAskArgv(words, env);
  if (read === null) return null;
  return { flags: Object.fromEntries(Object.entries(read.flags).filter(([, v]) => v !== undefined)), text: read.text };
}

const D = ['--data-dir', '/v'];
const S = ['--start', 'batch'];

/** Plain forms: the fast path reads each, exactly as oclif does. */
const READ: Array<[string, string[], Record<string, string>?]> = [
  ['the cron form', [...D, ...S, 'hello']],
  ['-d and the text first', ['hello', '-d', '/v', ...S]],
  ['--flag=value forms', ['--data-dir=/v', '--start=a,b', 'hi there']],
  ['stdin', [...D, ...S, '-']],
  ['data dir from FUSEFORKS_DATA_DIR', [...S, 'hello'], { FUSEFORKS_DATA_DIR: '/from/env' }],
  ['the flag wins over the variable', [...D, ...S, 'hello'], { FUSEFORKS_DATA_DIR: '/from/env' }],
  ['every flag', [...D, ...S, '--secrets', 'env', '--bypass-plan-review', '--run-approval', 'auto-approve', '--events', 'jsonl', '-q', '--log-level', 'warn', '--client', 'cron', '--continue-session', '--verbose', '--json', '--timeout', '120', 'status']],
  ['text after --', [...D, ...S, '--', '--not-a-flag']],
  ['a text with spaces and quotes', [...D, ...S, 'say "hi" — ok?']],
];

/** Declined: oclif decides (and explains the ones that are wrong). */
const DECLINED: Array<[string, string[], Record<string, string>?]> = [
  ['help', [...D, ...S, '--help']],
  ['-h', ['-h']],
  ['no text', [...D, ...S]],
  ['two texts', [...D, ...S, 'a', 'b']],
  ['no --start', [...D, 'hello']],
  ['no data dir anywhere', [...S, 'hello']],
  ['an empty FUSEFORKS_DATA_DIR', [...S, 'hello'], { FUSEFORKS_DATA_DIR: '' }],
  ['a repeated flag', [...D, ...S, '--start', 'reception', 'hello']],
  ['an unknown flag', [...D, ...S, '--nope', 'hello']],
  ['an option value oclif refuses', [...D, ...S, '--secrets', 'vault', 'hello']],
  ['timeout 0', [...D, ...S, '--timeout', '0', 'hello']],
  ['timeout not a number', [...D, ...S, '--timeout', 'soon', 'hello']],
  ['timeout with a leading zero', [...D, ...S, '--timeout', '010', 'hello']],
  ['a value to an on/off flag', [...D, ...S, '--json=yes', 'hello']],
  ['a missing value', [...D, 'hello', '--start']],
  ['a dash-led value', [...D, '--start=-x', 'hello']],
  ['an empty value', [...D, '--start=', 'hello']],
  ['glued short flags', ['-qd', '/v', ...S, 'hello']],
  ['a short flag with its value glued', ['-d/v', ...S, 'hello']],
  ['--no- form', [...D, ...S, '--no-json', 'hello']],
];

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('parseAskArgv (ask without oclif)', () => {
  it.each(READ)('reads %s exactly as oclif does', async (_name, words, env = {}) => {
    for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
    const fast = fastReads(words, env);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(await oclifReads(words));
  });

  it.each(DECLINED)('declines %s (oclif decides)', async (_name, words, env = {}) => {
    for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
    expect(fastReads(words, env)).toBeNull();
  });

  it('leaves oclif only these valid forms (they run as before, through the oclif CLI); the rest are errors oclif explains', async () => {
    const accepted = [];
    for (const [name, words, env = {}] of DECLINED) {
      for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
      if (!('error' in (await oclifReads(words)))) accepted.push(name);
      vi.unstubAllEnvs();
    }
    expect(accepted.sort()).toEqual(['a dash-led value', 'a short flag with its value glued', 'an empty value', 'glued short flags', 'timeout with a leading zero']);
  });

  it('knows every flag oclif defines for ask, with the same kind, alias, variable and default', () => {
    const oclif = Ask.flags as Record<string, { type: string; char?: string; env?: string; default?: unknown; options?: readonly string[] }>;
    expect(Object.keys(ASK_FLAG_SPECS).sort()).toEqual(Object.keys(oclif).sort());
    for (const [name, spec] of Object.entries(ASK_FLAG_SPECS)) {
      const flag = oclif[name]!;
      expect(flag.type, name).toBe(spec.kind === 'boolean' ? 'boolean' : 'option');
      expect(flag.char, name).toBe('char' in spec ? spec.char : undefined);
      expect(flag.env, name).toBe('env' in spec ? spec.env : undefined);
      if (spec.kind === 'option') expect(flag.options, name).toEqual(spec.options);
    }
  });
});
