/**
 * Attachments per wire, as the `carries` table says: what a wire can carry goes out in that wire's own part
 * shape (image before the text), what it cannot is refused with ATTACHMENT_NOT_CARRIED before any request.
 */
import { describe, expect, it } from 'vitest';
import type { AttachmentKind, AttachmentMediaType } from '../../../src/core/llm/canonical.js';
import { createBackend } from '../../../src/core/llm/factory.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import type { Provider } from '../../../src/core/world/types.js';
import { reply, useSharedStubLlm } from '../../support/stubLlm.js';
import { sample } from '../../support/attachmentSamples.js';
import { request, template } from './fixtures.js';

const stub = useSharedStubLlm();

const KIND_SAMPLE: Record<AttachmentKind, AttachmentMediaType> = { image: 'image/png', audio: 'audio/wav', video: 'video/mp4', pdf: 'application/pdf' };

/** [image, audio, video, pdf] — the original's measured table. */
const TABLE: Array<[Exclude<Provider, 'echo'>, [boolean, boolean, boolean, boolean]]> = [
  ['open_ai_compat', [true, true, false, true]],
  ['anthropic', [true, false, false, true]],
  ['gemini', [true, true, true, true]],
  ['xai_responses', [true, false, false, true]],
  ['open_ai_responses', [true, false, false, true]],
  ['meta_responses', [true, true, true, true]],
];

/** The part a wire sends for a sample of each kind (a fragment the body must contain). */
function expectedPart(provider: Exclude<Provider, 'echo'>, kind: AttachmentKind): unknown {
  const a = sample(KIND_SAMPLE[kind]);
  const url = `data:${a.mediaType};base64,${a.data}`;
  switch (provider) {
    case 'open_ai_compat':
      return kind === 'image' ? { type: 'image_url', image_url: { url } } : kind === 'audio' ? { type: 'input_audio', input_audio: { data: a.data, format: 'wav' } } : { type: 'file', file: { filename: a.fileName, file_data: url } };
    case 'anthropic':
      return { type: kind === 'image' ? 'image' : 'document', source: { type: 'base64', media_type: a.mediaType, data: a.data } };
    case 'gemini':
      return { inlineData: { mimeType: a.mediaType, data: a.data } };
    default:
      return kind === 'image'
        ? { type: 'input_image', image_url: url }
        : kind === 'pdf'
          ? { type: 'input_file', filename: a.fileName, file_data: url }
          : kind === 'audio'
            ? { type: 'input_audio', input_audio: { data: a.data, format: 'wav' } }
            : { type: 'input_video', video_url: url };
  }
}

const CELLS = TABLE.flatMap(([provider, row]) => (['image', 'audio', 'video', 'pdf'] as const).map((kind, i) => ({ provider, kind, carried: row[i] })));

describe.each(CELLS)('$provider × $kind (carried: $carried)', ({ provider, kind, carried }) => {
  it(carried ? 'goes out in the wire\'s own part, before the text' : 'is refused before any request', async () => {
    stub.enqueue(reply.text('seen'));
    const backend = createBackend(template(stub.baseUrl, { provider, stream: false }), new MemorySecretStore()).backend;
    const attachment = sample(KIND_SAMPLE[kind]);
    const req = request({ messages: [{ role: 'system', content: 'S' }, { role: 'user', content: 'what is this?', attachments: [attachment] }] });
    if (!carried) {
      const err = await backend.chat(req).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'ATTACHMENT_NOT_CARRIED', details: { kind, fileName: attachment.fileName } });
      expect((err as { fix: string }).fix.length).toBeGreaterThan(10);
      expect(stub.count).toBe(0);
      return;
    }
    await expect(backend.chat(req)).resolves.toMatchObject({ text: 'seen' });
    const body = JSON.stringify(stub.requests[0]!.body);
    const part = JSON.stringify(expectedPart(provider, kind));
    expect(body).toContain(part);
    expect(body.indexOf(part)).toBeLessThan(body.indexOf('what is this?'));
  });
});
