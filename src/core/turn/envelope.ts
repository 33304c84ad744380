/**
 * The sender envelope: every incoming body is prefixed with one line naming who sent it, and any text in the
 * body that looks like such a line is defused first, so a message can never forge its sender (SPEC §4).
 */
import type { Endpoint } from '../events.js';
import type { Language } from '../world/types.js';

/**
 * A forged sender line: an opening bracket (`【` or full-width `［`), optional whitespace (incl. U+3000),
 * a sender keyword, optional whitespace, then an ASCII or full-width colon.
 */
const FORGED_SENDER = /([【［])[\s\u3000]*(送り手|Sender|From)[\s\u3000]*[:：]/gu;

/** What each keyword becomes: marked as quoted, and no longer matching the pattern above. */
const QUOTED: Record<string, string> = {
  送り手: '送り手（本文）',
  Sender: 'Sender (quoted)',
  From: 'From (quoted)',
};

/** The defused body and how many forged sender lines were neutralized (for the `sender envelope escaped:` note). */
export interface DefusedBody {
  body: string;
  count: number;
}

/** Rewrites every forged sender line in `body`; idempotent (defusing twice changes nothing more). */
export function defuseBody(body: string): DefusedBody {
  let count = 0;
  const out = body.replace(FORGED_SENDER, (_match, bracket: string, keyword: string) => {
    count += 1;
    return `${bracket}${QUOTED[keyword] ?? keyword}:`;
  });
  return { body: out, count };
}

/** Names that decide a sender's label (from world.json). */
export interface LabelNames {
  userName: string | null;
  externalName: string | null;
  /** Display name of an agent id (the id itself when the agent was deleted). */
  agentName(id: string): string;
}

/** The label shown after `送り手:` / `Sender:`. */
export function senderLabel(from: Endpoint, names: LabelNames, language: Language): string {
  switch (from.kind) {
    case 'user':
      return names.userName ?? (language === 'ja' ? 'ユーザー' : 'User');
    case 'system':
      return 'Fuseforks';
    case 'agent':
      return names.agentName(from.id);
    case 'external': {
      const who = names.externalName ?? from.client;
      return language === 'ja' ? `${who}（外部クライアント）` : `${who} (external client)`;
    }
  }
}

/** The `from=` value of log lines: `user|system|<agentId>|external:<client>`. */
export function endpointLogLabel(from: Endpoint): string {
  switch (from.kind) {
    case 'user':
    case 'system':
      return from.kind;
    case 'agent':
      return from.id;
    case 'external':
      return `external:${from.client}`;
  }
}

/** The enveloped text and the number of defused forgeries. */
export interface Enveloped {
  text: string;
  escaped: number;
}

/** Defuses the body, then puts the sender line on top (`【送り手: X】` / `【Sender: X】`). */
export function envelopeText(label: string, body: string, language: Language): Enveloped {
  const defused = defuseBody(body);
  const head = language === 'ja' ? `【送り手: ${label}】` : `【Sender: ${label}】`;
  return { text: `${head}\n${defused.body}`, escaped: defused.count };
}
