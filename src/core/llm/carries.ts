/**
 * Which attachment kinds each wire can put into a request (the original's `carries` table, measured against
 * the providers), and the guard every HTTP backend runs before sending: an attachment its wire cannot carry is
 * refused with ATTACHMENT_NOT_CARRIED, never silently dropped. The host runs the same check before recording.
 */
import { attachmentKind } from '../attachments/attachmentFormat.js';
import { attachmentNotCarriedError } from '../attachments/attachmentErrors.js';
import type { Provider } from '../world/types.js';
import type { AttachmentKind, BackendName, ChatRequest } from './canonical.js';

const KINDS: readonly AttachmentKind[] = ['image', 'audio', 'video', 'pdf'];

/** [image, audio, video, pdf] per wire. Echo answers offline and carries nothing. */
const TABLE: Readonly<Record<BackendName, readonly [boolean, boolean, boolean, boolean]>> = Object.freeze({
  'openai-compat': [true, true, false, true],
  anthropic: [true, false, false, true],
  gemini: [true, true, true, true],
  'xai-responses': [true, false, false, true],
  'openai-responses': [true, false, false, true],
  'meta-responses': [true, true, true, true],
  echo: [false, false, false, false],
});

const BACKEND_OF: Readonly<Record<Provider, BackendName>> = Object.freeze({
  open_ai_compat: 'openai-compat',
  anthropic: 'anthropic',
  gemini: 'gemini',
  xai_responses: 'xai-responses',
  open_ai_responses: 'openai-responses',
  meta_responses: 'meta-responses',
  echo: 'echo',
});

/** The backend name (log `backend=` field) of a provider. */
export function backendNameOf(provider: Provider): BackendName {
  return BACKEND_OF[provider];
}

/** The kinds a wire carries, in table order. */
export function carriedKinds(wire: BackendName): AttachmentKind[] {
  return KINDS.filter((_, i) => TABLE[wire][i]);
}

/** True when `wire` can carry `kind`. */
export function carries(wire: BackendName, kind: AttachmentKind): boolean {
  return TABLE[wire][KINDS.indexOf(kind)] === true;
}

/** Throws ATTACHMENT_NOT_CARRIED for the first attachment of `request` that `wire` cannot carry. */
export function refuseUncarried(request: ChatRequest, wire: BackendName): void {
  for (const message of request.messages) {
    for (const a of message.attachments ?? []) {
      const kind = attachmentKind(a.mediaType);
      if (!carries(wire, kind)) throw attachmentNotCarriedError(a.fileName, kind, wire, carriedKinds(wire));
    }
  }
}
