import { describe, expect, it } from 'vitest';
import { parseWorkDirHistory, rememberWorkDir, WORK_DIR_HISTORY_MAX } from '../../../src/gui/client/lib/workDirHistory.js';

describe('work folder history', () => {
  it.each<[string, string | null, string[]]>([
    ['nothing stored', null, []],
    ['not JSON', '[', []],
    ['not a list', '{"a":1}', []],
    ['bad entries dropped, repeats once', '["/a", 3, "", "/b", "/a"]', ['/a', '/b']],
  ])('%s', (_name, stored, expected) => {
    expect(parseWorkDirHistory(stored)).toEqual(expected);
  });

  it('puts the newest first, moves a repeat up, keeps at most the maximum', () => {
    let h: string[] = [];
    for (let i = 0; i < WORK_DIR_HISTORY_MAX + 3; i++) h = rememberWorkDir(h, `/f${i}`);
    expect(h).toHaveLength(WORK_DIR_HISTORY_MAX);
    expect(h[0]).toBe(`/f${WORK_DIR_HISTORY_MAX + 2}`);
    expect(rememberWorkDir(h, '/f5')[0]).toBe('/f5');
    expect(rememberWorkDir(h, '/f5')).toHaveLength(WORK_DIR_HISTORY_MAX);
    expect(rememberWorkDir(h, ' ')).toEqual(h);
  });
});
