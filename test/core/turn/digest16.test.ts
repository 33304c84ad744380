/**
 * The system-prompt digest of the `cache:` line (turnEnding.ts digest16): 64-bit FNV-1a over UTF-16 code units,
 * computed in 16-bit limbs; it must equal the plain BigInt definition for every input (logs compare digests across
 * versions to see whether a prompt's stable part changed).
 */
import { describe, expect, it } from 'vitest';
import { ScriptedBackend, textResponse } from '../../../src/core/llm/scripted.js';
import { digest16 } from '../../../src/core/turn/turnEnding.js';
import { agentSpec, TurnHarness } from '../../support/turnHarness.js';

function reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

describe('digest16', () => {
  it.each(['', 'a', 'foobar', '【送り手: A → B】\n日本語', '\uffff\u0000\ud83d\ude00'])('equals the BigInt definition for %j', (text) => {
    expect(digest16(text)).toBe(reference(text));
  });

  it('equals it for 500 seeded random strings of every code unit range', () => {
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 500; n += 1) {
      const len = next() % 300;
      let text = '';
      for (let i = 0; i < len; i += 1) text += String.fromCharCode(next() % (n % 2 === 0 ? 0x80 : 0x10000));
      expect(digest16(text)).toBe(reference(text));
    }
  });

  it('is the known FNV-1a 64 value of "a"', () => {
    expect(digest16('a')).toBe('af63dc4c8601ec8c');
  });

  it('the cache line digests the system text of its own turn, also when agents alternate in one thread (digest kept between calls)', async () => {
    const backends = { a: new ScriptedBackend([], { responder: () => textResponse('ok') }), b: new ScriptedBackend([], { responder: () => textResponse('ok') }) };
    const h = new TurnHarness([{ spec: agentSpec('a'), backend: backends.a }, { spec: agentSpec('b'), backend: backends.b }]);
    for (const id of ['a', 'b', 'a', 'b']) await h.send(id, 'hi');
    const cache = h.diag.notes.filter((n) => n.kind === 'cache').map((n) => n.fields);
    expect(cache.map((c) => c.agent)).toEqual(['a', 'b', 'a', 'b']);
    const digests = cache.map((c) => c.system_digest);
    expect(digests[0]).toBe(digests[2]);
    expect(digests[1]).toBe(digests[3]);
    expect(digests[0]).not.toBe(digests[1]);
    const systemText = (id: 'a' | 'b'): string => backends[id].requests[0]!.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    expect(digests).toEqual([digest16(systemText('a')), digest16(systemText('b')), digest16(systemText('a')), digest16(systemText('b'))]);
  });
});
