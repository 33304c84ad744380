import { describe, expect, it } from 'vitest';
import { blankServer, formFromText, formProblems, textFromForm } from '../../../src/gui/client/lib/mcpForm.js';

const FILE = {
  comment: 'top-level key the form does not know',
  mcpServers: {
    files: { command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { TOKEN_NAME: 'x' }, enabled: true, timeoutHint: 30 },
    web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer y' }, enabled: false },
  },
};

describe('mcp.json as a form', () => {
  it('reads stdio and HTTP servers and writes them back with unknown keys kept', () => {
    const read = formFromText(JSON.stringify(FILE));
    if (!read.ok) throw new Error(read.error);
    const [files, web] = read.form.servers;
    expect(files).toMatchObject({ name: 'files', kind: 'stdio', command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: [{ name: 'TOKEN_NAME', value: 'x' }], extra: { timeoutHint: 30 } });
    expect(web).toMatchObject({ name: 'web', kind: 'http', enabled: false, url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'Bearer y' }] });
    expect(JSON.parse(textFromForm(read.form))).toEqual(FILE);
  });

  it('an edited form is the file a person would have written', () => {
    const read = formFromText('');
    if (!read.ok) throw new Error(read.error);
    read.form.servers.push({ ...blankServer('stdio', 'echo'), command: 'node', args: ['srv.js', ''] });
    expect(JSON.parse(textFromForm(read.form))).toEqual({ mcpServers: { echo: { command: 'node', args: ['srv.js'], enabled: true } } });
  });

  it.each([
    ['not json', '{'],
    ['not an object', '[]'],
    ['bad mcpServers', '{"mcpServers": []}'],
  ])('refuses %s (the raw editor stays available)', (_why, text) => {
    expect(formFromText(text).ok).toBe(false);
  });

  it('names what keeps the form from being saved', () => {
    const form = { servers: [blankServer('stdio', ''), { ...blankServer('http', 'a'), url: 'ftp://x' }, { ...blankServer('stdio', 'a'), command: 'x' }], extra: {} };
    expect(formProblems(form)).toEqual([
      'server #1: name is empty',
      'server #1: command is empty',
      'server "a": url must start with http:// or https://',
      'server "a": the name is used twice',
    ]);
  });
});
