/**
 * Reads a stored attachment body back, so the GUI chat can show what a person sent — also after a page reload,
 * when only the message's reference is left. The body lives at `workspace/attachments/{id}.{ext}`; the id must be
 * a uuid (nothing else ever names a file there). A body the collector removed (attachmentGc.ts) is simply absent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXTENSION } from '../core/attachments/attachmentFormat.js';
import type { AttachmentMediaType } from '../core/llm/canonical.js';
import { fileAccessFailed } from '../core/errors/configErrors.js';
import { ATTACHMENT_DIR } from './attachmentUploads.js';

/** A stored body and its media type (from the extension it was stored under). */
export interface StoredAttachment {
  mediaType: AttachmentMediaType;
  body: Buffer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The body stored for attachment `id`, or null when there is none (unknown, removed, or not a uuid). */
export async function readStoredAttachment(workspaceDir: string, id: string): Promise<StoredAttachment | null> {
  if (!UUID.test(id)) return null;
  for (const [mediaType, ext] of Object.entries(EXTENSION) as Array<[AttachmentMediaType, string]>) {
    const file = join(workspaceDir, ATTACHMENT_DIR, `${id}.${ext}`);
    try {
      return { mediaType, body: await readFile(file) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw fileAccessFailed(file, 'read', code ?? 'error', error);
    }
  }
  return null;
}
