/**
 * Secret key → environment variable name, and the collision check over every key a village can ask for
 * (SPEC §5 "Secrets"). Pure: no environment access here, so preflight and the host share one mapping.
 */

/** Prefix of every variable the env secret store reads. */
export const SECRET_ENV_PREFIX = 'FUSEFORKS_SECRET_';

/** The fixed key of the Jev (judge / tool-result compression) token; counted in every collision check. */
export const JEV_TOKEN_KEY = 'jev_api_token';

/**
 * The variable that holds `key` under `--secrets env`: the prefix + the key upper-cased with every
 * character outside [A-Z0-9] replaced by `_` (`claude-sonnet` → `FUSEFORKS_SECRET_CLAUDE_SONNET`).
 */
export function envNameForKey(key: string): string {
  return SECRET_ENV_PREFIX + key.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** Two or more keys that map to one variable: the env store cannot tell which key a value belongs to. */
export interface SecretNameCollision {
  envName: string;
  /** The colliding keys, in first-seen order, without duplicates. */
  keys: string[];
}

/**
 * Every variable name that more than one distinct key maps to, in order of first appearance.
 * Callers pass all template ids; `jev_api_token` is always added (the seed's D4: a template id
 * `jev-api-token` would otherwise share the Jev token's variable silently).
 */
export function findSecretNameCollisions(keys: Iterable<string>): SecretNameCollision[] {
  const byName = new Map<string, string[]>();
  for (const key of [...keys, JEV_TOKEN_KEY]) {
    const name = envNameForKey(key);
    const seen = byName.get(name);
    if (seen === undefined) byName.set(name, [key]);
    else if (!seen.includes(key)) seen.push(key);
  }
  const out: SecretNameCollision[] = [];
  for (const [envName, list] of byName) if (list.length > 1) out.push({ envName, keys: list });
  return out;
}

/**
 * The boot error for one or more collisions: names each variable and its keys, never a value
 * (values are not even read to build it). Exit code 5 in the CLI.
 */
export { secretNameCollisionError } from '../errors/hostErrors.js';
