/**
 * The OS keyring secret store (@napi-rs/keyring, service `jp.outcasts.fuseforks`, account = key; SPEC §5) — the
 * original app's service, so keys it registered are found unchanged. Earlier builds of this project wrote under
 * `fuseforks`: reads fall back to that service (so `check` sees such a key without writing anything) and the host
 * moves those keys once at boot (`moveLegacy`). The native module is loaded on first use only: `check --secrets env`
 * and `ask` from cron never pay its load cost (≈75 ms), and a box without a keyring fails only when the store is used.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { SecretStore } from './secretStore.js';
import { FuseforksError } from '../errors.js';
import { keyringRefused, secretNotKept } from '../errors/hostErrors.js';
import type { KeyringAnswer, KeyringStoreName } from './keyringAnswers.js';

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
/** Linux: the store an entry is pinned to (the constructor throws when that store cannot be reached). */
type LinuxStore = 'secret-service' | 'keyutils';
type EntryClass = new (service: string, account: string, options?: { linux: { store: LinuxStore } }) => KeyringEntry;

/** On Linux, writes go to the Secret Service only: the kernel keyring forgets keys (reboot, 3 days, other sessions). */
const PINNED_WRITES = process.platform === 'linux';

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

  /**
   * Writes under the current service, reads it back through a fresh entry and drops a legacy copy, so a later delete
   * cannot leave a stale key readable. On Linux the write is pinned to the Secret Service: without one the library
   * would fall back to the kernel keyring, which forgets the key at reboot, after 3 days unused and in other login
   * sessions, while printing nothing. A key that is not kept is SECRET_NOT_KEPT, and nothing else changes.
   */
  set(key: string, value: string): void {
    this.#guard('set', key, () => {
      const written = this.#writeEntry(key);
      written.setPassword(value);
      const back = this.#writeEntry(key).getPassword();
      if (back !== value) {
        throw secretNotKept(key, back === null || back === undefined ? 'it read back as missing right after the write' : 'it read back as another value right after the write');
      }
      if (this.#legacy !== null) this.#entry(this.#legacy, key).deletePassword();
    });
  }

  /**
   * What each store says about `key`: the library's pick read twice, and on Linux the Secret Service and the kernel
   * keyring each asked by name (reads only). `check` names a keyring whose answers disagree (keyringAnswers.ts).
   */
  answers(key: string): KeyringAnswer[] {
    const ask = (store: KeyringStoreName, make: () => KeyringEntry): KeyringAnswer => {
      let entry: KeyringEntry;
      try {
        entry = make();
      } catch {
        return { store, state: 'unavailable' };
      }
      try {
        const value = entry.getPassword();
        // A digest, so two stores with different keys disagree without the value leaving this function.
        return typeof value === 'string' ? { store, state: 'stored', value: createHash('sha256').update(value).digest('hex').slice(0, 16) } : { store, state: 'missing' };
      } catch {
        return { store, state: 'error' };
      }
    };
    const Entry = loadEntry();
    const picked = (): KeyringEntry => new Entry(this.#service, key);
    const out = [ask('keyring', picked), ask('keyring', picked)];
    if (process.platform === 'linux') {
      out.push(ask('secret-service', () => new Entry(this.#service, key, { linux: { store: 'secret-service' } })));
      out.push(ask('kernel-keyring', () => new Entry(this.#service, key, { linux: { store: 'keyutils' } })));
    }
    return out;
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

  /** The entry a write goes to (Linux: the Secret Service or nothing). */
  #writeEntry(key: string): KeyringEntry {
    if (!PINNED_WRITES) return this.#entry(this.#service, key);
    const Entry = loadEntry();
    try {
      return new Entry(this.#service, key, { linux: { store: 'secret-service' } });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw secretNotKept(
        key,
        `no Secret Service answers on this session (${reason}), and the kernel keyring, the only one left, forgets keys at reboot, after 3 days unused and in other login sessions or containers`,
      );
    }
  }

  #guard<T>(operation: string, key: string, body: () => T): T {
    try {
      return body();
    } catch (error) {
      if (error instanceof FuseforksError) throw error;
      // A missing key never lands here (the library returns null / false for it). The library's message
      // names the platform failure (AccessDenied, DBus); it never carries the value.
      const reason = error instanceof Error ? error.message : String(error);
      throw keyringRefused(operation, key, reason, error);
    }
  }
}
