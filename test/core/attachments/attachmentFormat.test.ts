import { describe, expect, it } from 'vitest';
import { attachmentKind, detectMediaType } from '../../../src/core/attachments/attachmentFormat.js';
import type { AttachmentMediaType } from '../../../src/core/llm/canonical.js';
import { SAMPLES } from '../../support/attachmentSamples.js';

describe('attachment formats by magic bytes', () => {
  it.each(Object.keys(SAMPLES) as AttachmentMediaType[])('%s is recognised from its bytes, not its name', (mediaType) => {
    expect(detectMediaType(SAMPLES[mediaType].bytes)).toBe(mediaType);
  });

  it.each([
    ['plain text', Buffer.from('hello, not a file')],
    ['a GIF', Buffer.from('GIF89a....')],
    ['an MP4 with an audio-only brand', Buffer.from('\u0000\u0000\u0000\u0018ftypM4A ', 'latin1')],
    ['empty', Buffer.alloc(0)],
  ])('%s is none of them', (_name, bytes) => {
    expect(detectMediaType(bytes)).toBeNull();
  });

  it.each([
    ['image/png', 'image'],
    ['image/webp', 'image'],
    ['audio/wav', 'audio'],
    ['video/mp4', 'video'],
    ['application/pdf', 'pdf'],
  ] as const)('%s is a %s', (mediaType, kind) => expect(attachmentKind(mediaType)).toBe(kind));
});
