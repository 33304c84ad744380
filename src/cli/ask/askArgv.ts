/**
 * `ask`'s fast path reads its arguments here, with Node's own `util.parseArgs` and the flag specs oclif's
 * definitions are built from (flagSpecs.ts), so a cold `ask` from cron never loads oclif (its config, plugins and
 * ~0.45 MB of code cost ~50 ms of CPU on the way to the first worker). Only the plain forms are read: anything else
 * (help, a repeated flag, grouped or glued short flags, a value oclif would reject, an empty or dash-led value, a
 * missing required flag) returns null and the full oclif CLI parses it and explains any problem exactly as before.
 * A test runs oclif's own parser on the same arguments: when this one answers, the two agree. Pure.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ASK_FLAG_SPECS, type AskFlagValues, type FlagSpec } from '../flagSpecs.js';

/** `ask`'s arguments once read: the flags and the request text (`-` for stdin, still unread). */
export interface AskArgs {
  flags: AskFlagValues;
  text: string;
}

const SPECS: ReadonlyArray<[string, FlagSpec]> = Object.entries(ASK_FLAG_SPECS);

const OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  SPECS.map(([name, spec]) => [name, { type: spec.kind === 'boolean' ? 'boolean' : 'string', ...(spec.char === undefined ? {} : { short: spec.char }) }]),
);

/** A whole number as oclif writes it back (no sign, no leading zero, no exponent), within the safe range. */
const WHOLE = /^[1-9][0-9]{0,14}$/;

/**
 * `words`: the arguments after `ask`; `env`: the process environment (a flag's variable, as oclif reads it).
 * Null unless the arguments are in the plain forms this reads and every value is one oclif accepts.
 */
export function parseAskArgv(words: readonly string[], env: Readonly<Record<string, string | undefined>>): AskArgs | null {
  const parsed = tryParse(words);
  if (parsed === null) return null;
  const names = new Set<string>();
  const wordsSeen = new Set<number>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    // Repeated, or one of several short flags glued into one word (-qd): oclif's business.
    if (names.has(token.name) || wordsSeen.has(token.index)) return null;
    names.add(token.name);
    wordsSeen.add(token.index);
    if (token.rawName.length === 2 && token.inlineValue === true) return null; // -dDIR
    if (token.value !== undefined && (token.value === '' || token.value.startsWith('-'))) return null;
  }
  const [text, ...extra] = parsed.positionals;
  if (text === undefined || extra.length > 0) return null;

  const flags: Record<string, string | number | boolean | undefined> = {};
  for (const [name, spec] of SPECS) {
    const given = parsed.values[name];
    if (spec.kind === 'boolean') {
      flags[name] = given === true;
      continue;
    }
    let value = typeof given === 'string' ? given : spec.env === undefined ? undefined : env[spec.env];
    if (value === '') return null; // an empty variable: leave oclif to decide what that means
    if (spec.kind === 'option') {
      value ??= spec.default;
      if (value !== undefined && !spec.options.includes(value)) return null;
      flags[name] = value;
    } else if (spec.kind === 'integer') {
      if (value !== undefined && (!WHOLE.test(value) || Number(value) < spec.min)) return null;
      flags[name] = value === undefined ? undefined : Number(value);
    } else {
      flags[name] = value;
    }
    if (spec.required === true && flags[name] === undefined) return null;
  }
  // The loop above gave every flag of the spec table a value of its kind: the table and the type list the same flags.
  return { flags: flags as unknown as AskFlagValues, text };
}

function tryParse(words: readonly string[]) {
  try {
    return parseArgs({ args: [...words], options: OPTIONS, strict: true, allowPositionals: true, tokens: true });
  } catch {
    return null; // an unknown flag (--help too), a flag without its value, a value given to an on/off flag
  }
}
