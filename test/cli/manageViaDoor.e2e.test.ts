/**
 * `agents list` and `schedules run-now` while `serve` holds the village (built binaries, a real serve child, loopback
 * stub LLM): with serve's door on, both go through the door's management routes with its token — live statuses,
 * and the schedule fired by serve (its target started there); the routes refuse a caller without the token. With
 * the door off, run-now is refused (exit 4) saying how to switch the door on, and statuses come from serve's
 * heartbeat (serve.status.json: running or idle as of its last beat).
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, freePort, makeVillage, runCli, useCliSuite, useServeChild } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const TOKEN = 'fedcba9876543210fedcba9876543210';
const SCHEDULE = {
  id: '5e1f0c2a-7b3d-4c8e-9a6f-2d4b8c0e1f37', to: 'helper', message: 'weekly digest', recurrence: { kind: 'interval', everyMinutes: 600 },
  createdAtMs: 1, lastConsumedDueMs: null, enabled: true,
};

const serve = useServeChild();

/** desk starts with the batch, helper does not; one schedule sends to helper. */
function village(): string {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, credential: 'not_required', agents: [{ id: 'desk' }, { id: 'helper', batchStart: false }] });
  writeFileSync(join(dir, 'workspace/schedules.json'), `${JSON.stringify({ schedules: [SCHEDULE] }, null, 2)}\n`);
  return dir;
}

const startServe = (dir: string): Promise<void> => serve.start(dir);

interface AgentsJson {
  held: boolean;
  statusFrom: string;
  agents: Array<{ agentId: string; status: string | null }>;
}

const agentsJson = async (dir: string): Promise<AgentsJson> => {
  const run = await runCli(['agents', 'list', '-d', dir, '--json']);
  expect(run.code, describeRun(run)).toBe(0);
  return JSON.parse(run.stdout) as AgentsJson;
};

/** The HTTP status of a GET to a management route with `authorization` (or none). */
function rawGet(port: number, path: string, authorization?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: authorization === undefined ? {} : { authorization } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('management commands while serve holds the village', () => {
  it('door on: agents list shows live statuses and run-now fires through the door (target started by serve)', { timeout: cliBudget(8) }, async () => {
    stub().respond(() => reply.text('Digest sent.'));
    const dir = village();
    const port = await freePort();
    writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port, token: TOKEN }));
    await startServe(dir);

    expect(await agentsJson(dir)).toMatchObject({ held: true, statusFrom: 'door', agents: [{ agentId: 'desk', status: 'running' }, { agentId: 'helper', status: 'idle' }] });
    const lines = await runCli(['agents', 'list', '-d', dir]);
    expect(lines.stdout).toContain('desk  "DESK"  running  model stub');
    expect(lines.stdout).toContain(`statuses from its MCP door at 127.0.0.1:${port}`);

    // The routes sit behind the door's own checks: no token or a wrong one is 401, an unknown path 404.
    expect(await rawGet(port, '/manage/agents')).toBe(401);
    expect(await rawGet(port, '/manage/agents', `Bearer ${'0'.repeat(32)}`)).toBe(401);
    expect(await rawGet(port, '/manage/agents', `Bearer ${TOKEN}`)).toBe(200);
    expect(await rawGet(port, '/manage/nothing', `Bearer ${TOKEN}`)).toBe(404);

    const run = await runCli(['schedules', 'run-now', SCHEDULE.id.slice(0, 8), '-d', dir, '--json']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ format: 1, id: SCHEDULE.id, to: 'helper', fired: true, probe: null, participants: ['helper'] });
    expect(run.stderr).toContain('[VIA_DOOR]');
    expect(stub().requests).toHaveLength(1);
    expect(stub().requests[0]!.lastUserText).toContain('weekly digest');
    expect(await agentsJson(dir)).toMatchObject({ agents: [{ agentId: 'desk', status: 'running' }, { agentId: 'helper', status: 'running' }] });

    // A refusal from the serving host comes back as its code and fix, exit 1.
    const unknown = await runCli(['schedules', 'run-now', 'nope-nope', '-d', dir]);
    expect(unknown.code, describeRun(unknown)).toBe(1);
    expect(unknown.stderr).toContain('[SCHEDULE_NOT_FOUND] No schedule has the id nope-nope.');
    expect(stub().requests).toHaveLength(1);
  });

  it('door off: run-now is refused with exit 4 and the door fix; agents list reads serve\'s heartbeat', { timeout: cliBudget(4) }, async () => {
    const dir = village();
    await startServe(dir);
    const refused = await runCli(['schedules', 'run-now', SCHEDULE.id, '-d', dir]);
    expect(refused.code, describeRun(refused)).toBe(4);
    expect(refused.stderr).toContain('[LOCK_HELD]');
    expect(refused.stderr).toContain('door enable');
    expect(stub().requests).toHaveLength(0);
    expect(await agentsJson(dir)).toMatchObject({ held: true, statusFrom: 'heartbeat', agents: [{ agentId: 'desk', status: 'running' }, { agentId: 'helper', status: 'idle' }] });
    const lines = await runCli(['agents', 'list', '-d', dir]);
    expect(lines.stdout).toContain('desk  "DESK"  running');
    expect(lines.stdout).toContain('serve whose door is off; statuses from its heartbeat');
  });
});
