/**
 * The real OS keyring. The round trip runs only inside a D-Bus session with an unlocked Secret Service
 * (the CI script `.ci/run` provides one with a temporary HOME); the headless-failure test runs only without one.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { DiagFields } from '../../../src/core/diag.js';
import { isFuseforksError } from '../../../src/core/errors.js';
import { KEYRING_SERVICE, KeyringSecretStore, LEGACY_KEYRING_SERVICE } from '../../../src/core/secrets/keyringSecretStore.js';
import { moveLegacyKeys } from '../../../src/host/bootSteps.js';
import type { World } from '../../../src/core/world/types.js';

const SERVICE = 'fuseforks-test';
const LEGACY = 'fuseforks-test-legacy';

type RawEntry = { getPassword(): string | null | undefined; setPassword(p: string): void; deletePassword(): boolean };
/** The raw library, to look at what the store really wrote (service + account), bypassing the store under test. */
function raw(service: string, account: string): RawEntry {
  const { Entry } = createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: new (s: string, a: string) => RawEntry };
  return new Entry(service, account);
}
const SENTINEL = `sk-sentinel-${randomUUID()}`;

/** Probes the raw library (not the store under test): can this session really write a secret? */
function keyringUsable(): { ok: boolean; reason: string } {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return { ok: false, reason: 'DBUS_SESSION_BUS_ADDRESS is not set (no Secret Service session)' };
  try {
    const { Entry } = createRequire(import.meta.url)('@napi-rs/keyring') as {
      Entry: new (s: string, a: string) => { setPassword(p: string): void; deletePassword(): boolean };
    };
    const probe = new Entry(SERVICE, `probe-${randomUUID()}`);
    probe.setPassword('probe');
    probe.deletePassword();
    return { ok: true, reason: '' };
  } catch (error) {
    return { ok: false, reason: `the keyring is not unlocked: ${(error as Error).message}` };
  }
}

const usable = keyringUsable();
if (!usable.ok) console.warn(`[skip] keyring round trip: ${usable.reason}. Run under .ci/run to include it.`);

describe.skipIf(!usable.ok)('KeyringSecretStore against an unlocked Secret Service', () => {
  it('set → get → has → delete round-trips a unique key, and delete is idempotent', () => {
    const store = new KeyringSecretStore(SERVICE);
    const key = `tpl-${randomUUID()}`;
    try {
      expect(store.get(key)).toBeNull();
      store.set(key, SENTINEL);
      expect(store.get(key)).toBe(SENTINEL);
      expect(store.has(key)).toBe(true);
      store.delete(key);
      expect(store.has(key)).toBe(false);
      expect(() => store.delete(key)).not.toThrow();
    } finally {
      store.delete(key);
    }
  });
});

describe.skipIf(!usable.ok)('keyring service and the one-time move from the old service', () => {
  it('writes under the configured service with account = template id', () => {
    const store = new KeyringSecretStore(SERVICE, LEGACY);
    const key = `tpl-${randomUUID()}`;
    try {
      store.set(key, SENTINEL);
      expect(raw(SERVICE, key).getPassword()).toBe(SENTINEL);
      expect(raw(LEGACY, key).getPassword() ?? null).toBeNull();
    } finally {
      store.delete(key);
    }
  });

  it('reads a key left under the old service, moves it once with a keyring: line, and deletes both on delete', () => {
    const store = new KeyringSecretStore(SERVICE, LEGACY);
    const key = `tpl-${randomUUID()}`;
    const notes: Array<{ kind: string; fields: DiagFields }> = [];
    const diag = { note: (kind: string, fields: DiagFields = {}) => void notes.push({ kind, fields }) };
    const world = { modelTemplates: [{ id: key }] } as unknown as World;
    try {
      raw(LEGACY, key).setPassword(SENTINEL);
      // Read-only fallback: `check` sees the key without anything being written.
      expect(store.get(key)).toBe(SENTINEL);
      expect(raw(SERVICE, key).getPassword() ?? null).toBeNull();
      expect(moveLegacyKeys(store, world, diag)).toEqual([key]);
      expect(raw(SERVICE, key).getPassword()).toBe(SENTINEL);
      expect(raw(LEGACY, key).getPassword() ?? null).toBeNull();
      expect(notes).toEqual([{ kind: 'keyring', fields: { moved: 1, keys: key, from: LEGACY_KEYRING_SERVICE, to: KEYRING_SERVICE } }]);
      expect(JSON.stringify(notes)).not.toContain(SENTINEL);
      // Once: the next boot finds nothing to move and writes no line.
      expect(moveLegacyKeys(store, world, diag)).toEqual([]);
      expect(notes).toHaveLength(1);
      raw(LEGACY, key).setPassword('stale');
      store.delete(key);
      expect(store.get(key)).toBeNull();
      expect(raw(LEGACY, key).getPassword() ?? null).toBeNull();
    } finally {
      store.delete(key);
    }
  });

  it('a key under both services keeps the current value and leaves the old one alone', () => {
    const store = new KeyringSecretStore(SERVICE, LEGACY);
    const key = `tpl-${randomUUID()}`;
    try {
      raw(SERVICE, key).setPassword('current');
      raw(LEGACY, key).setPassword('old');
      expect(store.moveLegacy([key])).toEqual([]);
      expect(store.get(key)).toBe('current');
      expect(raw(LEGACY, key).getPassword()).toBe('old');
    } finally {
      store.delete(key);
    }
  });
});

// The production service names, only inside a throwaway keyring (.ci/run gives a temporary HOME): never a real one.
const throwawayKeyring = usable.ok && (process.env.HOME ?? '').startsWith(tmpdir());
describe.skipIf(!throwawayKeyring)('the default store in a throwaway keyring', () => {
  it('uses the original app\'s service jp.outcasts.fuseforks, and finds keys an earlier build left under fuseforks', () => {
    const store = new KeyringSecretStore();
    const key = `tpl-${randomUUID()}`;
    try {
      store.set(key, SENTINEL);
      expect(raw('jp.outcasts.fuseforks', key).getPassword()).toBe(SENTINEL);
      store.delete(key);
      raw('fuseforks', key).setPassword(SENTINEL);
      expect(store.get(key)).toBe(SENTINEL);
      expect(store.moveLegacy([key])).toEqual([key]);
      expect(raw('jp.outcasts.fuseforks', key).getPassword()).toBe(SENTINEL);
    } finally {
      store.delete(key);
    }
  });
});

describe.skipIf(Boolean(process.env.DBUS_SESSION_BUS_ADDRESS))('KeyringSecretStore on a headless box', () => {
  it('refuses the write: SECRET_NOT_KEPT on Linux (only the kernel keyring, which forgets keys, is left), SECRET_STORE_FAILED elsewhere; a --secrets env fix, never the value', () => {
    const store = new KeyringSecretStore(SERVICE);
    let caught: unknown;
    try {
      store.set(`tpl-${randomUUID()}`, SENTINEL);
    } catch (error) {
      caught = error;
    }
    expect(isFuseforksError(caught) && caught.code).toBe(process.platform === 'linux' ? 'SECRET_NOT_KEPT' : 'SECRET_STORE_FAILED');
    const error = caught as Error & { fix?: string };
    expect(error.fix).toContain('--secrets env');
    expect(JSON.stringify({ m: error.message, f: error.fix })).not.toContain(SENTINEL);
  });
});
