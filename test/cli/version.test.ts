import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { composeVersion, readBuildVersion } from '../../src/cli/version.js';

describe('composeVersion', () => {
  it.each([
    ['v0.4.0', '1b33d9d', '0.4.0+g1b33d9d'],
    ['0.4.0', '1b33d9d', '0.4.0+g1b33d9d'],
    [null, '1b33d9d', '0.0.0+g1b33d9d'],
    ['', '1b33d9d', '0.0.0+g1b33d9d'],
    [null, null, '0.0.0'],
    ['v1.2.3', null, '1.2.3'],
    ['vintage', 'abc1234', 'vintage+gabc1234'],
  ])('tag %j + commit %j → %s', (tag, commit, version) => {
    expect(composeVersion(tag, commit)).toBe(version);
  });
});

describe('readBuildVersion falls back to 0.0.0, never throws', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ff-version-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it.each([
    ['a good file', () => file('good.json', '{"version":"0.4.0+g1b33d9d","tag":"v0.4.0","commit":"1b33d9d"}'), '0.4.0+g1b33d9d'],
    ['a missing file', () => join(dir, 'absent.json'), '0.0.0'],
    ['a corrupt file', () => file('bad.json', '{"version":'), '0.0.0'],
    ['a wrong shape', () => file('shape.json', '["0.4.0"]'), '0.0.0'],
    ['null', () => file('null.json', 'null'), '0.0.0'],
    ['a blank version', () => file('blank.json', '{"version":"  "}'), '0.0.0'],
  ])('%s', (_name, path, version) => {
    expect(readBuildVersion(path())).toBe(version);
  });
});
