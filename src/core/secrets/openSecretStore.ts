/**
 * The one place that turns `--secrets keyring|env` into a store and runs the env-name collision check, shared by
 * `check` (preflight) and `buildHost`, so the store preflight looked at is the store the village will read.
 */
import { EnvSecretStore, type EnvLike } from './envSecretStore.js';
import { takeProcessEnvSecrets } from './environScrub.js';
import { KeyringSecretStore } from './keyringSecretStore.js';
import { findSecretNameCollisions, secretNameCollisionError } from './secretNames.js';
import type { SecretStore } from './secretStore.js';

/** Where secrets come from in a headless run. The GUI always uses the keyring. */
export type SecretSource = 'keyring' | 'env';

/**
 * Builds the store. The keyring module itself loads only on the store's first use. From the real `process.env`, the
 * secrets are taken once and scrubbed out of the process (`environScrub.ts`), so no child or /proc reader sees them.
 */
export function openSecretStore(source: SecretSource, env: EnvLike = process.env): SecretStore {
  if (source !== 'env') return new KeyringSecretStore();
  return new EnvSecretStore(env === process.env ? takeProcessEnvSecrets() : env);
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
