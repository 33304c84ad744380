import { describe, expect, it } from 'vitest';
import { wantsEventsJsonl } from '../../src/cli/argvScan.js';
import { oclifReason } from '../../src/cli/escapedError.js';

describe('wantsEventsJsonl scans raw argv before parsing', () => {
  it.each([
    [['ask', '--events', 'jsonl', 'hi'], true],
    [['ask', '--events=jsonl'], true],
    [['serve', '--bogus', '--events', 'jsonl'], true],
    [['ask', '--events'], false],
    [['ask', '--events', 'json'], false],
    [['ask', '--', '--events', 'jsonl'], false],
    [['ask', 'text mentioning --events jsonl'], false],
    [[], false],
  ])('%j → %s', (argv, expected) => {
    expect(wantsEventsJsonl(argv)).toBe(expected);
  });
});

describe('oclifReason', () => {
  it('keeps the reason lines and drops the preamble and the --help hint', () => {
    expect(oclifReason('The following error occurred:\n  Missing required flag data-dir\nSee more help with --help')).toBe('Missing required flag data-dir');
    expect(oclifReason('Nonexistent flag: --x\nSee more help with --help')).toBe('Nonexistent flag: --x');
    expect(oclifReason('')).toBe('invalid arguments');
    expect(oclifReason('Missing 1 required arg:\ntext  The request text, or - to read it from stdin.\nSee more help with --help')).toBe(
      'Missing 1 required arg: text (The request text, or - to read it from stdin.)',
    );
  });
});
