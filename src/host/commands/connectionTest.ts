/**
 * "Test connection" of a model template: one tiny request through the same backend factory the agents use (so
 * it works for every provider the factory knows), with the template as the dialog holds it and the key from the
 * village's secret store. The answer is the model's reply, or the failure in the provider's own words (HTTP
 * status and body, refused, DNS, timeout) with the error code and fix; the key never appears.
 */
import { isFuseforksError, toWire, type ErrorCode } from '../../core/errors.js';
import { createBackendStrict } from '../../core/llm/factory.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import { loadWorldSchemas } from '../../core/world/worldSchemas.js';

/** Longest wait of a test (seconds), whatever the template's own timeout. */
export const CONNECTION_TEST_TIMEOUT_SECS = 30;
/** Output allowance of the test request (tokens): enough for a word, small enough to cost nothing. */
export const TEST_MAX_TOKENS = 64;
/** Longest reply text shown (chars). */
const MAX_REPLY_CHARS = 300;

/** What a test came to. */
export type ConnectionTestResult =
  /** `truncated`: the model answered but used up the test's small output allowance (still a working connection). */
  | { ok: true; reply: string; truncated: boolean; elapsedMs: number }
  | { ok: false; code: ErrorCode; message: string; fix: string | null; elapsedMs: number };

/** Sends "ping" with the template; never throws for a provider failure (only for a malformed template). */
export async function testConnection(input: unknown, secrets: SecretStore, now: () => number = Date.now): Promise<ConnectionTestResult> {
  const started = now();
  const { modelTemplateSchema } = await loadWorldSchemas();
  const parsed = modelTemplateSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '?';
    return { ok: false, code: 'INVALID_REQUEST', message: `The template's ${field} is invalid (${issue?.message ?? 'bad value'}).`, fix: `Correct ${field}, then test again.`, elapsedMs: 0 };
  }
  const template = { ...parsed.data, maxRetries: 1, requestTimeoutSecs: Math.min(parsed.data.requestTimeoutSecs || CONNECTION_TEST_TIMEOUT_SECS, CONNECTION_TEST_TIMEOUT_SECS) };
  try {
    const backend = createBackendStrict(template, secrets);
    const response = await backend.chat({
      model: template.model,
      messages: [{ role: 'user', content: 'Connection test: reply with the single word "pong".' }],
      tools: [],
      toolChoice: 'none',
      temperature: null,
      maxTokens: TEST_MAX_TOKENS,
      effort: null,
      cacheablePrefixLen: 0,
    });
    const text = (response.text ?? '').trim();
    return { ok: true, reply: text.length > MAX_REPLY_CHARS ? `${text.slice(0, MAX_REPLY_CHARS - 1)}…` : text, truncated: false, elapsedMs: now() - started };
  } catch (error) {
    const wire = toWire(error);
    // A reasoning model may spend the whole allowance thinking: it was reached and it answered.
    if (wire.code === 'LLM_OUTPUT_TRUNCATED') return { ok: true, reply: '', truncated: true, elapsedMs: now() - started };
    return { ok: false, code: wire.code, message: wire.message, fix: isFuseforksError(error) ? (wire.fix ?? null) : null, elapsedMs: now() - started };
  }
}
