import { describe, expect, it } from 'vitest';
import { judgeProbe, PROBE_APPENDIX_MAX_CHARS, type ProbeJudgement } from '../../../src/core/schedules/probeJudge.js';

const rows: Array<[string, string, boolean, string, ProbeJudgement]> = [
  ['line 1 equals the signal', 'GO\n', false, 'GO', { outcome: 'match' }],
  ['both sides trimmed, CRLF dropped', '  GO \r\nmore\r\n', false, ' GO', { outcome: 'match', appendix: 'more' }],
  ['no newline at all still judges line 1', 'GO', false, 'GO', { outcome: 'match' }],
  ['rest is the appendix, verbatim but trailing space', 'GO\n  a\n\n b  \n\n', false, 'GO', { outcome: 'match', appendix: '  a\n\n b' }],
  ['only line 1 counts', 'wait\nGO\n', false, 'GO', { outcome: 'no_match' }],
  ['case matters', 'go\n', false, 'GO', { outcome: 'no_match' }],
  ['empty output is no match', '', false, 'GO', { outcome: 'no_match' }],
  ['cut inside line 1 cannot be trusted', 'GOGOGOGO', true, 'GO', { outcome: 'error', reason: 'signal_truncated' }],
];

describe('judgeProbe', () => {
  it.each(rows)('%s', (_name, stdout, capped, expect_, expected) => {
    expect(judgeProbe(stdout, capped, expect_, 'en')).toEqual(expected);
  });

  it('cuts a long appendix at 4,000 chars and says how much there was', () => {
    const rest = 'x'.repeat(5000);
    const verdict = judgeProbe(`GO\n${rest}`, false, 'GO', 'en');
    expect(verdict.outcome).toBe('match');
    const appendix = verdict.outcome === 'match' ? (verdict.appendix ?? '') : '';
    expect(appendix.startsWith('x'.repeat(PROBE_APPENDIX_MAX_CHARS) + '\n')).toBe(true);
    expect(appendix).toContain('5003');
    expect(judgeProbe(`GO\n${rest}`, false, 'GO', 'ja')).toMatchObject({ appendix: expect.stringContaining('5003 字') });
  });

  it('when the capture limit was hit, the note says "or more" even for a short appendix', () => {
    const verdict = judgeProbe('GO\nabc', true, 'GO', 'en');
    expect(verdict).toMatchObject({ outcome: 'match', appendix: expect.stringContaining('65536+') });
  });
});
