/**
 * The real OS keyring. The round trip runs only inside a D-Bus session with an unlocked Secret Service
 * (the CI script `.ci/run` provides one with a temporary HOME); the headless-failure test runs only without one.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../../src/core/errors.js';
import { KeyringSecretStore } from '../../../src/core/secrets/keyringSecretStore.js';

const SERVICE = 'fuseforks-test';
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

describe.skipIf(Boolean(process.env.DBUS_SESSION_BUS_ADDRESS))('KeyringSecretStore on a headless box', () => {
  it('maps the platform failure to SECRET_STORE_FAILED with a --secrets env fix, never the value', () => {
    const store = new KeyringSecretStore(SERVICE);
    let caught: unknown;
    try {
      store.set(`tpl-${randomUUID()}`, SENTINEL);
    } catch (error) {
      caught = error;
    }
    expect(isFuseforksError(caught) && caught.code).toBe('SECRET_STORE_FAILED');
    const error = caught as Error & { fix?: string };
    expect(error.fix).toContain('--secrets env');
    expect(JSON.stringify({ m: error.message, f: error.fix })).not.toContain(SENTINEL);
  });
});
