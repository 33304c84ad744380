/**
 * The read-only secret store for containers and CI (`--secrets env`, SPEC §5): every
 * `FUSEFORKS_SECRET_*` variable is copied ONCE at construction, so a value can never change mid-turn.
 * Writing is refused on purpose: a key typed into the GUI must never flow into the environment or a file.
 */
import { SECRET_ENV_PREFIX, envNameForKey } from './secretNames.js';
import type { SecretStore } from './secretStore.js';
import { envSecretsReadOnly } from '../errors/hostErrors.js';

/** An environment-shaped object (`process.env` or a test's own map). */
export type EnvLike = Readonly<Record<string, string | undefined>>;

/** Reads secrets from a snapshot of `FUSEFORKS_SECRET_*` variables; set/delete throw SECRET_STORE_READ_ONLY. */
export class EnvSecretStore implements SecretStore {
  readonly kind = 'env' as const;
  /** Variable name → value, taken at construction. Never logged, never part of an error. */
  readonly #values: ReadonlyMap<string, string>;

  constructor(env: EnvLike) {
    const values = new Map<string, string>();
    for (const [name, value] of Object.entries(env)) {
      // An empty variable counts as absent: an API call with an empty key fails like a missing one.
      if (name.startsWith(SECRET_ENV_PREFIX) && typeof value === 'string' && value !== '') values.set(name, value);
    }
    this.#values = values;
  }

  get(key: string): string | null {
    return this.#values.get(envNameForKey(key)) ?? null;
  }

  has(key: string): boolean {
    return this.#values.has(envNameForKey(key));
  }

  set(key: string, _value: string): void {
    throw envSecretsReadOnly(envNameForKey(key));
  }

  delete(key: string): void {
    throw envSecretsReadOnly(envNameForKey(key));
  }

  /** The variable names present (sorted), for messages that say what is set. Names only, never values. */
  variableNames(): string[] {
    return [...this.#values.keys()].sort();
  }
}
