import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FuseforksError } from '../../../src/core/errors.js';
import { parseMcpConfig, readMcpConfig } from '../../../src/host/mcp/mcpConfig.js';
import { mcpChildEnv } from '../../../src/host/mcp/mcpChildEnv.js';

const F = '/v/workspace/mcp.json';

describe('parseMcpConfig', () => {
  it('reads stdio and HTTP entries; enabled defaults to true; unknown keys are tolerated', () => {
    const text = JSON.stringify({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'srv'], env: { K: 'v' }, extra: 1 },
        off: { command: 'x', enabled: false },
        web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t' } },
      },
      other: true,
    });
    expect(parseMcpConfig(text, F)).toEqual([
      { kind: 'stdio', name: 'fs', command: 'npx', args: ['-y', 'srv'], env: { K: 'v' }, enabled: true, sandbox: null },
      { kind: 'stdio', name: 'off', command: 'x', args: [], env: {}, enabled: false, sandbox: null },
      { kind: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t' }, enabled: true },
    ]);
  });

  it.each([
    { text: '', want: [] },
    { text: '{}', want: [] },
    { text: '{"mcpServers":{}}', want: [] },
  ])('no servers for $text', ({ text, want }) => {
    expect(parseMcpConfig(text, F)).toEqual(want);
  });

  it.each([
    { name: 'broken JSON names file and position', text: '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}', match: /mcp\.json: not valid JSON at line 3, column 26/ },
    { name: 'not an object', text: '[]', match: /expected a JSON object/ },
    { name: 'mcpServers not an object', text: '{"mcpServers": []}', match: /"mcpServers" must be an object/ },
    { name: 'neither command nor url', text: '{"mcpServers": {"a": {"args": []}}}', match: /server "a" has neither "command"/ },
    { name: 'both command and url', text: '{"mcpServers": {"a": {"command": "x", "url": "http://h/"}}}', match: /both "command" and "url"/ },
    { name: 'args not strings', text: '{"mcpServers": {"a": {"command": "x", "args": [1]}}}', match: /"args" must be an array of strings/ },
    { name: 'env not strings', text: '{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}', match: /"env" must be an object of strings/ },
    { name: 'bad url', text: '{"mcpServers": {"a": {"url": "ftp://h/"}}}', match: /"url" must be an http/ },
    { name: 'enabled not boolean', text: '{"mcpServers": {"a": {"command": "x", "enabled": "yes"}}}', match: /"enabled" must be true or false/ },
  ])('$name', ({ text, match }) => {
    let caught: unknown;
    try {
      parseMcpConfig(text, F);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FuseforksError);
    expect((caught as FuseforksError).code).toBe('CONFIG_PARSE');
    expect((caught as FuseforksError).message).toMatch(match);
    expect((caught as FuseforksError).message).toContain(F);
  });
});

describe('readMcpConfig on real files', () => {
  let dir = '';
  afterEach(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });
  it('missing file = no servers; a directory in the way is CONFIG_IO', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-mcpcfg-'));
    expect(await readMcpConfig(join(dir, 'mcp.json'))).toEqual([]);
    await mkdir(join(dir, 'isdir.json'));
    await expect(readMcpConfig(join(dir, 'isdir.json'))).rejects.toMatchObject({ code: 'CONFIG_IO' });
  });
  it('a broken file is an error and is left byte-identical', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-mcpcfg-'));
    const file = join(dir, 'mcp.json');
    await writeFile(file, '{"mcpServers": {');
    await expect(readMcpConfig(file)).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(file, 'utf8')).toBe('{"mcpServers": {');
  });
});

describe('mcpChildEnv', () => {
  const parent = { PATH: '/bin', HOME: '/h', LANG: 'C', TMPDIR: '/t', FUSEFORKS_SECRET_X: 's3cret', USER: 'u', OTHER: 'o' };
  it('is the allowlist plus the config env, never a village secret', () => {
    const env = mcpChildEnv({ K: 'v', PATH: '/custom' }, parent, 'linux', ['USER', 'SHELL']);
    expect(env).toEqual({ USER: undefined, SHELL: undefined, PATH: '/custom', HOME: '/h', LANG: 'C', TMPDIR: '/t', K: 'v' });
    expect(Object.values(env)).not.toContain('s3cret');
  });
  it('uses the Windows allowlist on win32', () => {
    const env = mcpChildEnv({}, { PATH: 'C:\\', SYSTEMROOT: 'C:\\Windows', PATHEXT: '.CMD', HOME: 'x' }, 'win32');
    expect(env).toEqual({ PATH: 'C:\\', SYSTEMROOT: 'C:\\Windows', PATHEXT: '.CMD' });
  });
});

describe('parseMcpConfig: "sandbox" (issue 27)', () => {
  const one = (sandbox: unknown) => parseMcpConfig(JSON.stringify({ mcpServers: { s: { command: 'x', sandbox } } }), 'mcp.json')[0];
  it.each([
    [true, { network: false, readOnly: [] }],
    [false, null],
    [{ network: true, readOnly: ['/opt/tools'] }, { network: true, readOnly: ['/opt/tools'] }],
  ])('%j → %j', (given, want) => {
    expect(one(given)).toMatchObject({ sandbox: want });
  });
  it.each([['yes'], [{ network: 'y' }], [{ readOnly: ['relative/x'] }]])('%j is CONFIG_PARSE naming the key', (given) => {
    expect(() => one(given)).toThrow(/sandbox/);
  });
});
