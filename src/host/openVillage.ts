/**
 * `openVillage` — the library entry to a village: `buildHost` with the defaults an embedding program wants, given
 * a data dir. The returned `HostApi` is the same surface the CLI, the GUI server and the door use.
 */
import type { SecretStore } from '../core/secrets/secretStore.js';
import type { SecretSource } from '../core/secrets/openSecretStore.js';
import { buildHost, type HostOptions } from './buildHost.js';
import type { HostApi } from './hostApi.js';
import { HostPaths } from './hostPaths.js';

/** How a program opens a village. Everything but `dataDir` has a default. */
export interface OpenVillageOptions extends Partial<Omit<HostOptions, 'secrets' | 'secretStore'>> {
  /** `{dataDir}`: the village is `{dataDir}/workspace`, files beside it are this machine's shelf. */
  dataDir: string;
  /** Where API keys come from (default `env`: `FUSEFORKS_SECRET_*`, read-only), or a ready store. */
  secrets?: SecretSource | SecretStore;
}

/**
 * Opens (locks and boots) the village in `dataDir`. Defaults: no schedules, no door, secrets from the environment,
 * the latest conversation. Throws LOCK_HELD while another process holds it, VILLAGE_MISSING without world.json.
 */
export function openVillage(options: OpenVillageOptions): Promise<HostApi> {
  const { dataDir, secrets = 'env', ...rest } = options;
  const source: SecretSource = typeof secrets === 'string' ? secrets : 'env';
  return buildHost(new HostPaths(dataDir), {
    appVersion: 'library',
    runSchedules: false,
    openDoor: false,
    ...rest,
    secrets: source,
    ...(typeof secrets === 'string' ? {} : { secretStore: secrets }),
  });
}
