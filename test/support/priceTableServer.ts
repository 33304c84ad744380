/**
 * A price table on loopback for pricing tests: answers GET with the table (or a set status / body), counts every
 * request, so a test can say "nothing was fetched" as a number.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers next. */
export interface PriceTableAnswer {
  status?: number;
  body?: string;
  /** Wait before answering (ms). */
  delayMs?: number;
}

/** A running table server. */
export interface PriceTableServer {
  url: string;
  /** Paths of the requests so far. */
  readonly requests: string[];
  answer(next: PriceTableAnswer): void;
  close(): Promise<void>;
}

/** The table the tests serve by default: m-A fully priced (with a 1 h write price), m-B half priced (dropped). */
export const SAMPLE_TABLE = {
  version: 1,
  fetched: '2026-08-18',
  models: [
    { key: 'm-A', input_per_mtok: 3, output_per_mtok: 15, cache_read_per_mtok: 0.3, cache_write_per_mtok: 3.75, cache_write_1h_per_mtok: 6 },
    { key: 'm-B', input_per_mtok: 2 },
    { key: 'not-in-this-village', input_per_mtok: 1, output_per_mtok: 5 },
  ],
};

export async function startPriceTableServer(): Promise<PriceTableServer> {
  let next: PriceTableAnswer = { body: JSON.stringify(SAMPLE_TABLE) };
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const { status = 200, body = '', delayMs = 0 } = next;
    setTimeout(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/prices.json`,
    requests,
    answer(a) {
      next = a;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
