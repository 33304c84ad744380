import { describe, expect, it } from 'vitest';
import { isDiskFull } from '../../../src/core/errors/sessionErrors.js';

describe('isDiskFull (SESSION_STORE_FULL vs SESSION_STORE_FAILED)', () => {
  it.each<[string, unknown, boolean]>([
    ['errno string', Object.assign(new Error('x'), { code: 'ENOSPC' }), true],
    ["lmdb's numeric errno", Object.assign(new Error('write failed'), { code: 28 }), true],
    ["lmdb's message", new Error('No space left on device: Attempting to write page at position 57344'), true],
    ['a full map', new Error('MDB_MAP_FULL: Environment mapsize limit reached'), true],
    ['permissions', Object.assign(new Error('x'), { code: 'EACCES' }), false],
    ["lmdb's wrapper alone", new Error('Commit failed (see commitError for details)'), false],
    ['null', null, false],
    ['a string', 'ENOSPC', false],
  ])('%s → %s', (_label, cause, full) => {
    expect(isDiskFull(cause)).toBe(full);
  });
});
