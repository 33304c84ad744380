/**
 * `judge {question, material}`: asks the village's helper model (Jev) for a verdict on some material, for an agent
 * that declares `agents/{id}/judge.json`. The call is paid from the request's budget and counted in the turn's
 * spend (see turn/helperCalls.ts). Without the Jev token, or with Jev switched off, the tool is still shown and
 * answers with a text that says why and what the person can do — never a crash, never a silent absence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeOn, readJudgeConfig, type JudgeConfig } from '../jev/judgeConfig.js';
import type { HelperUnavailable } from '../jev/helperPort.js';
import type { Language } from '../world/types.js';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { missingArg, optString, pick, refuse } from './toolText.js';

/** Longest question, in chars. */
export const MAX_QUESTION_CHARS = 2_000;
/** Longest material, in chars. */
export const MAX_MATERIAL_CHARS = 100_000;
/** Chars of each rules file of the `to` agent taken into the judge's instructions. */
const MAX_RULES_CHARS = 8_000;

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(0, MAX_RULES_CHARS).trim();
  } catch {
    return '';
  }
}

/** The judge's system text: the fixed role, then the declared rules (the `to` agent's files, `instructions`). */
export function judgeSystem(config: JudgeConfig, workspaceDir: string, language: Language): string {
  // The judge agent's own files are its standing rules (a missing file is simply no rules).
  const parts = [
    pick(
      language,
      'あなたは判断役です。与えられた材料だけに基づいて問いに答えます。1 行目に「判定: 」に続けて短い判定を書き、続けて理由を 5 行以内で書いてください。材料から判断できないときは、判定を「判断できない」として、足りないものを書いてください。',
      'You are a judge. Answer the question from the given material only. Write the first line as "Verdict: " followed by a short verdict, then at most five lines of reasons. When the material does not decide it, give the verdict "cannot tell" and say what is missing.',
    ),
  ];
  if (config.to !== null && /^[A-Za-z0-9_-]{1,64}$/.test(config.to)) {
    const dir = join(workspaceDir, 'agents', config.to);
    for (const file of ['Construct.md', 'SKILL.md']) {
      const text = readOrEmpty(join(dir, file));
      if (text !== '') parts.push(`## ${file}\n${text}`);
    }
  }
  if (config.instructions !== '') parts.push(`## ${pick(language, '判断の決まり', 'Rules')}\n${config.instructions}`);
  return parts.join('\n\n');
}

function unavailableText(why: HelperUnavailable | 'none', language: Language): string {
  switch (why) {
    case 'token_missing':
      return pick(
        language,
        'judge: Jev のトークン（jev_api_token）が登録されていないため、判断役は使えません。ユーザーに GUI の Jev 設定でトークンを登録してもらってください（GUI なしなら FUSEFORKS_SECRET_JEV_API_TOKEN）。',
        "judge: the judge is unavailable because the Jev token (jev_api_token) is not registered. Ask the user to register it in the GUI's Jev settings (headless: FUSEFORKS_SECRET_JEV_API_TOKEN).",
      );
    case 'disabled':
      return pick(language, 'judge: Jev が無効（jev.json の enabled: false）のため、判断役は使えません。ユーザーに GUI の Jev 設定で有効にしてもらってください。', "judge: Jev is switched off (jev.json enabled: false), so the judge is unavailable. Ask the user to switch it on in the GUI's Jev settings.");
    case 'not_configured':
      return pick(language, 'judge: Jev のモデル（base URL と model）が未設定のため、判断役は使えません。ユーザーに GUI の Jev 設定を頼んでください。', "judge: no Jev model (base URL and model) is set, so the judge is unavailable. Ask the user to set it in the GUI's Jev settings.");
    case 'none':
      return pick(language, 'judge: この実行では Jev が使えません。', 'judge: Jev is not available in this run.');
  }
}

/** The `judge` tool. */
export const judgeTool: AgentTool = {
  name: 'judge',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec | null {
    if (!judgeOn(readJudgeConfig(p.workspaceDir, p.agentId))) return null;
    const ja = p.language === 'ja';
    return {
      name: 'judge',
      description: pick(
        p.language,
        `判断役（Jev）に材料を渡して問いへの判定をもらいます（1 行目が判定、続いて理由）。判定のトークンもこの依頼の予算から払われます。問いは ${MAX_QUESTION_CHARS} 文字、材料は ${MAX_MATERIAL_CHARS} 文字まで。`,
        `Ask the judge (Jev) for a verdict on a question about some material (first line the verdict, then reasons). Its tokens are paid from this request's budget. Question up to ${MAX_QUESTION_CHARS} chars, material up to ${MAX_MATERIAL_CHARS}.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          question: { type: 'string', description: ja ? '判定してほしい問い（1 つの論点）' : 'the question to decide (one point)' },
          material: { type: 'string', description: ja ? '判定の材料（本文・結果・抜粋）' : 'the material to judge (text, results, excerpts)' },
        },
        required: ['question', 'material'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    const helper = ctx.helper;
    if (helper === undefined) return refuse(unavailableText('none', lang));
    if (helper.unavailable !== null) return refuse(unavailableText(helper.unavailable, lang));
    const question = (optString(args, 'question') ?? '').trim();
    const material = optString(args, 'material') ?? '';
    if (question === '') return missingArg(lang, 'judge', 'question');
    if (material.trim() === '') return missingArg(lang, 'judge', 'material');
    if (question.length > MAX_QUESTION_CHARS || material.length > MAX_MATERIAL_CHARS) {
      return refuse(pick(lang, `judge: 問いは ${MAX_QUESTION_CHARS} 文字、材料は ${MAX_MATERIAL_CHARS} 文字までです。`, `judge: the question may have ${MAX_QUESTION_CHARS} chars and the material ${MAX_MATERIAL_CHARS}.`));
    }
    const config = readJudgeConfig(ctx.workspaceDir, ctx.agentId);
    const user = `${pick(lang, '問い', 'Question')}:\n${question}\n\n${pick(lang, '材料', 'Material')}:\n${material}`;
    const answer = await helper.ask('judge', judgeSystem(config, ctx.workspaceDir, lang), user, ctx.signal);
    if (!answer.ok) {
      return refuse(
        pick(
          lang,
          `judge: 判断役から答えがありませんでした（${answer.reason}）。材料を絞るか、あとで試してください。`,
          `judge: the judge gave no answer (${answer.reason}). Narrow the material or try again later.`,
        ),
      );
    }
    return `${pick(lang, `判断役（${helper.model}）の判定`, `The judge (${helper.model}) says`)}:\n${answer.text.trim()}`;
  },
};
