/**
 * The OS keyring secret store (@napi-rs/keyring, service `jp.outcasts.fuseforks`, account = key; SPEC §5) — the
 * original app's service, so keys it registered are found unchanged. Earlier builds of this project wrote under
 * `fuseforks`: reads fall back to that service (so `check` sees such a key without writing anything) and the host
 * moves those keys once at boot (`moveLegacy`). The native module is loaded on first use only: `check --secrets env`
 * and `ask` from cron never pay its load cost (≈75 ms), and a box without a keyring fails only when the store is used.
 */
import { createRequire } from 'node:module';
import type { SecretStore } from './secretStore.js';
import { keyringRefused } from '../errors/hostErrors.js';

/** The keyring service every Fuseforks secret is stored under (the original app's; account = template id). */
export const KEYRING_SERVICE = 'jp.outcasts.fuseforks';
/** Where earlier builds of this project stored keys; read as a fallback and emptied by `moveLegacy`. */
export const LEGACY_KEYRING_SERVICE = 'fuseforks';

/** The slice of @napi-rs/keyring's `Entry` this store uses. */
interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(password: string): void;
  deletePassword(): boolean;
}
type EntryClass = new (service: string, account: string) => KeyringEntry;

let entryClass: EntryClass | null = null;

function loadEntry(): EntryClass {
  if (entryClass === null) {
    // createRequire keeps the call synchronous (SecretStore is a sync interface) and lazy.
    const require = createRequire(import.meta.url);
    entryClass = (require('@napi-rs/keyring') as { Entry: EntryClass }).Entry;
  }
  return entryClass;
}

/** Reads and writes secrets in the OS keyring; every failure becomes SECRET_STORE_FAILED without the value. */
export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keyring' as const;
  readonly #service: string;
  readonly #legacy: string | null;

  /** The services are for tests only; production always uses the two constants above. */
  constructor(service: string = KEYRING_SERVICE, legacyService: string | null = LEGACY_KEYRING_SERVICE) {
    this.#service = service;
    this.#legacy = legacyService === service ? null : legacyService;
  }

  /** The value under the current service, else under the legacy one (read-only fallback), else null. */
  get(key: string): string | null {
    return this.#guard('get', key, () => this.#read(this.#service, key) ?? (this.#legacy === null ? null : this.#read(this.#legacy, key)));
  }

  has(key: string): boolean {
    return this.get(key) !== null;
  }

  /** Writes under the current service and drops a legacy copy, so a later delete cannot leave a stale key readable. */
  set(key: string, value: string): void {
    this.#guard('set', key, () => {
      this.#entry(this.#service, key).setPassword(value);
      if (this.#legacy !== null) this.#entry(this.#legacy, key).deletePassword();
    });
  }

  /** Idempotent: deleting a missing key succeeds (the library answers `false`, not an error). Both services. */
  delete(key: string): void {
    this.#guard('delete', key, () => {
      this.#entry(this.#service, key).deletePassword();
      if (this.#legacy !== null) this.#entry(this.#legacy, key).deletePassword();
    });
  }

  /**
   * Moves each of `keys` found only under the legacy service to the current one and deletes the legacy entry.
   * A key present under both is left alone (the current value wins; the old one is never destroyed unasked).
   * Returns the keys moved — empty on every boot after the first.
   */
  moveLegacy(keys: Iterable<string>): string[] {
    const legacy = this.#legacy;
    if (legacy === null) return [];
    const moved: string[] = [];
    for (const key of new Set(keys)) {
      this.#guard('move', key, () => {
        const old = this.#read(legacy, key);
        if (old === null || this.#read(this.#service, key) !== null) return;
        this.#entry(this.#service, key).setPassword(old);
        this.#entry(legacy, key).deletePassword();
        moved.push(key);
      });
    }
    return moved;
  }

  #read(service: string, key: string): string | null {
    const value = this.#entry(service, key).getPassword();
    return typeof value === 'string' ? value : null;
  }

  #entry(service: string, key: string): KeyringEntry {
    const Entry = loadEntry();
    return new Entry(service, key);
  }

  #guard<T>(operation: string, key: string, body: () => T): T {
    try {
      return body();
    } catch (error) {
      // A missing key never lands here (the library returns null / false for it). The library's message
      // names the platform failure (AccessDenied, DBus); it never carries the value.
      const reason = error instanceof Error ? error.message : String(error);
      throw keyringRefused(operation, key, reason, error);
    }
  }
}
