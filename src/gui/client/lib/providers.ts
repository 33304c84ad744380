/**
 * The wires a model template or Jev can speak, as a person reads them (the raw ids are what world.json and
 * jev.json store; the forms never show them). Also what the template form does when the wire changes: a preset
 * URL follows the wire, the offline Echo needs neither a URL nor a key. Pure.
 */

/** Wire id → the name the forms show (same in both languages: these are product names). */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  open_ai_compat: 'OpenAI-compatible (Chat Completions)',
  anthropic: 'Anthropic',
  gemini: 'Google Gemini',
  open_ai_responses: 'OpenAI Responses',
  xai_responses: 'xAI Responses',
  meta_responses: 'Meta Responses',
  echo: 'Echo (offline, no model)',
};

/** The wire ids in the order the forms list them. */
export const PROVIDER_IDS = Object.keys(PROVIDER_NAMES);

/** The shown name of a wire id (an id this build does not know is shown as it is). */
export function providerName(id: string): string {
  return PROVIDER_NAMES[id] ?? id;
}

/** The base URL each wire's public service answers on. */
export const PRESET_URLS: Readonly<Record<string, string>> = {
  open_ai_compat: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  open_ai_responses: 'https://api.openai.com/v1',
  xai_responses: 'https://api.x.ai/v1',
  meta_responses: 'https://api.meta.ai/v1',
};

/** The parts of a template the wire decides. */
export interface WireFields {
  provider: string | null;
  baseUrl: string;
  credential: 'unset' | 'not_required' | 'keyring';
}

/**
 * The template after choosing `provider` (null = detect from the URL): a URL that is still a preset (or empty)
 * takes the new wire's preset; Echo clears a preset URL and needs no key; a custom URL and a stored key stay.
 */
export function chooseProvider(current: WireFields, provider: string | null, hasKey: boolean): WireFields {
  const presetOrEmpty = current.baseUrl.trim() === '' || Object.values(PRESET_URLS).includes(current.baseUrl);
  if (provider === 'echo') {
    return { provider, baseUrl: presetOrEmpty ? '' : current.baseUrl, credential: hasKey ? current.credential : 'not_required' };
  }
  const preset = provider === null ? undefined : PRESET_URLS[provider];
  const baseUrl = presetOrEmpty && preset !== undefined ? preset : current.baseUrl;
  // Leaving Echo: the key question is open again unless a key is stored.
  const credential = current.provider === 'echo' && !hasKey && current.credential === 'not_required' ? 'unset' : current.credential;
  return { provider, baseUrl, credential };
}

/** What Jev will do, in the order its worker decides (src/core/jev/jevDeps.ts: switch, model named, token). */
export type JevState = 'off' | 'notConfigured' | 'noToken' | 'ready';

export function jevState(settings: { enabled: boolean; baseUrl: string; model: string; wire: string }, tokenPresent: boolean): JevState {
  if (!settings.enabled) return 'off';
  if (settings.wire === 'echo') return 'ready';
  if (settings.baseUrl.trim() === '' || settings.model.trim() === '') return 'notConfigured';
  return tokenPresent ? 'ready' : 'noToken';
}
