/**
 * The supervisor's ExternalToolPort over the MCP manager: calls are routed per agent, a transport failure is a
 * tool result (ok=false) and never a rejection, and a failed per-agent open never blocks a start.
 * The source here is a small scripted stand-in for the manager (the manager itself has real-server tests).
 */
import { describe, expect, it } from 'vitest';
import { FuseforksError } from '../../src/core/errors.js';
import type { ToolSpec } from '../../src/core/llm/canonical.js';
import { mcpToolPort, type McpToolSource } from '../../src/host/mcpToolPort.js';

const spec = (name: string): ToolSpec => ({ name, description: '', parameters: { type: 'object', properties: {} } });

function source(overrides: Partial<McpToolSource> = {}): McpToolSource & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    openAgent: async (id) => {
      log.push(`open ${id}`);
      return { statuses: [], loadError: null };
    },
    closeAgent: async (id) => {
      log.push(`close ${id}`);
    },
    toolSpecsFor: (id) => [spec(`${id}__t`)],
    callTool: async (id, name, args) => ({ body: `${id}:${name}:${JSON.stringify(args)}`, ok: true }),
    ...overrides,
  };
}

describe('mcpToolPort', () => {
  it('routes open, close, specs and calls to the manager for that agent', async () => {
    const s = source();
    const port = mcpToolPort(s);
    await port.openAgent('a');
    await port.closeAgent('a');
    expect(s.log).toEqual(['open a', 'close a']);
    expect(port.specsFor('b').map((t) => t.name)).toEqual(['b__t']);
    await expect(port.call('a', 'fx__add', { x: 1 }, new AbortController().signal)).resolves.toEqual({ body: 'a:fx__add:{"x":1}', ok: true });
  });

  it.each([
    ['a FuseforksError', new FuseforksError('MCP_FAILED', 'no MCP tool "fx__gone" is connected'), 'no MCP tool "fx__gone" is connected'],
    ['a plain Error', new Error('socket hang up'), 'socket hang up'],
  ])('a call that throws %s becomes a failed tool result', async (_label, error, body) => {
    const port = mcpToolPort(source({ callTool: async () => Promise.reject(error) }));
    await expect(port.call('a', 'fx__gone', {}, new AbortController().signal)).resolves.toEqual({ body, ok: false });
  });

  it('an open that rejects still lets the agent start', async () => {
    const port = mcpToolPort(source({ openAgent: async () => Promise.reject(new Error('boom')) }));
    await expect(port.openAgent('a')).resolves.toBeUndefined();
  });
});
