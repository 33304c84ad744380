import { describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import type { AgentTool, ToolContext, ToolPresentation } from '../../../src/core/tools/contract.js';
import {
  BUNDLED_TOOL_NAMES,
  DEFAULT_ENABLED_TOOLS,
  ToolRegistry,
  WORK_DIR_TOOL_NAMES,
  isPresented,
} from '../../../src/core/tools/registry.js';
import { readReason } from '../../../src/core/tools/toolReason.js';

/** A fake tool that echoes its args; the registry is the thing under test, not the tool. */
function fakeTool(name: string, wantsReason = true, behaviour?: () => Promise<string>): AgentTool {
  return {
    name,
    wantsReason,
    specFor: () => ({ name, description: `${name} tool`, parameters: { type: 'object', properties: { x: { type: 'string' } } } }),
    call: behaviour ?? (async (args) => JSON.stringify(args)),
  };
}

const presentation = (over: Partial<ToolPresentation> = {}): ToolPresentation => ({
  agentId: 'a1',
  workDir: '/tmp/w',
  enabledTools: null,
  language: 'en',
  workspaceDir: '/tmp/ws',
  ...over,
});

function ctx(diag = new MemoryDiagSink()): ToolContext {
  return {
    agentId: 'a1',
    workDir: '/tmp/w',
    workspaceDir: '/tmp/ws',
    language: 'en',
    runApproval: 'required',
    signal: new AbortController().signal,
    diag,
    round: 2,
  };
}

const allTools = [...BUNDLED_TOOL_NAMES.map((n) => fakeTool(n)), fakeTool('srv__search', false)];

describe('presentation', () => {
  const cases: Array<[string, Partial<ToolPresentation>, string[]]> = [
    ['default set, no run', {}, ['blackboard', 'diff', 'fd', 'file', 'grep', 'remember', 'sd', 'srv__search', 'yq']],
    ['no work dir hides work-dir tools', { workDir: null }, ['remember', 'srv__search']],
    ['explicit list incl. run', { enabledTools: ['run', 'grep'] }, ['grep', 'run', 'srv__search']],
    ['explicit empty list keeps MCP', { enabledTools: [] }, ['srv__search']],
    ['run without work dir still listed', { workDir: null, enabledTools: ['run', 'fd'] }, ['run', 'srv__search']],
  ];
  it.each(cases)('%s', (_label, over, expected) => {
    const reg = new ToolRegistry(allTools, presentation(over));
    expect(reg.specs().map((s) => s.name)).toEqual(expected);
  });

  it('constants agree', () => {
    expect(DEFAULT_ENABLED_TOOLS).not.toContain('run');
    expect([...WORK_DIR_TOOL_NAMES].every((n) => (BUNDLED_TOOL_NAMES as readonly string[]).includes(n))).toBe(true);
    expect(isPresented('anything__else', presentation({ workDir: null, enabledTools: [] }))).toBe(true);
  });

  it('injects an optional reason into built-ins only', () => {
    const reg = new ToolRegistry(allTools, presentation());
    const grep = reg.specs().find((s) => s.name === 'grep');
    const mcp = reg.specs().find((s) => s.name === 'srv__search');
    expect(Object.keys((grep?.parameters['properties'] ?? {}) as object)).toContain('reason');
    expect(grep?.parameters['required']).toBeUndefined();
    expect(Object.keys((mcp?.parameters['properties'] ?? {}) as object)).not.toContain('reason');
  });

  it('hides a tool whose own specFor says null', () => {
    const hidden: AgentTool = { ...fakeTool('fd'), specFor: () => null };
    const reg = new ToolRegistry([hidden], presentation());
    expect(reg.specs()).toEqual([]);
    expect(reg.has('fd')).toBe(false);
  });
});

describe('readReason', () => {
  const long = 'x'.repeat(80);
  const cases: Array<[unknown, string, string | null, number]> = [
    [undefined, 'omitted', null, 0],
    [42, 'omitted', null, 0],
    ['   ', 'omitted', null, 0],
    ['  find the bug ', 'written', 'find the bug', 12],
    [long, 'written', `${'x'.repeat(59)}…`, 80],
    ['x'.repeat(60), 'written', 'x'.repeat(60), 60],
  ];
  it.each(cases)('%j → %s', (raw, kind, text, chars) => {
    const read = readReason(raw);
    expect(read.state.kind).toBe(kind);
    if (read.state.kind === 'written') expect(read.state.text).toBe(text);
    expect(read.chars).toBe(chars);
  });
});

describe('execute', () => {
  it('reads the reason, hides it from the tool and notes counts only', async () => {
    const diag = new MemoryDiagSink();
    const reg = new ToolRegistry(allTools, presentation());
    const out = await reg.execute('grep', { x: 'secret-body', reason: ' look for TODOs ' }, ctx(diag));
    expect(out).toEqual({ body: '{"x":"secret-body"}', ok: true, reason: { kind: 'written', text: 'look for TODOs' } });
    expect(diag.notes).toEqual([
      {
        kind: 'tool',
        level: 'info',
        fields: {
          agent: 'a1', round: 2, name: 'grep', ok: true, args_chars: 47, body_chars: 19,
          reason: 'written', reason_chars: 14,
        },
      },
    ]);
    expect(JSON.stringify(diag.notes)).not.toContain('secret-body');
    expect(JSON.stringify(diag.notes)).not.toContain('TODOs');
  });

  it('MCP tools get reason=unsupported and keep their args', async () => {
    const reg = new ToolRegistry(allTools, presentation());
    const out = await reg.execute('srv__search', { reason: 'r' }, ctx());
    expect(out.reason).toEqual({ kind: 'unsupported' });
    expect(out.body).toBe('{"reason":"r"}');
  });

  it('a throw becomes a failed text, never a throw', async () => {
    const boom = fakeTool('grep', true, async () => {
      throw new Error('disk on fire');
    });
    const diag = new MemoryDiagSink();
    const out = await new ToolRegistry([boom], presentation()).execute('grep', {}, ctx(diag));
    expect(out.ok).toBe(false);
    expect(out.body).toBe('tool execution failed: disk on fire');
    expect(diag.notes[0]?.fields['ok']).toBe(false);
  });

  it('a refusal reply keeps its text with ok=false', async () => {
    const refusing: AgentTool = { ...fakeTool('fd'), call: async () => ({ body: 'no', ok: false }) };
    const out = await new ToolRegistry([refusing], presentation()).execute('fd', {}, ctx());
    expect(out).toMatchObject({ body: 'no', ok: false });
  });

  it('unknown and hidden names are ok=false texts', async () => {
    const reg = new ToolRegistry(allTools, presentation());
    const unknown = await reg.execute('nope', {}, ctx());
    expect(unknown.ok).toBe(false);
    expect(unknown.body).toContain('nope');
    const hidden = await reg.execute('run', {}, ctx());
    expect(hidden.ok).toBe(false);
  });
});

describe('createToolBox', () => {
  it('presents the real built-ins by the same rules', async () => {
    const { createToolBox } = await import('../../../src/core/tools/builtins.js');
    expect(createToolBox(presentation()).specs().map((s) => s.name)).toEqual(['blackboard', 'diff', 'fd', 'file', 'grep', 'remember', 'sd', 'yq']);
    expect(createToolBox(presentation({ workDir: null, enabledTools: ['run', 'remember'] })).specs().map((s) => s.name)).toEqual([
      'remember',
      'run',
    ]);
  });
});

describe('the stated reason reaches the tool', () => {
  it('built-ins get it in their context (run files it with a pending request); MCP tools never do', async () => {
    let seen: ToolContext | null = null;
    const capture = (name: string, wantsReason: boolean): AgentTool => ({
      ...fakeTool(name, wantsReason),
      call: async (_args, c) => {
        seen = c;
        return 'ok';
      },
    });
    const reg = new ToolRegistry([capture('remember', true), capture('srv__t', false)], presentation());
    await reg.execute('remember', { reason: ' keep the note ' }, ctx());
    expect(seen!.reason).toEqual({ kind: 'written', text: 'keep the note' });
    await reg.execute('srv__t', { reason: 'x' }, ctx());
    expect(seen!.reason).toBeUndefined();
  });
});
