import { describe, expect, it } from 'vitest';
import { mcpToolDescription, mcpToolName, mcpToolParameters } from '../../../src/host/mcp/mcpToolNames.js';

describe('mcpToolName', () => {
  it.each([
    { server: 'calc', tool: 'add', want: 'calc__add' },
    { server: 'my server', tool: 'do.it', want: 'my_server__do_it' },
    { server: 'ok-name_1', tool: 'x', want: 'ok-name_1__x' },
    { server: 'ｊａ', tool: 'é', want: '_____' },
  ])('$server / $tool → $want', ({ server, tool, want }) => {
    expect(mcpToolName(server, tool)).toBe(want);
  });

  it('keeps the tail above 64 chars', () => {
    const name = mcpToolName('srv', `${'a'.repeat(70)}_end`);
    expect(name).toHaveLength(64);
    expect(name.endsWith('_end')).toBe(true);
  });
});

describe('mcpToolDescription / mcpToolParameters', () => {
  it('tags the description with the server', () => {
    expect(mcpToolDescription('calc', ' Adds ')).toBe('[calc] Adds');
    expect(mcpToolDescription('calc', undefined)).toBe('[calc]');
  });
  it('passes a schema through and never injects reason', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    expect(mcpToolParameters(schema)).toEqual(schema);
    expect(mcpToolParameters(null)).toEqual({ type: 'object', properties: {} });
    expect(mcpToolParameters({})).toEqual({ type: 'object', properties: {} });
  });
});
