/**
 * Model template → LLM backend. Resolves the provider and the credential before any network use; in
 * `echoOnFailure` mode a configuration failure becomes a visible echo backend whose prefix carries the reason.
 */
import type { ModelTemplate, Provider } from '../world/types.js';
import type { SecretStore } from '../secrets/secretStore.js';
import type { LlmBackend } from './canonical.js';
import { anthropicWire } from './anthropic.js';
import { DemoBackend, DEMO_MODEL } from './demoModel.js';
import { EchoBackend } from './echo.js';
import { geminiWire } from './gemini.js';
import { HttpBackend } from './httpBackend.js';
import type { HttpBackendConfig } from './httpClient.js';
import { configError, LlmError } from './llmError.js';
import { openAiCompatWire } from './openAiCompat.js';
import { metaResponsesWire, openAiResponsesWire, xaiResponsesWire } from './responsesDialects.js';
import type { WireAdapter, WireSettings } from './wireAdapter.js';
import { KNOWN_PROVIDERS } from '../world/enums.js';
import { envNameForKey as envNameHint } from '../secrets/secretNames.js';

/** `strict` throws configuration errors; `echoOnFailure` substitutes a labelled echo backend. */
export type FactoryMode = 'strict' | 'echoOnFailure';

/** A resolved backend; `degradedReason` is set when an echo stands in for the configured provider. */
export interface BackendResolution {
  backend: LlmBackend;
  degradedReason?: string;
}

/** Test and tuning hooks passed through to HTTP backends. */
export type BackendTuning = Pick<HttpBackendConfig, 'sleep' | 'onRetry'>;

/**
 * Explicit provider, else detected from the base URL: api.anthropic.com → anthropic, anything else compat.
 * Gemini and the Responses wires are never detected (a template that works as compat must not silently move).
 */
export function effectiveProvider(template: Pick<ModelTemplate, 'provider' | 'baseUrl'>): Provider {
  if (template.provider !== null) return template.provider;
  return template.baseUrl.includes('api.anthropic.com') ? 'anthropic' : 'open_ai_compat';
}

/** The API key for a template ('' when none is needed); throws LLM_CONFIG when it must exist and does not. */
export function resolveApiKey(template: Pick<ModelTemplate, 'id' | 'name' | 'credential'>, secrets: SecretStore): string {
  switch (template.credential) {
    case 'not_required':
      return '';
    case 'unset':
      throw configError(
        `model template "${template.id}" has no credential configured (credential: unset)`,
        `store an API key for it (GUI: model templates → API key; headless: --secrets env with ${envNameHint(template.id)}), or set "credential": "not_required" for a local server`,
      );
    case 'keyring': {
      const key = secrets.get(template.id);
      if (key === null || key.trim() === '') {
        throw configError(
          `the API key for template ${template.id} is not set (looked in the ${secrets.kind} secret store)`,
          `store the key of template ${template.id} in the keyring (GUI: model templates → API key), or run with --secrets env and set ${envNameHint(template.id)}`,
        );
      }
      return key.trim();
    }
  }
}

/** Builds the backend for a template without degradation; throws LLM_CONFIG on a bad configuration. */
export function createBackendStrict(template: ModelTemplate, secrets: SecretStore, tuning: BackendTuning = {}): LlmBackend {
  // A provider this build does not speak (e.g. the original's `gemini`) must never fall back to auto-detection:
  // sending its traffic to an OpenAI-compatible endpoint would fail late and confusingly.
  if (template.unsupportedProvider !== undefined) {
    throw configError(
      `model template "${template.id}" uses provider "${template.unsupportedProvider}", which this build does not support`,
      `set "provider" to one of ${KNOWN_PROVIDERS.join(', ')} in world.json (or pick another template for the agent)`,
    );
  }
  const provider = effectiveProvider(template);
  if (provider === 'echo') return template.model === DEMO_MODEL ? new DemoBackend() : new EchoBackend();
  if (template.baseUrl.trim() === '') {
    throw configError(`model template "${template.id}" has an empty baseUrl`, 'set baseUrl, e.g. https://api.openai.com/v1');
  }
  const config: HttpBackendConfig = {
    baseUrl: template.baseUrl.trim(),
    apiKey: resolveApiKey(template, secrets),
    timeoutSecs: template.requestTimeoutSecs > 0 ? template.requestTimeoutSecs : 120,
    maxRetries: template.maxRetries,
    ...(template.maxResponseBytes === undefined ? {} : { maxResponseBytes: template.maxResponseBytes }),
    stream: template.stream,
    ...tuning,
  };
  return new HttpBackend(wireFor(provider, template), config);
}

function wireFor(provider: Exclude<Provider, 'echo'>, settings: WireSettings): WireAdapter {
  switch (provider) {
    case 'open_ai_compat':
      return openAiCompatWire(settings);
    case 'anthropic':
      return anthropicWire();
    case 'gemini':
      return geminiWire(settings);
    case 'open_ai_responses':
      return openAiResponsesWire(settings);
    case 'xai_responses':
      return xaiResponsesWire(settings);
    case 'meta_responses':
      return metaResponsesWire(settings);
  }
}

/** Prefix of the echo backend that stands in for a failed configuration: the visible note in the reply. */
export function degradedPrefix(reason: string): string {
  return `[echo / ${reason}]`;
}

/**
 * Template → backend. In `echoOnFailure` mode an LLM_CONFIG failure returns an echo backend and the reason;
 * the caller emits `backendDegraded`. Any other error propagates in both modes.
 */
export function createBackend(
  template: ModelTemplate,
  secrets: SecretStore,
  mode: FactoryMode = 'strict',
  tuning: BackendTuning = {},
): BackendResolution {
  try {
    return { backend: createBackendStrict(template, secrets, tuning) };
  } catch (err) {
    if (mode === 'strict' || !(err instanceof LlmError) || err.code !== 'LLM_CONFIG') throw err;
    return { backend: new EchoBackend(degradedPrefix(err.message)), degradedReason: err.message };
  }
}
