import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkUploads, prepareAttachments } from '../../src/host/attachmentUploads.js';
import { SAMPLES } from '../support/attachmentSamples.js';

const up = (mediaType: keyof typeof SAMPLES, name?: string) => ({ fileName: name ?? SAMPLES[mediaType].fileName, data: SAMPLES[mediaType].bytes.toString('base64') });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('attachment uploads', () => {
  it('accepts a file by its bytes and keeps only the base name the person gave it', () => {
    const [checked] = checkUploads([up('application/pdf', '../../etc/report.pdf')], 'anthropic');
    expect(checked!.prompt).toMatchObject({ mediaType: 'application/pdf', fileName: 'report.pdf' });
  });

  it.each([
    ['two files', [up('image/png'), up('image/png')], 'INVALID_ATTACHMENT', 'at most 1'],
    ['a body that is not base64', [{ fileName: 'x.png', data: 'not base64!!' }], 'INVALID_ATTACHMENT', 'not base64'],
    ['an unknown format', [{ fileName: 'notes.txt', data: Buffer.from('plain text here').toString('base64') }], 'INVALID_ATTACHMENT', 'PDF'],
    ['a video on a wire without video', [up('video/mp4')], 'ATTACHMENT_NOT_CARRIED', 'anthropic'],
  ] as const)('refuses %s before anything is stored', (_what, uploads, code, says) => {
    let caught: unknown;
    try {
      checkUploads(uploads, 'anthropic');
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code });
    expect((caught as Error).message).toContain(says);
    expect((caught as { fix: string }).fix.length).toBeGreaterThan(10);
  });

  it('refuses a file over its kind\'s cap, naming the size', () => {
    const big = Buffer.concat([SAMPLES['image/png'].bytes, Buffer.alloc(5 * 1024 * 1024)]);
    expect(() => checkUploads([{ fileName: 'huge.png', data: big.toString('base64') }], 'gemini')).toThrow(/5 MiB/);
  });

  it('stores the body under workspace/attachments/{uuid}.{ext} and returns the reference and the prompt part', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'ff-att-'));
    dirs.push(ws);
    const [prepared] = await prepareAttachments(ws, [up('image/webp')], 'gemini');
    expect(prepared!.ref).toMatchObject({ mediaType: 'image/webp', fileName: 'pic.webp', bytes: SAMPLES['image/webp'].bytes.length });
    const files = readdirSync(join(ws, 'attachments'));
    expect(files).toEqual([`${prepared!.ref.id}.webp`]);
    expect(readFileSync(join(ws, 'attachments', files[0]!))).toEqual(SAMPLES['image/webp'].bytes);
  });
});
