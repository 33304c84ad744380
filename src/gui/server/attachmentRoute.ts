/**
 * `GET /api/attachments/{id}`: the stored body of a file a person sent in the chat, with its media type, so the
 * chat shows it again after a page reload (an image inline, any kind as a link). An <img> or a link sends only the
 * session cookie (no key header), so this route takes the cookie alone (or the launch token); its ids are random
 * UUIDs only a session's state names. A body that is gone is 404.
 */
import type { ServerResponse } from 'node:http';
import type { StoredAttachment } from '../../host/attachmentFiles.js';

/** The path prefix; the rest of the path is the attachment id. */
export const ATTACHMENT_ROUTE = '/api/attachments/';

/** Answers one attachment request (`read` = the village's reader; GET/HEAD only). */
export async function sendAttachment(
  res: ServerResponse,
  method: string,
  path: string,
  read: (id: string) => Promise<StoredAttachment | null>,
): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const stored = await read(path.slice(ATTACHMENT_ROUTE.length));
  if (stored === null) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'INVALID_REQUEST', message: `no stored attachment ${path.slice(ATTACHMENT_ROUTE.length)} (it may have been removed after 30 days)` }));
    return;
  }
  res.writeHead(200, {
    'content-type': stored.mediaType,
    'content-length': stored.body.length,
    'cache-control': 'private, max-age=3600',
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline',
  });
  res.end(method === 'HEAD' ? undefined : stored.body);
}
