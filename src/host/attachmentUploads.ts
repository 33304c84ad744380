/**
 * A person's file on its way into a chat message: checked (one per message, base64, not empty, a size cap per
 * kind, PNG/JPEG/WebP/MP3/WAV/MP4/PDF by magic bytes, a kind the receiving agent's wire can carry), then stored
 * under `workspace/attachments/{uuid}.{ext}` and handed on twice: a reference for the recorded message, the body
 * for the one request that carries it. Everything is refused before anything is recorded or sent.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_MESSAGE,
  attachmentKind,
  detectMediaType,
  EXTENSION,
  type PreparedAttachment,
} from '../core/attachments/attachmentFormat.js';
import { attachmentNotCarriedError, invalidAttachmentError } from '../core/attachments/attachmentErrors.js';
import type { BackendName, PromptAttachment } from '../core/llm/canonical.js';
import { carriedKinds, carries } from '../core/llm/carries.js';
import { effectiveProvider } from '../core/llm/factory.js';
import { backendNameOf } from '../core/llm/carries.js';
import { writeFileAtomic } from '../core/village/atomicWrite.js';
import type { World } from '../core/world/types.js';
import { PRIVATE_DIR_MODE } from '../core/privateFiles.js';

/** A file as a face hands it over: the name the person gave it and the bytes in standard base64. */
export interface AttachmentUpload {
  fileName: string;
  data: string;
}

export type { PreparedAttachment };

/** Folder of stored attachment bodies under the workspace. */
export const ATTACHMENT_DIR = 'attachments';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function cleanName(raw: unknown): string {
  const name = typeof raw === 'string' ? basename(raw.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '').trim() : '';
  return name === '' ? 'attachment' : name.slice(0, 200);
}

function mib(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/**
 * The wire an agent's model template speaks; null when the agent or its template is unknown or its provider is
 * one this build cannot speak (the delivery fails for its own reason then, naming the real problem).
 */
export function wireOfAgent(world: World, agentId: string): BackendName | null {
  const agent = world.agents.find((a) => a.id === agentId);
  const template = world.modelTemplates.find((t) => t.id === agent?.modelTemplateId);
  if (template === undefined || template.unsupportedProvider !== undefined) return null;
  return backendNameOf(effectiveProvider(template));
}

/** Checks uploads against the receiving agent's wire (no write). */
export function checkUploads(uploads: readonly AttachmentUpload[], wire: BackendName | null): Array<{ fileName: string; bytes: Buffer; prompt: PromptAttachment }> {
  if (uploads.length > ATTACHMENTS_PER_MESSAGE) {
    throw invalidAttachmentError(cleanName(uploads[1]?.fileName), `a message carries at most ${ATTACHMENTS_PER_MESSAGE} file`, 'Send the files one message at a time.');
  }
  return uploads.map((upload) => {
    const fileName = cleanName(upload.fileName);
    const data = typeof upload.data === 'string' ? upload.data.replace(/\s+/g, '') : '';
    if (data === '' || data.length % 4 !== 0 || !BASE64.test(data)) {
      throw invalidAttachmentError(fileName, 'the file is empty or its body is not base64', 'Attach the file again.');
    }
    const bytes = Buffer.from(data, 'base64');
    const mediaType = detectMediaType(bytes);
    if (mediaType === null) {
      throw invalidAttachmentError(fileName, 'it is not a PNG, JPEG or WebP image, MP3 or WAV audio, MP4 video or PDF', 'Convert it to one of these formats, or paste its text instead.');
    }
    const kind = attachmentKind(mediaType);
    const cap = ATTACHMENT_MAX_BYTES[kind];
    if (bytes.length > cap) throw invalidAttachmentError(fileName, `it is ${mib(bytes.length)}; a ${kind} may be at most ${mib(cap)}`, 'Send a smaller file.');
    if (wire !== null && !carries(wire, kind)) throw attachmentNotCarriedError(fileName, kind, wire, carriedKinds(wire));
    return { fileName, bytes, prompt: { mediaType, data, fileName } };
  });
}

/** Checks, then stores each upload under `{workspace}/attachments/`; returns what the message and the request need. */
export async function prepareAttachments(workspaceDir: string, uploads: readonly AttachmentUpload[], wire: BackendName | null): Promise<PreparedAttachment[]> {
  const checked = checkUploads(uploads, wire);
  if (checked.length === 0) return [];
  const dir = join(workspaceDir, ATTACHMENT_DIR);
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const out: PreparedAttachment[] = [];
  for (const c of checked) {
    const id = randomUUID();
    await writeFileAtomic(join(dir, `${id}.${EXTENSION[c.prompt.mediaType]}`), c.bytes);
    out.push({ ref: { id, mediaType: c.prompt.mediaType, fileName: c.fileName, bytes: c.bytes.length }, prompt: c.prompt });
  }
  return out;
}
