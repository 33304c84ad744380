import { describe, expect, it } from 'vitest';
import { mapEdges, tieAddition, tieCounts } from '../../../src/gui/client/lib/kizuna.js';
import { renderMarkdown } from '../../../src/gui/client/lib/markdown.js';

const agents = [
  { id: 'a', connectedAgents: ['b'] },
  { id: 'b', connectedAgents: [] as string[] },
  { id: 'c', connectedAgents: ['a'] },
];

describe('tieAddition (drag a card onto a node)', () => {
  it.each<[string, string, string[] | null]>([
    ['b', 'a', ['a']],
    ['a', 'c', ['b', 'c']],
    ['a', 'a', null],
    ['a', 'b', null],
    ['a', 'zz', null],
    ['zz', 'a', null],
  ])('%s onto %s → %j', (source, target, want) => {
    expect(tieAddition(agents, source, target)).toEqual(want);
  });
});

describe('mapEdges', () => {
  it('draws one line per pair and marks opposite ties as both ways', () => {
    const both = [{ id: 'a', connectedAgents: ['b'] }, { id: 'b', connectedAgents: ['a', 'c'] }, { id: 'c', connectedAgents: [] }];
    expect(mapEdges(both)).toEqual([
      { a: 'a', b: 'b', both: true },
      { a: 'b', b: 'c', both: false },
    ]);
    expect(tieCounts(both)).toEqual({ ties: 2, both: 1 });
  });
});

describe('renderMarkdown (agent text)', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;'],
    ['[x](javascript:alert(1))', '[x](javascript:alert(1))'],
    ['**bold**', '<strong>bold</strong>'],
    ['[ok](https://example.com)', 'rel="noopener noreferrer"'],
  ])('%s contains %s', (input, fragment) => {
    expect(renderMarkdown(input)).toContain(fragment);
  });

  it('never emits a javascript: link or a raw tag', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)> [a](javascript:x) <a href="javascript:y">b</a>');
    expect(html).not.toMatch(/href="javascript:/);
    expect(html).not.toContain('<img');
  });
});
