import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { schemaNames } from '../support/jsonSchemas.js';
import { COMMANDS } from '../../src/cli/commandMap.js';
import { EXIT_CODE_TABLE } from '../../src/cli/exitCodes.js';
import { ERROR_FAULT_KINDS, ERROR_FAULTS } from '../../src/core/errorFaults.js';
import { ERROR_CODES, toWire, FuseforksError, type ErrorPayload } from '../../src/core/errors.js';
import { CALL_PURPOSES, CURRENT_RECORD_VERSION, RECORD_KINDS } from '../../src/core/sessions/records.js';
import { readFixture } from '../core/sessions/fixtures.js';
import { FINDING_CODES } from '../../src/core/preflight/finding.js';
import { BUNDLED_TOOL_NAMES, DEFAULT_ENABLED_TOOLS, WORK_DIR_TOOL_NAMES } from '../../src/core/tools/registry.js';
import {
  AGENT_STATUSES,
  CORE_EVENT_TYPES,
  PLAN_TASK_STATES,
  type CoreEvent,
  type CoreEventType,
} from '../../src/core/events.js';

interface Ledger {
  session_records: { version: number; kinds: Record<string, unknown>; call_purposes: string[] };
  enums: Record<string, string[]>;
  events: Record<string, string[]>;
  error_codes: Record<string, string>;
  error_faults: Record<string, string[]>;
  wire_shapes: Record<string, { required: string[]; optional: string[] } | string>;
  finding_codes: Record<string, { level: string }>;
  exit_codes: Record<string, string>;
  tools: { bundled: string[]; default_enabled: string[]; work_dir: string[] };
  management_commands: Record<string, unknown>;
  json_schemas: Record<string, string[]>;
}

const ledger = parse(readFileSync(new URL('../../data_contract.yaml', import.meta.url), 'utf8')) as Ledger;

/** One sample per event type; the compiler checks each against the CoreEvent union. */
const sampleEvents: { [K in CoreEventType]: Extract<CoreEvent, { type: K }> } = {
  agentStatusChanged: { type: 'agentStatusChanged', agentId: 'a', status: 'running' },
  agentStatsUpdated: { type: 'agentStatsUpdated', agentId: 'a', uptimeSecs: 1, totalTokens: 2, promptTokens: 1, cachedTokens: 0 },
  messageSent: {
    type: 'messageSent',
    message: { id: 'm', from: { kind: 'user' }, to: { kind: 'agent', id: 'a' }, content: '', tokens: 0, tsMs: 0, hop: 0 },
  },
  topologyChanged: { type: 'topologyChanged' },
  agentFailed: { type: 'agentFailed', agentId: 'a', error: { code: 'BUG', message: 'x', retryable: false, fault: 'system' } },
  backendDegraded: { type: 'backendDegraded', modelTemplateId: 't', reason: 'r' },
  conversationCleared: { type: 'conversationCleared' },
  sessionSwitched: { type: 'sessionSwitched', sessionId: 's' },
  turnRecorded: { type: 'turnRecorded', agentId: 'a', sessionId: 's' },
  agentTyping: { type: 'agentTyping', agentId: 'a', active: true },
  textDelta: { type: 'textDelta', agentId: 'a', turnSeq: 1, round: 1, kind: 'text', text: 'Hel' },
  toolInvoked: { type: 'toolInvoked', agentId: 'a', tool: 'grep', ok: true, reason: { kind: 'omitted' }, args: '{"q":"x"}' },
  toolLimitReached: { type: 'toolLimitReached', agentId: 'a', maxIterations: 12 },
  toolRepeatBlocked: { type: 'toolRepeatBlocked', agentId: 'a', tool: 'grep', repeats: 3 },
  turnInterrupted: { type: 'turnInterrupted', agentId: 'a', turnSeq: 1 },
  hopLimitReached: { type: 'hopLimitReached', agentId: 'a', maxHops: 8 },
  planWaveStarted: { type: 'planWaveStarted', planId: 1, agentId: 'a', wave: 1, tasks: [], startedAtMs: 0 },
  planReviewRequested: { type: 'planReviewRequested', planId: 1, agentId: 'a', wave: 1, tasks: [{ to: 'b', message: 'm' }] },
  planReviewResolved: { type: 'planReviewResolved', planId: 1, agentId: 'a', approved: true },
  planTaskResolved: { type: 'planTaskResolved', planId: 1, to: 'b', state: 'answered', elapsedMs: 3 },
  planWaveFinished: { type: 'planWaveFinished', planId: 1, bundleChars: 10, elapsedMs: 3 },
};

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('data_contract.yaml and the code agree', () => {
  it('management_commands lists every topic command the CLI registers (door, schedules, secrets, …), and only those', () => {
    expect(sorted(Object.keys(ledger.management_commands))).toEqual(sorted(Object.keys(COMMANDS).filter((id) => id.includes(':'))));
  });

  it('lists exactly the error codes the code can raise', () => {
    expect(sorted(Object.keys(ledger.error_codes))).toEqual(sorted(ERROR_CODES));
  });

  it('lists every error code under exactly its fault in ERROR_FAULTS', () => {
    expect(Object.keys(ledger.error_faults)).toEqual([...ERROR_FAULT_KINDS]);
    const fromLedger = Object.entries(ledger.error_faults).flatMap(([fault, codes]) => codes.map((code) => `${code}=${fault}`));
    expect(sorted(fromLedger)).toEqual(sorted(Object.entries(ERROR_FAULTS).map(([code, fault]) => `${code}=${fault}`)));
  });

  it('ErrorPayload carries exactly the ledger fields, fault always', () => {
    const shape = ledger.wire_shapes.ErrorPayload as { required: string[]; optional: string[] };
    const bare: ErrorPayload = toWire(new FuseforksError('LOCK_HELD', 'm'));
    expect(sorted(Object.keys(bare))).toEqual(sorted(['code', 'message', 'retryable', 'fault', 'agentId']));
    const full = toWire(new FuseforksError('LOCK_HELD', 'm', { fix: 'f', details: { pid: 1 }, agentId: 'a' }));
    expect(sorted(Object.keys(full))).toEqual(sorted([...shape.required, ...shape.optional]));
  });

  it('lists exactly the CoreEvent types', () => {
    expect(sorted(Object.keys(ledger.events))).toEqual(sorted(CORE_EVENT_TYPES));
  });

  it.each(Object.entries(sampleEvents))('event %s carries exactly the ledger fields', (type, event) => {
    const fields = Object.keys(event).filter((key) => key !== 'type');
    expect(sorted(fields)).toEqual(sorted(ledger.events[type] ?? []));
  });

  it('lists exactly the preflight finding codes, in table order', () => {
    expect(Object.keys(ledger.finding_codes)).toEqual([...FINDING_CODES]);
  });

  it('lists exactly the exit codes 0-9', () => {
    expect(Object.keys(ledger.exit_codes).map(Number)).toEqual(EXIT_CODE_TABLE.map((row) => row.code));
  });

  it('lists exactly the session record kinds, version and call purposes', () => {
    expect(ledger.session_records.version).toBe(CURRENT_RECORD_VERSION);
    expect(sorted(Object.keys(ledger.session_records.kinds))).toEqual(sorted(RECORD_KINDS));
    expect(ledger.session_records.call_purposes).toEqual([...CALL_PURPOSES]);
  });

  it.each(['turn', 'call', 'summary', 'exchange'])('record %s lists exactly the fields of its newest fixture', (kind) => {
    const name = ['turn', 'call'].includes(kind) ? `${kind}.v2.json` : `${kind}.v1.json`;
    const fields = Object.keys(readFixture(name) as object).filter((k) => k !== 'v' && k !== 'kind');
    expect(sorted(fields)).toEqual(sorted(ledger.session_records.kinds[kind] as string[]));
  });

  it('lists exactly the bundled, default and work-folder tool sets', () => {
    expect(ledger.tools.bundled).toEqual([...BUNDLED_TOOL_NAMES]);
    expect(ledger.tools.default_enabled).toEqual([...DEFAULT_ENABLED_TOOLS]);
    expect(ledger.tools.work_dir).toEqual([...WORK_DIR_TOOL_NAMES]);
  });

  it('lists exactly the plan task states and agent statuses', () => {
    expect(ledger.enums.plan_task_state).toEqual([...PLAN_TASK_STATES]);
    expect(ledger.enums.agent_status).toEqual([...AGENT_STATUSES]);
  });

  it('json_schemas names every schema file in docs/schemas, and every command with --json has exactly one schema', () => {
    expect(sorted(Object.keys(ledger.json_schemas))).toEqual(schemaNames());
    const withJson = Object.entries(COMMANDS)
      .filter(([, command]) => 'json' in ((command as { flags?: Record<string, unknown> }).flags ?? {}))
      .map(([id]) => id);
    const listed = Object.values(ledger.json_schemas).flat();
    for (const id of withJson) expect(listed.filter((entry) => entry === id), id).toHaveLength(1);
    for (const entry of listed) if (!entry.includes(' ') && !entry.includes('{')) expect(withJson, entry).toContain(entry);
  });
});
