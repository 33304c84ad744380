/**
 * The OS keyring secret store (@napi-rs/keyring, service `fuseforks`, account = key; SPEC §5).
 * The native module is loaded on first use only: `check --secrets env` and `ask` from cron never pay
 * its load cost (≈75 ms, deps-probe §6), and a box without a keyring fails only when the store is used.
 */
import { createRequire } from 'node:module';
import { FuseforksError } from '../errors.js';
import type { SecretStore } from './secretStore.js';

/** The keyring service name every Fuseforks secret is stored under. */
export const KEYRING_SERVICE = 'fuseforks';

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

  /** `service` is for tests only; production always uses `fuseforks`. */
  constructor(service: string = KEYRING_SERVICE) {
    this.#service = service;
  }

  get(key: string): string | null {
    return this.#guard('get', key, () => {
      const value = this.#entry(key).getPassword();
      return typeof value === 'string' ? value : null;
    });
  }

  has(key: string): boolean {
    return this.get(key) !== null;
  }

  set(key: string, value: string): void {
    this.#guard('set', key, () => this.#entry(key).setPassword(value));
  }

  /** Idempotent: deleting a missing key succeeds (the library answers `false`, not an error). */
  delete(key: string): void {
    this.#guard('delete', key, () => {
      this.#entry(key).deletePassword();
    });
  }

  #entry(key: string): KeyringEntry {
    const Entry = loadEntry();
    return new Entry(this.#service, key);
  }

  #guard<T>(operation: string, key: string, body: () => T): T {
    try {
      return body();
    } catch (error) {
      // A missing key never lands here (the library returns null / false for it). The library's message
      // names the platform failure (AccessDenied, DBus); it never carries the value.
      const reason = error instanceof Error ? error.message : String(error);
      throw new FuseforksError('SECRET_STORE_FAILED', `The OS keyring refused to ${operation} the secret "${key}": ${reason}`, {
        fix:
          'On a headless machine or in a container there is usually no unlocked keyring: run with --secrets env and ' +
          'set FUSEFORKS_SECRET_<KEY> variables, or unlock a Secret Service keyring (gnome-keyring) first.',
        details: { operation, key },
        cause: error,
      });
    }
  }
}
