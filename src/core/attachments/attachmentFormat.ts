/**
 * What a file attached to a chat message is: its media type read from the magic bytes (never from the name),
 * its kind (image / audio / video / pdf, the columns of the providers' `carries` table) and the size cap per kind.
 * Pure and DOM-free: the host validates uploads with it and the LLM wires read the kind of what they encode.
 */
import type { AttachmentRef } from '../events.js';
import type { AttachmentKind, AttachmentMediaType, PromptAttachment } from '../llm/canonical.js';

/** A checked and stored attachment: the reference for the recorded message, the body for the one request. */
export interface PreparedAttachment {
  ref: AttachmentRef;
  prompt: PromptAttachment;
}

/** Largest accepted file per kind (bytes). Images are sent as they are (no re-encoding), hence 5 MiB. */
export const ATTACHMENT_MAX_BYTES: Readonly<Record<AttachmentKind, number>> = Object.freeze({
  image: 5 * 1024 * 1024,
  audio: 10 * 1024 * 1024,
  video: 12 * 1024 * 1024,
  pdf: 10 * 1024 * 1024,
});

/** Attachments one message may carry (as the original: one). */
export const ATTACHMENTS_PER_MESSAGE = 1;

const KIND: Readonly<Record<AttachmentMediaType, AttachmentKind>> = Object.freeze({
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'audio/mpeg': 'audio',
  'audio/wav': 'audio',
  'video/mp4': 'video',
  'application/pdf': 'pdf',
});

/** The file extension a stored attachment gets. */
export const EXTENSION: Readonly<Record<AttachmentMediaType, string>> = Object.freeze({
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
});

/** The kind of a media type. */
export function attachmentKind(mediaType: AttachmentMediaType): AttachmentKind {
  return KIND[mediaType];
}

/** True for a media type this build accepts. */
export function isAttachmentMediaType(value: unknown): value is AttachmentMediaType {
  return typeof value === 'string' && Object.hasOwn(KIND, value);
}

/** The short audio format name some wires want next to raw base64 (`mp3` / `wav`), else null. */
export function audioFormat(mediaType: AttachmentMediaType): 'mp3' | 'wav' | null {
  return mediaType === 'audio/mpeg' ? 'mp3' : mediaType === 'audio/wav' ? 'wav' : null;
}

const ascii = (bytes: Uint8Array, from: number, text: string): boolean =>
  bytes.length >= from + text.length && [...text].every((ch, i) => bytes[from + i] === ch.charCodeAt(0));

// ISO base media brands of plain MP4 video (the original's list); audio-only and QuickTime brands are not video/mp4.
const MP4_BRANDS = ['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'mmp4'];

/** The media type the bytes start with, or null when they are none of the accepted formats. */
export function detectMediaType(bytes: Uint8Array): AttachmentMediaType | null {
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'image/webp';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return 'audio/wav';
  if (ascii(bytes, 0, '%PDF-')) return 'application/pdf';
  if (ascii(bytes, 4, 'ftyp') && MP4_BRANDS.some((brand) => ascii(bytes, 8, brand))) return 'video/mp4';
  if (ascii(bytes, 0, 'ID3')) return 'audio/mpeg';
  // An MPEG audio frame sync (11 set bits) with a valid layer: bare MP3 without an ID3 tag.
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x06) !== 0) return 'audio/mpeg';
  return null;
}

/** `data:{mediaType};base64,{data}` (image_url / file_data / video_url of the OpenAI-shaped wires). */
export function dataUrl(attachment: { mediaType: AttachmentMediaType; data: string }): string {
  return `data:${attachment.mediaType};base64,${attachment.data}`;
}
