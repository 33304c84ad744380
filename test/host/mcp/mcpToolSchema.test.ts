/** Which MCP tools reach a model (src/host/mcp/mcpToolSchema.ts): Ajv's verdict on real schemas, the name-order cap. */
import { describe, expect, it } from 'vitest';
import { admitMcpTools, ajvToolSchemaCheck, type McpToolCandidate } from '../../../src/host/mcp/mcpToolSchema.js';

const check = ajvToolSchemaCheck();

describe('ajvToolSchemaCheck', () => {
  const table: { label: string; schema: Record<string, unknown>; ok: boolean }[] = [
    { label: 'empty object schema', schema: { type: 'object', properties: {} }, ok: true },
    { label: 'nested with required', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } }, required: ['a'] }, ok: true },
    { label: 'local $ref that resolves', schema: { type: 'object', definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s' } } }, ok: true },
    { label: '2020-12 draft named, $defs', schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s' } } }, ok: true },
    { label: 'a vendor keyword and an unknown format', schema: { type: 'object', 'x-order': 1, properties: { e: { type: 'string', format: 'no-such-format' } } }, ok: true },
    { label: 'the same $id twice in a row', schema: { $id: 'https://example.test/s', type: 'object' }, ok: true },
    { label: 'type "bogus"', schema: { type: 'object', properties: { x: { type: 'bogus' } } }, ok: false },
    { label: 'dangling $ref', schema: { type: 'object', properties: { x: { $ref: '#/definitions/nowhere' } } }, ok: false },
    { label: 'required not an array', schema: { type: 'object', required: 'x' }, ok: false },
    { label: 'minLength negative', schema: { type: 'object', properties: { x: { type: 'string', minLength: -1 } } }, ok: false },
  ];
  for (const row of table) {
    it(`${row.label}: ${row.ok ? 'kept' : 'dropped'}`, () => {
      const verdict = check(row.schema);
      if (row.ok) expect(verdict).toBeNull();
      else expect(verdict).toMatch(/\w/);
      // Twice: compiling once must leave nothing behind that changes the second verdict.
      expect(check(row.schema) === null).toBe(row.ok);
    });
  }
});

describe('admitMcpTools', () => {
  const tool = (server: string, name: string, parameters: Record<string, unknown> = { type: 'object' }): McpToolCandidate => ({
    name: `${server}__${name}`,
    server,
    tool: name,
    parameters,
  });

  it('drops bad schemas naming server and tool, keeps the rest in name order', () => {
    const out = admitMcpTools([tool('zed', 'a'), tool('alpha', 'bad', { type: 'bogus' }), tool('alpha', 'b')], check);
    expect(out.admitted.map((t) => t.name)).toEqual(['alpha__b', 'zed__a']);
    expect(out.invalid).toEqual([{ server: 'alpha', tool: 'bad', reason: expect.stringContaining('schema is invalid') }]);
    expect(out.overCap).toEqual([]);
  });

  it('past the cap nothing is compiled; a dropped bad schema frees its place for the next', () => {
    let compiled = 0;
    const counting = (s: Record<string, unknown>): string | null => {
      compiled += 1;
      return check(s);
    };
    const many = Array.from({ length: 10_000 }, (_, i) => tool('s', `t${String(i).padStart(5, '0')}`));
    const out = admitMcpTools([tool('s', 'a_bad', { $ref: '#/nowhere' }), ...many], counting, 128);
    expect(out.admitted).toHaveLength(128);
    expect(out.admitted.at(-1)?.name).toBe('s__t00127');
    expect(out.invalid.map((i) => i.tool)).toEqual(['a_bad']);
    expect(out.overCap).toHaveLength(10_001 - 129);
    expect(out.overCap[0]).toBe('s__t00128');
    expect(compiled).toBe(129);
  });
});
