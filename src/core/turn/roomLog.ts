/**
 * The room log ("village square"): what an agent overhears of other agents' messages, the presence notices,
 * and the `room_log` pull tool's lookup (reference ops.md §3.3–§3.4, core.md §2.8). Pure and worker-safe:
 * the supervisor runs it over its message ring; the engine only folds the strings it is handed.
 */
import type { AgentMessage, Endpoint } from '../events.js';
import type { ToolSpec } from '../llm/canonical.js';
import type { Language } from '../world/types.js';

/** Visible messages shown per turn (newest N, oldest first); 0 disables the block. */
export const ROOM_LOG_WINDOW = 12;
/** Code points of a message shown in the excerpt before it is clipped. */
export const ROOM_LOG_EXCERPT_CHARS = 200;
/** Code points the `room_log` tool returns at most. */
export const ROOM_LOG_READ_MAX_CHARS = 20_000;
/** Newest log entries (of any kind) scanned for System→User presence notices. */
export const PRESENCE_WINDOW = 12;
/** Handle lengths tried in order before the full id (code units of the uuid). */
export const HANDLE_LENGTHS = [8, 12, 16] as const;
/** Name of the synthetic pull tool. */
export const ROOM_LOG_TOOL = 'room_log';

/** Resolves an endpoint to its display label (agent name, user name, Fuseforks, external client). */
export type EndpointName = (endpoint: Endpoint) => string;

/** Excerpt sizing. */
export interface RoomLogOptions {
  window: number;
  excerptChars: number;
}

/** Outcome of a `room_log` read; `not_visible` is told to the model exactly like `not_found`. */
export type RoomLogOutcome = 'ok' | 'truncated' | 'ambiguous' | 'not_visible' | 'not_found';

/** What the tool answers: the model-facing body, the outcome for the diag line, the full message length. */
export interface RoomLogRead {
  body: string;
  outcome: RoomLogOutcome;
  /** Code points of the whole message (0 when nothing was found). */
  chars: number;
}

const t = (language: Language, ja: string, en: string): string => (language === 'ja' ? ja : en);

/** A message is overheard by `agentId` iff an agent other than it sent it and it is not the recipient. */
export function visibleTo(agentId: string, message: AgentMessage): boolean {
  if (message.from.kind !== 'agent' || message.from.id === agentId) return false;
  return !(message.to.kind === 'agent' && message.to.id === agentId);
}

/** The shortest handle of `id` (8 → 12 → 16 → full) that no other counted id starts with. */
function handleOf(id: string, prefixCounts: Array<Map<string, number>>): string {
  for (let i = 0; i < HANDLE_LENGTHS.length; i += 1) {
    const length = HANDLE_LENGTHS[i]!;
    if (id.length <= length) return id;
    if (prefixCounts[i]!.get(id.slice(0, length)) === 1) return id.slice(0, length);
  }
  return id;
}

function countPrefixes(ids: string[]): Array<Map<string, number>> {
  return HANDLE_LENGTHS.map((length) => {
    const counts = new Map<string, number>();
    for (const id of ids) {
      const prefix = id.slice(0, length);
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
    return counts;
  });
}

/** id → handle for every message of `visible`; a prefix is widened only where visible ids collide on it. */
export function displayIds(visible: readonly AgentMessage[]): Map<string, string> {
  const ids = visible.map((m) => m.id);
  const counts = countPrefixes(ids);
  return new Map(ids.map((id) => [id, handleOf(id, counts)]));
}

/** Newlines and runs of whitespace become one space, so one message stays one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

function clipTail(language: Language, total: number): string {
  return t(language, `（全 ${total} 字）`, ` (full length: ${total} chars)`);
}

/**
 * The overheard block for `agentId`: the newest `window` visible messages, oldest first, as
 * `- [id] {from} → {to}: {excerpt}…{tail}` (the `[id] ` handle and tail only on clipped lines).
 * Null when nothing is visible or the window is 0.
 */
export function roomLogExcerpt(
  agentId: string,
  ring: readonly AgentMessage[],
  options: RoomLogOptions,
  names: EndpointName,
  language: Language,
): string | null {
  if (options.window <= 0) return null;
  const visible = ring.filter((m) => visibleTo(agentId, m));
  if (visible.length === 0) return null;
  const shown = visible.slice(-options.window);
  let counts: Array<Map<string, number>> | null = null;
  const lines = shown.map((m) => {
    const text = oneLine(m.content);
    const points = Array.from(text);
    const head = `${names(m.from)} → ${names(m.to)}: `;
    if (points.length <= options.excerptChars) return `- ${head}${text}`;
    // Handles are unique among ALL visible messages, not just the window: the tool searches them all.
    counts ??= countPrefixes(visible.map((v) => v.id));
    const total = Array.from(m.content).length;
    return `- [${handleOf(m.id, counts)}] ${head}${points.slice(0, options.excerptChars).join('')}…${clipTail(language, total)}`;
  });
  const heading = t(
    language,
    '## 広場の様子（ほかのエージェント同士のやり取り、古い順）\n[id] 付きの行は途中までです。全文は room_log ツールにその id を渡すと読めます。',
    '## The village square (messages between other agents, oldest first)\nLines with an [id] are cut; pass that id to the room_log tool to read the whole message.',
  );
  return `${heading}\n${lines.join('\n')}`;
}

/**
 * System→User notices among the newest `PRESENCE_WINDOW` log entries, newest last, under an arrivals
 * heading; with a roster, a closing line says the roster is authoritative. Null when there are none.
 */
export function presenceBlock(ring: readonly AgentMessage[], hasRoster: boolean, language: Language): string | null {
  const notices = ring
    .slice(-PRESENCE_WINDOW)
    .filter((m) => m.from.kind === 'system' && m.to.kind === 'user')
    .map((m) => `- ${oneLine(m.content)}`);
  if (notices.length === 0) return null;
  const parts = [t(language, '## 出入りのお知らせ（新しいものが最後）', '## Arrivals and departures (newest last)'), ...notices];
  if (hasRoster) {
    parts.push(
      t(
        language,
        '今だれが動いているかは、上のお知らせより名簿が正しいです。',
        'For who runs now, the roster wins over these notices.',
      ),
    );
  }
  return parts.join('\n');
}

/** Accepts `abcd1234`, `[abcd1234]` and surrounding spaces. */
function normalizeQuery(id: string): string {
  return id.trim().replace(/^\[/u, '').replace(/\]$/u, '').trim();
}

function notFoundBody(language: Language, query: string): string {
  return t(
    language,
    `id「${query}」のメッセージは見つかりません。広場に出ている [id] をそのまま渡してください。`,
    `No message with id "${query}" was found. Pass an [id] exactly as the village square shows it.`,
  );
}

/**
 * `room_log({id})` over the ring: the one visible message whose id starts with `id`, as
 * `【送り手: A → B】\n{content}` (en `【Sender: A → B】`), cut at 20,000 code points with a note.
 * Hidden matches answer exactly like no match; several matches never list the candidates.
 */
export function readRoomLog(
  agentId: string,
  id: string,
  ring: readonly AgentMessage[],
  language: Language,
  names: EndpointName = defaultNames,
): RoomLogRead {
  const query = normalizeQuery(id);
  const matches = query === '' ? [] : ring.filter((m) => m.id.startsWith(query));
  const visible = matches.filter((m) => visibleTo(agentId, m));
  const exact = visible.filter((m) => m.id === query);
  const hits = exact.length === 1 ? exact : visible;
  if (hits.length === 0) {
    return { body: notFoundBody(language, query), outcome: matches.length > 0 ? 'not_visible' : 'not_found', chars: 0 };
  }
  if (hits.length > 1) {
    const body = t(
      language,
      `id「${query}」に当てはまるメッセージが複数あります。もっと長い id を渡してください。`,
      `More than one message matches id "${query}". Pass a longer id.`,
    );
    return { body, outcome: 'ambiguous', chars: 0 };
  }
  const message = hits[0]!;
  const header = t(language, '【送り手: ', '【Sender: ') + `${names(message.from)} → ${names(message.to)}】`;
  const points = Array.from(message.content);
  if (points.length <= ROOM_LOG_READ_MAX_CHARS) {
    return { body: `${header}\n${message.content}`, outcome: 'ok', chars: points.length };
  }
  const shown = points.slice(0, ROOM_LOG_READ_MAX_CHARS).join('');
  const note = t(
    language,
    `（全 ${points.length} 字のうち先頭 ${ROOM_LOG_READ_MAX_CHARS} 字を表示しました。続きが必要なら送り手に ask で尋ねてください。）`,
    `(Showing the first ${ROOM_LOG_READ_MAX_CHARS} of ${points.length} chars. Ask the sender for the rest if you need it.)`,
  );
  return { body: `${header}\n${shown}\n\n${note}`, outcome: 'truncated', chars: points.length };
}

/** Endpoint labels when the caller has no names: agent ids, `user`, `Fuseforks`, the external client. */
export function defaultNames(endpoint: Endpoint): string {
  switch (endpoint.kind) {
    case 'agent':
      return endpoint.id;
    case 'external':
      return endpoint.client;
    case 'system':
      return 'Fuseforks';
    default:
      return 'user';
  }
}

/** The `room_log` tool spec: one required string `id` (a handle or any unique prefix). */
export function roomLogSpec(language: Language): ToolSpec {
  return {
    name: ROOM_LOG_TOOL,
    description: t(
      language,
      '広場で途中までしか見えないメッセージの全文を読みます（読み取りのみ）。',
      'Reads the whole text of a village-square message that was shown cut (read-only).',
    ),
    parameters: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: t(language, '広場の行頭に出ている [id]（括弧なし）', 'The [id] shown at the start of the square line (without brackets)'),
        },
      },
      required: ['id'],
      additionalProperties: false,
    },
  };
}
