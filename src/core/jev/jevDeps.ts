/**
 * Jev for one agent's turns: the helper's backend from the same factory every agent uses, or why it cannot be
 * called (switched off, no model named, no token). Built once per worker, on the first turn.
 */
import { createBackendStrict } from '../llm/factory.js';
import { MemorySecretStore } from '../secrets/secretStore.js';
import type { JevDeps } from './helperPort.js';
import { JEV_TEMPLATE_ID, jevConfigured, jevTemplate, type JevSettings } from './jevSettings.js';

/** The turn's Jev from the settings and the token the worker was started with (null = not stored). */
export function resolveJevDeps(settings: JevSettings, token: string | null): JevDeps {
  if (!settings.enabled) return { settings, backend: null, unavailable: 'disabled' };
  if (!jevConfigured(settings) && settings.wire !== 'echo') return { settings, backend: null, unavailable: 'not_configured' };
  if ((token === null || token.trim() === '') && settings.wire !== 'echo') return { settings, backend: null, unavailable: 'token_missing' };
  const store = new MemorySecretStore(token === null ? {} : { [JEV_TEMPLATE_ID]: token });
  try {
    return { settings, backend: createBackendStrict(jevTemplate(settings), store), unavailable: null };
  } catch {
    // The factory refuses only configuration it cannot use (empty base URL and the like).
    return { settings, backend: null, unavailable: 'not_configured' };
  }
}
