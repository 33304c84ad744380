/**
 * One rubric verdict from a model: Jev (the shelf's helper model with its stored token) or one of the village's
 * model templates (its key from the village's secret store), through the same backend factory the agents use. A
 * judge that cannot be reached or is not set up gives a failed verdict naming why (code and message, never a key);
 * the run goes on.
 */
import { isFuseforksError } from '../../core/errors.js';
import type { RubricJudge } from '../../core/evals/evalCase.js';
import type { Verdict } from '../../core/evals/judgeRepeat.js';
import { RUBRIC_SYSTEM, rubricPrompt, rubricVerdict } from '../../core/evals/rubricJudge.js';
import { jevConfigured, jevTemplate, readJevSettings } from '../../core/jev/jevSettings.js';
import type { LlmBackend } from '../../core/llm/canonical.js';
import { createBackendStrict } from '../../core/llm/factory.js';
import { JEV_TOKEN_KEY } from '../../core/secrets/secretNames.js';
import { MemorySecretStore, type SecretStore } from '../../core/secrets/secretStore.js';
import type { World } from '../../core/world/types.js';
import { jevToken } from '../jevHost.js';

/** Output allowance of a judge call: two short lines. */
const JUDGE_MAX_TOKENS = 256;

/** What a rubric call needs from the host. */
export interface RubricPorts {
  jevFile: string;
  secrets: SecretStore;
  world: () => World;
}

/** The judge's backend and model, or why there is none. */
async function judgeBackend(judge: RubricJudge, ports: RubricPorts): Promise<{ backend: LlmBackend; model: string } | { missing: string }> {
  if (judge.kind === 'template') {
    const template = ports.world().modelTemplates.find((t) => t.id === judge.templateId);
    if (template === undefined) return { missing: `the judge template "${judge.templateId}" is not in world.json's modelTemplates` };
    return { backend: createBackendStrict({ ...template, stream: false }, ports.secrets), model: template.model };
  }
  const { settings } = await readJevSettings(ports.jevFile);
  if (!settings.enabled || (!jevConfigured(settings) && settings.wire !== 'echo')) return { missing: 'Jev is switched off or has no model (set it in the GUI\'s Jev settings, or name a judge template)' };
  const token = jevToken(ports.secrets);
  if (token === null && settings.wire !== 'echo') return { missing: 'Jev has no stored jev_api_token' };
  const store = new MemorySecretStore(token === null ? {} : { [JEV_TOKEN_KEY]: token });
  return { backend: createBackendStrict(jevTemplate(settings), store), model: settings.model };
}

/** Asks the judge about one answer; never throws for the judge's own failure. */
export async function judgeRubric(
  expectation: string,
  rubric: { rubric: string; judge: RubricJudge },
  request: string,
  answer: string,
  ports: RubricPorts,
  signal: AbortSignal,
): Promise<Verdict> {
  try {
    const judge = await judgeBackend(rubric.judge, ports);
    if ('missing' in judge) return { expectation, pass: false, reason: `no judge: ${judge.missing}` };
    const response = await judge.backend.chat(
      {
        model: judge.model,
        messages: [
          { role: 'system', content: RUBRIC_SYSTEM },
          { role: 'user', content: rubricPrompt(rubric.rubric, request, answer) },
        ],
        tools: [],
        toolChoice: 'none',
        temperature: 0,
        maxTokens: JUDGE_MAX_TOKENS,
        effort: null,
        cacheablePrefixLen: 0,
      },
      { signal },
    );
    return rubricVerdict(expectation, response.text ?? '');
  } catch (error) {
    const code = isFuseforksError(error) ? error.code : 'BUG';
    const message = error instanceof Error ? error.message : String(error);
    return { expectation, pass: false, reason: `the judge failed: ${code} ${message.slice(0, 200)}` };
  }
}
