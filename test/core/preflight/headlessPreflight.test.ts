import { describe, expect, it } from 'vitest';
import { FINDING_CODES, type Finding, type FindingCode } from '../../../src/core/preflight/finding.js';
import { headlessPreflight, secretNeed, type PreflightView } from '../../../src/core/preflight/headlessPreflight.js';
import type { ScheduledTask } from '../../../src/core/schedules/types.js';
import type { AgentSpec, Language, ModelTemplate, World } from '../../../src/core/world/types.js';

function agent(id: string, extra: Partial<AgentSpec> = {}): AgentSpec {
  return {
    id, name: `Name-${id}`, modelTemplateId: 'tpl', ragSources: [], connectedAgents: [], order: 0, workDir: null,
    maxToolIterations: null, enabledTools: null, hearsRoomLog: true, allowHandoff: true, batchStart: true,
    roleId: null, groupId: null, hidden: false, planReview: false, ...extra,
  };
}

function template(id: string, extra: Partial<ModelTemplate> = {}): ModelTemplate {
  return {
    id, name: id, baseUrl: 'http://127.0.0.1:1/v1', model: 'm', contextLength: 128000, temperature: null,
    maxOutputTokens: 8192, credential: 'keyring', provider: 'open_ai_compat', useTools: true, effort: null,
    requestTimeoutSecs: 120, maxRetries: 3, inputPerMtok: null, outputPerMtok: null, cacheReadPerMtok: null,
    cacheWritePerMtok: null, cacheWrite1hPerMtok: null, pricingAsOf: null, googleSearch: false, xaiWebSearch: false, xaiXSearch: false, openaiWebSearch: false, openaiReasoningPro: false, metaWebSearch: false, stream: true, ...extra,
  };
}

function world(extra: Partial<World> = {}): World {
  return {
    agents: [agent('rec'), agent('b')], groups: [], modelTemplates: [template('tpl')], roles: [], topologyPositions: {},
    tokenBudget: 1_000_000, language: 'en', userName: null, reception: 'rec', externalName: null,
    askTimeoutSecs: 600, maxHops: 8, ...extra,
  };
}

function schedule(id: string, to: string, extra: Partial<ScheduledTask> = {}): ScheduledTask {
  return { id, to, message: 'm', recurrence: { kind: 'interval', everyMinutes: 10 }, createdAtMs: 0, lastConsumedDueMs: null, enabled: true, ...extra };
}

/** A view where everything passes; each row breaks one thing. */
function view(extra: Partial<PreflightView> = {}): PreflightView {
  return {
    mode: 'ask', start: ['rec', 'b'], secretPresent: () => true, probeApproved: () => true, jevTokenPresent: true,
    jevNeeded: false, judgeTargets: new Set(), bypassPlanReview: false, runApproval: 'auto-approve', mcpServers: [],
    commandExists: () => true, ...extra,
  };
}

interface Row {
  code: FindingCode;
  level: Finding['level'];
  w?: Partial<World>;
  v?: Partial<PreflightView>;
  s?: ScheduledTask[];
  /** A word the English message must name (agent, template, variable, schedule…). */
  names: string;
}

const rows: Row[] = [
  { code: 'PLAN_REVIEW_ON', level: 'reject', w: { agents: [agent('rec', { planReview: true }), agent('b')] }, names: 'Name-rec' },
  { code: 'SECRET_MISSING', level: 'reject', v: { secretPresent: (k) => k !== 'tpl' }, names: 'tpl' },
  { code: 'SECRET_MISSING', level: 'reject', w: { modelTemplates: [template('tpl', { credential: 'unset' })] }, names: 'unset' },
  { code: 'KEYRING_INCONSISTENT', level: 'warn', v: { keyringDisagrees: [{ key: 'tpl', answers: [{ store: 'keyring', state: 'stored', value: 'a' }, { store: 'keyring', state: 'stored', value: 'a' }, { store: 'secret-service', state: 'stored', value: 'a' }, { store: 'kernel-keyring', state: 'stored', value: 'b' }] }] }, names: 'tpl' },
  { code: 'MODEL_TEMPLATE_MISSING', level: 'reject', w: { agents: [agent('rec'), agent('b', { modelTemplateId: 'gone' })] }, names: 'gone' },
  { code: 'PROVIDER_UNSUPPORTED', level: 'reject', w: { modelTemplates: [template('tpl', { provider: null, unsupportedProvider: 'mistral_native' })] }, names: 'mistral_native' },
  { code: 'PROVIDER_UNSUPPORTED', level: 'warn', w: { agents: [agent('rec'), agent('b'), agent('c', { modelTemplateId: 'odd' })], modelTemplates: [template('tpl'), template('odd', { provider: null, unsupportedProvider: 'mistral_native' })] }, names: 'Name-c' },
  { code: 'RECEPTION_UNSET', level: 'reject', w: { reception: null }, names: 'reception' },
  { code: 'RECEPTION_MISSING', level: 'reject', w: { reception: 'ghost' }, v: { start: ['b'] }, names: 'ghost' },
  { code: 'RECEPTION_TARGETS_OUTSIDE', level: 'info', w: { agents: [agent('rec', { connectedAgents: ['b'] }), agent('b')] }, v: { start: ['rec'] }, names: 'b' },
  { code: 'SCHEDULE_TARGET_STOPPED', level: 'warn', v: { mode: 'serve', start: ['rec'] }, s: [schedule('sch-1', 'b')], names: 'sch-1' },
  { code: 'RUN_APPROVAL_PENDING', level: 'warn', w: { agents: [agent('rec'), agent('b', { enabledTools: ['grep', 'run'] })] }, v: { runApproval: 'required' }, names: 'Name-b' },
  { code: 'PROBE_UNAPPROVED', level: 'warn', v: { mode: 'serve', probeApproved: () => false }, s: [schedule('sch-2', 'b', { probe: { command: 'check-feed', args: [], expect: 'go', timeoutSecs: 60, cwd: null } })], names: 'check-feed' },
  { code: 'JEV_TOKEN_MISSING', level: 'warn', v: { jevNeeded: true, jevTokenPresent: false, judgeAgents: ['b'] }, names: 'Name-b' },
  { code: 'MCP_COMMAND_NOT_FOUND', level: 'warn', v: { mcpServers: [{ name: 'files', agentId: null, transport: 'stdio', command: 'no-such-mcp', enabled: true }], commandExists: () => false }, names: 'no-such-mcp' },
  { code: 'MCP_AUTH_REQUIRED', level: 'warn', v: { mcpServers: [{ name: 'tracker', agentId: null, transport: 'http', enabled: true, oauth: true, loginStored: false }, { name: 'in', agentId: null, transport: 'http', enabled: true, oauth: true, loginStored: true }, { name: 'plain', agentId: null, transport: 'http', enabled: true }, { name: 'off', agentId: null, transport: 'http', enabled: false, oauth: true }, { name: 'stopped', agentId: 'c', transport: 'http', enabled: true, oauth: true }] }, names: 'tracker' },
  { code: 'CONFIG_BROKEN', level: 'warn', v: { brokenFiles: [{ file: '/v/workspace/schedules.json', reason: 'row 2 (s2): recurrence.kind — must be interval, daily or weekly' }] }, names: 'recurrence.kind' },
  { code: 'SESSION_STORE_CORRUPT', level: 'warn', v: { damagedSessionStore: { file: '/v/workspace/sessions.mdb', reason: 'page 7 reached twice' } }, names: 'sessions.mdb' },
  { code: 'ENABLED_TOOL_UNKNOWN', level: 'warn', w: { agents: [agent('rec'), agent('b', { enabledTools: ['grep', 'sd', 'yq', 'rag', 'graph'] })] }, names: 'graph' },
  { code: 'VILLAGE_HELD', level: 'warn', v: { villageHeld: { pid: 4242 } }, names: '4242' },
  { code: 'SANDBOX_UNAVAILABLE', level: 'reject', w: { agents: [agent('rec'), agent('b', { enabledTools: ['run'] })] }, v: { sandbox: { available: { ok: false, detail: 'bwrap is not installed', fix: 'install bubblewrap' }, off: [] } }, names: 'bwrap is not installed' },
  { code: 'SANDBOX_OFF', level: 'warn', w: { agents: [agent('rec'), agent('b', { enabledTools: ['run'] })] }, v: { sandbox: { available: { ok: true }, off: ['b'] } }, names: 'Name-b' },
  { code: 'UNSAFE_IDENTIFIER', level: 'warn', w: { agents: [agent('rec'), agent('b'), agent('../x\u202e')] }, names: '"../x\\u202e"' },
  { code: 'UNSAFE_IDENTIFIER', level: 'reject', w: { agents: [agent('re c'), agent('b')], reception: 're c' }, v: { start: ['b'] }, names: '"re c"' },
  { code: 'PROMPT_FILE_OVER_CAP', level: 'warn', w: { modelTemplates: [template('tpl', { contextLength: 1_000_000 })] }, v: { promptFiles: [{ agentId: 'b', file: 'SKILL.md', path: '/v/workspace/agents/b/SKILL.md', bytes: 300_000 }] }, names: '/v/workspace/agents/b/SKILL.md' },
  { code: 'SYSTEM_PROMPT_OVER_CAP', level: 'warn', w: { modelTemplates: [template('tpl', { contextLength: 8_192 })] }, v: { promptFiles: [{ agentId: 'b', file: 'SKILL.md', path: '/v/s', bytes: 12_000 }, { agentId: null, file: 'Ordinance.md', path: '/v/o', bytes: 5_000 }] }, names: 'Name-b' },
  { code: 'TOOLS_OVER_CAP', level: 'warn', w: { agents: [agent('rec'), agent('b', { connectedAgents: Array.from({ length: 70 }, (_, i) => `t${i}`) })] }, names: '142' },
];

describe('headlessPreflight: prompt caps (issue 28)', () => {
  const codes = (w: Partial<World>, v: Partial<PreflightView>) => headlessPreflight(world(w), [], view(v)).map((f) => f.code);
  const file = (bytes: number, agentId: string | null = 'b') => ({ agentId, file: 'SKILL.md', path: `/v/${agentId ?? 'o'}`, bytes });
  const wide = { modelTemplates: [template('tpl', { contextLength: 1_000_000 })] };
  it('a file at the cap is fine, one byte over warns', () => {
    expect(codes(wide, { promptFiles: [file(262_144)] })).toEqual([]);
    expect(codes(wide, { promptFiles: [file(262_145)] })).toEqual(['PROMPT_FILE_OVER_CAP']);
  });
  it('the system estimate counts files at their cap, the Ordinance for every started agent, and the roster', () => {
    // 128k context → 256,000 bytes; one file counts at most 262,144.
    expect(codes({}, { promptFiles: [file(20_000_000)] })).toEqual(['PROMPT_FILE_OVER_CAP', 'SYSTEM_PROMPT_OVER_CAP']);
    expect(codes({}, { promptFiles: [file(200_000, null)] })).toEqual([]);
    expect(codes({}, { promptFiles: [file(200_000, null), file(60_000)] })).toEqual(['SYSTEM_PROMPT_OVER_CAP']);
    const ties = Array.from({ length: 9_999 }, (_, i) => `peer${i}`);
    const found = headlessPreflight(world({ agents: [agent('rec'), agent('b', { connectedAgents: ties })] }), [], view());
    expect(found.map((f) => f.code)).toEqual(['SYSTEM_PROMPT_OVER_CAP', 'TOOLS_OVER_CAP']);
  });
  it('tools: at the cap is fine; without allowHandoff one tool a tie; a template without tools offers none', () => {
    const ties = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    // remember + 63 × 2 + plan = 128.
    expect(codes({ agents: [agent('rec'), agent('b', { connectedAgents: ties(63) })] }, {})).toEqual([]);
    expect(codes({ agents: [agent('rec'), agent('b', { connectedAgents: ties(64) })] }, {})).toEqual(['TOOLS_OVER_CAP']);
    expect(codes({ agents: [agent('rec'), agent('b', { connectedAgents: ties(126), allowHandoff: false })] }, {})).toEqual([]);
    expect(codes({ agents: [agent('rec'), agent('b', { connectedAgents: ties(127), allowHandoff: false })] }, {})).toEqual(['TOOLS_OVER_CAP']);
    expect(codes({ agents: [agent('rec'), agent('b', { connectedAgents: ties(500) })], modelTemplates: [template('tpl', { useTools: false })] }, {})).toEqual([]);
  });
});

describe('headlessPreflight: the run sandbox (issue 27)', () => {
  const runner = { agents: [agent('rec'), agent('b', { enabledTools: ['run'] })] };
  const missing = { ok: false as const, detail: 'bwrap is not installed', fix: 'install bubblewrap' };
  const codes = (v: Partial<PreflightView>, w: Partial<World> = runner) => headlessPreflight(world(w), [], view(v)).map((f) => f.code);
  it('no agent with run, or run approval no-approval: a missing sandbox is no finding', () => {
    expect(codes({ sandbox: { available: missing, off: [] } }, {})).toEqual([]);
    expect(codes({ sandbox: { available: missing, off: [] }, runApproval: 'no-approval' })).toEqual([]);
  });
  it('the opt-out alone is a warning, not a rejection, even where the sandbox is missing', () => {
    expect(codes({ sandbox: { available: missing, off: ['b'] } })).toEqual(['SANDBOX_OFF']);
  });
  it('a sandbox that is there: no finding', () => {
    expect(codes({ sandbox: { available: { ok: true }, off: [] } })).toEqual([]);
  });
});

describe('headlessPreflight: one row per code', () => {
  it('a clean village with every switch right has no finding', () => {
    expect(headlessPreflight(world(), [schedule('s', 'b')], view())).toEqual([]);
    expect(headlessPreflight(world(), [schedule('s', 'b')], view({ mode: 'serve' }))).toEqual([]);
  });

  it('covers every finding code', () => {
    expect(new Set(rows.map((r) => r.code))).toEqual(new Set(FINDING_CODES));
  });

  it.each(rows)('$code ($level) names "$names" in both languages', (row) => {
    for (const language of ['en', 'ja'] as Language[]) {
      const found = headlessPreflight(world({ ...row.w, language }), row.s ?? [], view(row.v));
      expect(found.map((f) => [f.code, f.level])).toEqual([[row.code, row.level]]);
      const [f] = found as [Finding];
      expect(f.message).toContain(row.code === 'SECRET_MISSING' && row.names === 'unset' ? 'tpl' : row.names);
      expect(f.fix.length).toBeGreaterThan(10);
      // ja texts use Japanese script, en texts do not (the village language picks the words).
      expect(/[\u3040-\u30ff]/.test(f.message + f.fix)).toBe(language === 'ja');
    }
  });
});

describe('headlessPreflight: decisions', () => {
  it('an unsafe reception is a warning for serve (it only cannot take outside requests) and a reject for ask', () => {
    const w = world({ agents: [agent('re/c'), agent('b')], reception: 're/c' });
    expect(headlessPreflight(w, [], view({ start: ['b'] })).map((f) => [f.code, f.level])).toEqual([['UNSAFE_IDENTIFIER', 'reject']]);
    expect(headlessPreflight(w, [], view({ mode: 'serve', start: ['b'] })).map((f) => [f.code, f.level])).toEqual([['UNSAFE_IDENTIFIER', 'warn']]);
  });

  it('sorts reject → warn → info even when the table order differs, stable within a level', () => {
    // Table order would put the info (row 4) before the warns (rows 6, 9): the sort must move it last.
    const w = world({ agents: [agent('rec', { connectedAgents: ['b'], enabledTools: ['run'] }), agent('b'), agent('c', { planReview: true }), agent('d', { planReview: true })] });
    const v = view({ start: ['rec', 'c', 'd'], runApproval: 'required', mcpServers: [{ name: 'x', agentId: null, transport: 'stdio', command: 'nope', enabled: true }], commandExists: () => false });
    const found = headlessPreflight(w, [], v);
    expect(found.map((f) => f.code)).toEqual(['PLAN_REVIEW_ON', 'PLAN_REVIEW_ON', 'RUN_APPROVAL_PENDING', 'MCP_COMMAND_NOT_FOUND', 'RECEPTION_TARGETS_OUTSIDE']);
    expect(found[0]?.message).toContain('Name-c');
    expect(found[1]?.message).toContain('Name-d');
  });

  it('an unknown enabledTools name is named once per started agent, with the known names in the fix', () => {
    const w = world({ agents: [agent('rec', { enabledTools: ['Grep', 'grep', 'Grep'] }), agent('b', { enabledTools: ['nope'] }), agent('c', { enabledTools: ['x'] })] });
    const found = headlessPreflight(w, [], view({ start: ['rec', 'b'] }));
    expect(found.map((f) => f.message.match(/name (\S+),/)?.[1])).toEqual(['Grep', 'nope']);
    expect(found[0]?.fix).toContain('Known names: blackboard, diff, fd, file, grep, judge, rag, remember, run, sd, yq.');
  });

  it('--bypass-plan-review passes plan review', () => {
    const w = world({ agents: [agent('rec', { planReview: true }), agent('b')] });
    expect(headlessPreflight(w, [], view({ bypassPlanReview: true }))).toEqual([]);
  });

  it("a judge target is not reported as a reception tie outside the start set (seed P6)", () => {
    const w = world({ agents: [agent('rec', { connectedAgents: ['judge', 'b'] }), agent('b'), agent('judge')] });
    const found = headlessPreflight(w, [], view({ start: ['rec'], judgeTargets: new Set(['judge']) }));
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('b');
    expect(found[0]?.message).not.toContain('judge');
    expect(headlessPreflight(w, [], view({ start: ['rec', 'b'], judgeTargets: new Set(['judge']) }))).toEqual([]);
  });

  it('names the environment variable under --secrets env, never a value', () => {
    const found = headlessPreflight(world(), [], view({ secretPresent: () => false, secretEnvName: (k) => `FUSEFORKS_SECRET_${k.toUpperCase()}` }));
    expect(found[0]?.fix).toContain('FUSEFORKS_SECRET_TPL');
  });

  it('reception rules apply to ask only; schedule rules to serve only', () => {
    expect(headlessPreflight(world({ reception: null }), [], view({ mode: 'serve' }))).toEqual([]);
    expect(headlessPreflight(world(), [schedule('s', 'b')], view({ start: ['rec'] })).map((f) => f.code)).toEqual([]);
  });

  it('ignores disabled schedules, schedules for deleted agents, and probes of stopped targets', () => {
    const probe = { command: 'p', args: [], expect: 'go', timeoutSecs: 60, cwd: null };
    const s = [schedule('off', 'b', { enabled: false }), schedule('gone', 'ghost'), schedule('stopped', 'b', { probe })];
    const found = headlessPreflight(world(), s, view({ mode: 'serve', start: ['rec'], probeApproved: () => false }));
    expect(found.map((f) => [f.code, f.message.includes('stopped')])).toEqual([['SCHEDULE_TARGET_STOPPED', true]]);
  });

  it('checks MCP servers of started agents only, enabled stdio only', () => {
    const servers = [
      { name: 'own', agentId: 'b', transport: 'stdio', command: 'x', enabled: true },
      { name: 'off', agentId: null, transport: 'stdio', command: 'x', enabled: false },
      { name: 'remote', agentId: null, transport: 'http', enabled: true },
    ];
    expect(headlessPreflight(world(), [], view({ start: ['rec'], mcpServers: servers, commandExists: () => false }))).toEqual([]);
  });

  it('a started template on an unspoken provider is one reject naming the fix, never also SECRET_MISSING', () => {
    const w = world({ modelTemplates: [template('tpl', { provider: null, unsupportedProvider: 'mistral_native', credential: 'unset' })] });
    const found = headlessPreflight(w, [], view({ secretPresent: () => false }));
    expect(found.map((f) => [f.code, f.level])).toEqual([['PROVIDER_UNSUPPORTED', 'reject']]);
    expect(found[0]?.fix).toContain('open_ai_compat');
    expect(found[0]?.message).toContain('Name-rec');
  });

  it.each([
    [{ provider: 'echo', credential: 'unset' }, 'none'],
    [{ provider: 'open_ai_compat', credential: 'not_required' }, 'none'],
    [{ provider: 'anthropic', credential: 'keyring' }, 'key'],
    [{ provider: null, credential: 'unset' }, 'unset'],
  ] as const)('secretNeed(%o) = %s', (tpl, need) => {
    expect(secretNeed(tpl)).toBe(need);
  });
});
