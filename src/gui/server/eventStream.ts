/**
 * The one event stream: Server-Sent Events carrying each CoreEvent as its wire JSON, unchanged, one `data:`
 * line per event. A comment line every 15 s keeps proxies and the browser from timing the stream out.
 */
import type { ServerResponse } from 'node:http';
import type { CoreEvent } from '../../core/events.js';

/** Keep-alive period of an open stream (ms). */
export const SSE_KEEPALIVE_MS = 15_000;

/** Open SSE responses; `close()` ends them all (server shutdown). */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();

  /** Turns `res` into an event stream fed by `subscribe`; cleans up when the client goes away. */
  attach(res: ServerResponse, subscribe: (listener: (event: CoreEvent) => void) => () => void): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    res.write(': connected\n\n');
    const unsubscribe = subscribe((event) => {
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const timer = setInterval(() => res.write(': keep-alive\n\n'), SSE_KEEPALIVE_MS);
    timer.unref();
    this.open.add(res);
    res.on('close', () => {
      clearInterval(timer);
      unsubscribe();
      this.open.delete(res);
    });
  }

  /** Ends every open stream. */
  close(): void {
    for (const res of this.open) res.end();
    this.open.clear();
  }
}
