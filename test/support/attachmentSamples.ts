/** The smallest byte strings each accepted format is recognised by (magic bytes + a little body), as base64. */
import type { AttachmentMediaType } from '../../src/core/llm/canonical.js';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

/** One sample file per media type. */
export const SAMPLES: Record<AttachmentMediaType, { fileName: string; bytes: Buffer }> = {
  'image/png': { fileName: 'shot.png', bytes: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR-body') },
  'image/jpeg': { fileName: 'photo.jpg', bytes: bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF-body') },
  'image/webp': { fileName: 'pic.webp', bytes: bytes('RIFF', [0x10, 0, 0, 0], 'WEBPVP8 body') },
  'audio/mpeg': { fileName: 'voice.mp3', bytes: bytes('ID3', [4, 0, 0, 0, 0, 0, 0], 'frames') },
  'audio/wav': { fileName: 'voice.wav', bytes: bytes('RIFF', [0x10, 0, 0, 0], 'WAVEfmt body') },
  'video/mp4': { fileName: 'clip.mp4', bytes: bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0], 'isomiso2') },
  'application/pdf': { fileName: 'doc.pdf', bytes: bytes('%PDF-1.4\n%body\n') },
};

/** A sample as a PromptAttachment. */
export function sample(mediaType: AttachmentMediaType): { mediaType: AttachmentMediaType; data: string; fileName: string } {
  const s = SAMPLES[mediaType];
  return { mediaType, data: s.bytes.toString('base64'), fileName: s.fileName };
}
