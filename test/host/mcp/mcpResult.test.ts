import { describe, expect, it } from 'vitest';
import { renderMcpResult, type McpCallResultLike } from '../../../src/host/mcp/mcpResult.js';

describe('renderMcpResult', () => {
  const table: Array<{ name: string; result: McpCallResultLike; body: string; ok: boolean }> = [
    { name: 'text blocks joined', result: { content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, body: 'a\nb', ok: true },
    { name: 'image becomes a marker', result: { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, body: '[image image/png]', ok: true },
    { name: 'resource link marker', result: { content: [{ type: 'resource_link', uri: 'file:///x' }] }, body: '[resource_link: file:///x]', ok: true },
    { name: 'structured when nothing else', result: { content: [], structuredContent: { n: 1 } }, body: '{"n":1}', ok: true },
    { name: 'text wins over structured', result: { content: [{ type: 'text', text: 't' }], structuredContent: { n: 1 } }, body: 't', ok: true },
    { name: 'empty gives a note', result: { content: [] }, body: '(empty result)', ok: true },
    { name: 'isError is prefixed', result: { content: [{ type: 'text', text: 'bad' }], isError: true }, body: 'The tool returned an error: bad', ok: false },
    { name: 'legacy toolResult', result: { toolResult: 'old' }, body: 'old', ok: true },
  ];
  it.each(table)('$name', ({ result, body, ok }) => {
    expect(renderMcpResult(result, 'en')).toEqual({ body, ok });
  });
  it('speaks Japanese for a ja village', () => {
    expect(renderMcpResult({ content: [] }, 'ja').body).toBe('（空の結果）');
    expect(renderMcpResult({ content: [{ type: 'text', text: 'x' }], isError: true }, 'ja').body).toBe('ツールはエラーを返しました: x');
  });
  it('never puts binary data in the body', () => {
    expect(renderMcpResult({ content: [{ type: 'audio', data: 'SECRETDATA', mimeType: 'audio/wav' }] }, 'en').body).not.toContain('SECRETDATA');
  });
});
