/**
 * Where API keys live. The core sees only this interface; the keyring and env stores are host-side.
 * Keys are model template ids (and a few fixed names such as `jev_api_token`); values never leave this seam
 * in logs, errors or events.
 */

/** Which store backs the secrets. */
export type SecretStoreKind = 'keyring' | 'env' | 'memory';

/** A secret store. `get` returns null when the key has no value. */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  get(key: string): string | null;
  has(key: string): boolean;
  set(key: string, value: string): void;
  delete(key: string): void;
}

/** In-memory store for tests and first runs. Values are trimmed on `set`; an empty value deletes. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly values = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.set(k, v);
  }

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  set(key: string, value: string): void {
    const trimmed = value.trim();
    if (trimmed === '') this.values.delete(key);
    else this.values.set(key, trimmed);
  }

  delete(key: string): void {
    this.values.delete(key);
  }
}
