/**
 * The one place that turns `--secrets keyring|env` into a store and runs the env-name collision check, shared by
 * `check` (preflight) and `buildHost`, so the store preflight looked at is the store the village will read.
 */
import { EnvSecretStore, type EnvLike } from './envSecretStore.js';
import { KeyringSecretStore } from './keyringSecretStore.js';
import { findSecretNameCollisions, secretNameCollisionError } from './secretNames.js';
import type { SecretStore } from './secretStore.js';

/** Where secrets come from in a headless run. The GUI always uses the keyring. */
export type SecretSource = 'keyring' | 'env';

/** Builds the store. The keyring module itself loads only on the store's first use. */
export function openSecretStore(source: SecretSource, env: EnvLike = process.env): SecretStore {
  return source === 'env' ? new EnvSecretStore(env) : new KeyringSecretStore();
}

/**
 * Under `--secrets env`, throws SECRET_NAME_COLLISION when two keys (template ids + `jev_api_token`) map to one
 * variable. The keyring keys by the exact string, so it never collides.
 */
export function checkSecretNames(source: SecretSource, templateIds: Iterable<string>): void {
  if (source !== 'env') return;
  const collisions = findSecretNameCollisions(templateIds);
  if (collisions.length > 0) throw secretNameCollisionError(collisions);
}
