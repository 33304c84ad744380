/**
 * The two attachment error codes, one factory each: a file that is not an accepted attachment (INVALID_ATTACHMENT)
 * and a file the agent's model wire cannot carry (ATTACHMENT_NOT_CARRIED). Both are refused before anything is
 * recorded or sent, and both name the file and what to do.
 */
import { errorFactory } from '../errors/errorFactory.js';
import type { AttachmentKind } from '../llm/canonical.js';

/** The file is not a PNG/JPEG/WebP image, MP3/WAV audio, MP4 video or PDF, is empty, or is too large. */
export const invalidAttachmentError = errorFactory('INVALID_ATTACHMENT', (fileName: string, reason: string, fix: string) => ({
  message: `The attachment "${fileName}" cannot be sent: ${reason}.`,
  fix,
  details: { fileName },
}));

/** The model wire of the receiving agent has no way to send this kind (the `carries` table). */
export const attachmentNotCarriedError = errorFactory(
  'ATTACHMENT_NOT_CARRIED',
  (fileName: string, kind: AttachmentKind, wire: string, carried: readonly AttachmentKind[]) => ({
    message: `The ${wire} wire cannot carry ${kind} attachments ("${fileName}"); it carries ${carried.length === 0 ? 'no attachments at all' : carried.join(', ')}.`,
    fix:
      kind === 'video' || kind === 'audio'
        ? `Send it to an agent whose model template uses gemini or meta_responses${kind === 'audio' ? ' (or open_ai_compat)' : ''}, or send the message without it.`
        : 'Send it to an agent whose model template uses another provider, or send the message without it.',
    details: { fileName, kind, wire },
  }),
);
