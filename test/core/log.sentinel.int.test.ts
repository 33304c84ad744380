/**
 * No body, no secret in fuseforks.log: a full turn's notes (the kinds of reference core.md §5) are written
 * with a sentinel secret and a sentinel body in play — once the right way (counts only) and once with
 * careless callers passing the text itself as a field. The file is then grepped: both sentinels absent,
 * while a positive control (the counts, the marker values) proves the grep reads the right file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDiagLog } from '../../src/core/log.js';
import { diagText, type DiagFields } from '../../src/core/diag.js';

const SECRET = 'sk-proj-SENTINELsecret0123456789';
const BODY = 'SENTINEL-BODY the launch plan is confidential';
const BODY_WORD = 'SENTINEL-BODY';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-sentinel-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The notes one turn with one tool call writes, in order (counts and markers, as the engine must). */
function fullTurnNotes(): [string, DiagFields][] {
  return [
    ['turn start', { agent: 'planner', hop: 0, from: 'user', chars: BODY.length }],
    ['schedule', { file: diagText('/v/workspace/schedules.json'), reason: diagText('schedules.json row 2: field recurrence.kind must be interval, daily or weekly'), fix: diagText('correct the row in the GUI or in the file') }],
    ['cache', { agent: 'planner', model: 'gpt-4o-mini', round: 1, prompt: 1200, cached: 800, system_chars: 3000, stable_chars: 2500, system_blocks: 3, history_msgs: '2/8', system_digest: '0123456789abcdef', cache_write: 0, cache_write_1h: 0 }],
    ['tool', { agent: 'planner', round: 1, name: 'grep', ok: true, args_chars: 57, body_chars: 1234, reason: 'written', reason_chars: 40 }],
    ['turn', { agent: 'planner', hop: 0, rounds: '2/8', waves: 0, stop: '-', prompt: 2400, cached: 1600, total: 2600, reasoning: 0, backend: 'openai-compat', model: 'gpt-4o-mini' }],
    ['reply', { agent: 'planner', to: 'user', hop: 1, chars: 321 }],
  ];
}

/** The same turn written by careless callers: bodies, arguments, the key and a header in fields. */
function carelessNotes(): [string, DiagFields][] {
  return [
    ['turn start', { agent: 'planner', hop: 0, from: 'user', content: BODY }],
    ['tool', { agent: 'planner', round: 1, name: 'grep', args: `{"pattern":"${BODY}"}`, key: SECRET }],
    ['turn failed', { agent: 'planner', hop: 0, code: 'LLM_HTTP', fatal: true, error: `401 Unauthorized for key ${SECRET}` }],
    ['turn failed', { agent: 'planner', hop: 0, code: 'LLM_API', fatal: true, error: `Authorization: Bearer ${SECRET}` }],
    ['reply', { agent: 'planner', to: 'user', hop: 1, text: BODY_WORD }],
    // A body passed as a bare-string reason is still a body; a diagText reason that carries a key is redacted whole.
    ['mcp connect failed', { server: 'files', reason: BODY }],
    ['mcp connect failed', { server: 'files', reason: diagText(`HTTP 401 for Authorization: Bearer ${SECRET}`) }],
  ];
}

it('a full turn, written right and written carelessly, leaves neither the secret nor the body in the log', () => {
  const stderr: string[] = [];
  const log = openDiagLog({ workspaceDir: dir, stderrMode: 'human', stderr: (t) => stderr.push(t) });
  for (const [kind, fields] of [...fullTurnNotes(), ...carelessNotes()]) log.note(kind, fields);
  log.close();
  const text = fs.readFileSync(path.join(dir, 'fuseforks.log'), 'utf8');
  const mirrored = stderr.join('');

  // Positive control first: the file and the mirror hold this turn's counts and markers.
  expect(text).toContain(`"chars":${BODY.length}`);
  expect(text).toContain('turn: agent=planner hop=0 rounds=2/8 waves=0 stop=- prompt=2400');
  expect(text).toContain('"code":"LLM_HTTP"');
  expect(mirrored).toContain('reply: agent=planner to=user hop=1 chars=321');
  // Reasons are not bodies: a diagText reason, fix and file stay readable in the file and on stderr.
  for (const haystack of [text, mirrored]) {
    expect(haystack).toContain('reason=schedules.json row 2: field recurrence.kind must be interval, daily or weekly');
    expect(haystack).toContain('fix=correct the row in the GUI or in the file');
  }

  for (const haystack of [text, mirrored]) {
    expect(haystack).not.toContain(SECRET);
    expect(haystack).not.toContain('SENTINELsecret');
    expect(haystack).not.toContain(BODY);
    expect(haystack).not.toContain('confidential');
  }
  // A bare marker-shaped word is indistinguishable from a marker; that one is the engine's job (counts only).
  expect(text.split('\n').filter((l) => l.includes(BODY_WORD))).toHaveLength(1);
});
