import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locate, parseKeyPath, settable, showKeyPath } from '../../../src/core/tools/keyPath.js';
import { detectJsonFormat } from '../../../src/core/tools/yqEditors.js';
import { yqTool } from '../../../src/core/tools/yq.js';
import { bodyOf, hashTree, makeSandbox, okOf, toolCtx, type Sandbox } from './fixtures.js';

const FIXTURES = new URL('../../fixtures/tools/', import.meta.url).pathname;

describe('key paths', () => {
  const ok: Array<[string, Array<string | number>]> = [
    ['a', ['a']],
    ['a.b[0].c', ['a', 'b', 0, 'c']],
    ['servers[12]', ['servers', 12]],
    ['a["x.y"].z', ['a', 'x.y', 'z']],
    ['"x.y".z', ['x.y', 'z']],
  ];
  it.each(ok)('%s', (key, steps) => {
    expect(parseKeyPath(key)).toEqual(steps);
    expect(parseKeyPath(showKeyPath(steps))).toEqual(steps);
  });
  it.each(['', 'a..b', 'a.', '.a', 'a[x]', 'a[0', 'a[0]b'])('refuses %j', (key) => {
    expect('error' in (parseKeyPath(key) as object)).toBe(true);
  });
  it('locates and decides where set may write', () => {
    const doc = { a: { list: [1, 2] } };
    expect(locate(doc, ['a', 'list', 1])).toEqual({ kind: 'found', value: 2 });
    expect(locate(doc, ['a', 'list', 'x'])).toEqual({ kind: 'mismatch', depth: 2, expected: 'table' });
    expect(settable(doc, ['a', 'list', 2]).kind).toBe('found');
    expect(settable(doc, ['a', 'list', 3]).kind).toBe('missing');
    expect(settable(doc, ['a', 'new', 'deeper']).kind).toBe('found');
    expect(settable(doc, ['a', 'new', 0]).kind).toBe('missing');
  });
  it('reads the indentation a JSON file uses', () => {
    expect(detectJsonFormat('{\n    "a": {\n        "b": 1\n    }\n}\n')).toEqual({ insertSpaces: true, tabSize: 4, eol: '\n' });
    expect(detectJsonFormat('{\r\n\t"a": 1\r\n}')).toEqual({ insertSpaces: false, tabSize: 1, eol: '\r\n' });
  });
});

describe('the yq tool', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
    copyFileSync(join(FIXTURES, 'village.toml'), join(box.root, 'village.toml'));
    copyFileSync(join(FIXTURES, 'settings.json'), join(box.root, 'settings.json'));
  });
  afterEach(() => box.cleanup());

  it('gets values from TOML and JSON', async () => {
    expect(bodyOf(await yqTool.call({ path: 'village.toml', op: 'get', key: 'agents[0].name' }, toolCtx(box)))).toBe('agents[0].name = "luna"');
    expect(bodyOf(await yqTool.call({ path: 'settings.json', op: 'get', key: 'limits.tools' }, toolCtx(box)))).toBe('limits.tools = [\n  "grep",\n  "file"\n]');
  });

  it('set keeps a commented CRLF TOML file byte for byte apart from the value', async () => {
    const before = hashTree(box.base);
    const preview = bodyOf(await yqTool.call({ path: 'village.toml', op: 'set', key: 'agents[1].rounds', value: 6 }, toolCtx(box)));
    expect(preview).toMatch(/^Preview \(not applied\)/);
    expect(hashTree(box.base)).toBe(before);
    await yqTool.call({ path: 'village.toml', op: 'set', key: 'agents[1].rounds', value: 6, apply: true }, toolCtx(box));
    expect(readFileSync(join(box.root, 'village.toml'))).toEqual(readFileSync(join(FIXTURES, 'village.expected.toml')));
  });

  it('set keeps a JSON file\'s comment and 4-space indentation', async () => {
    await yqTool.call({ path: 'settings.json', op: 'set', key: 'limits.rounds', value: 20, apply: true }, toolCtx(box));
    expect(readFileSync(join(box.root, 'settings.json'))).toEqual(readFileSync(join(FIXTURES, 'settings.expected.json')));
  });

  it('adds and removes keys in the file\'s own style', async () => {
    await yqTool.call({ path: 'settings.json', op: 'set', key: 'limits.depth', value: 3, apply: true }, toolCtx(box));
    await yqTool.call({ path: 'settings.json', op: 'set', key: 'limits.extra', value: { x: [1] }, apply: true }, toolCtx(box));
    const json = readFileSync(join(box.root, 'settings.json'), 'utf8');
    expect(json).toContain('        "depth": 3,\n');
    expect(json).toContain('        "extra": {\n            "x": [\n                1\n            ]\n        }\n');
    await yqTool.call({ path: 'village.toml', op: 'remove', key: 'server.hosts', apply: true }, toolCtx(box));
    const toml = readFileSync(join(box.root, 'village.toml'), 'utf8');
    expect(toml).not.toContain('hosts');
    expect(toml).toContain('# the port the door listens on\r\nport = 8080\r\n');
  });

  it('refuses what it cannot do, and changes nothing', async () => {
    writeFileSync(join(box.root, 'broken.json'), '{"a": 1,,}');
    const before = hashTree(box.base);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ path: 'a.txt', op: 'get', key: 'a' }, /only \.json and \.toml/],
      [{ path: 'broken.json', op: 'get', key: 'a' }, /not valid json: .* at line:column 1:/],
      [{ path: 'settings.json', op: 'get', key: 'nope.x' }, /has no nope/],
      [{ path: 'settings.json', op: 'set', key: 'limits.tools[5]', value: 'x', apply: true }, /has no limits\.tools\[5\]/],
      [{ path: 'village.toml', op: 'set', key: 'title', value: null, apply: true }, /no null/],
      [{ path: 'new.json', op: 'set', key: 'a', value: 1, apply: true }, /not found/],
      [{ path: 'settings.json', op: 'set', key: 'a', apply: true }, /needs a `value`/],
    ];
    for (const [args, expected] of cases) {
      const reply = await yqTool.call(args, toolCtx(box));
      expect(okOf(reply), JSON.stringify(args)).toBe(false);
      expect(bodyOf(reply)).toMatch(expected);
    }
    expect(hashTree(box.base)).toBe(before);
  });
});
