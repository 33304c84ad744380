/** Reads the frozen session-record corpus (test/fixtures/sessions). Read-only by design. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/sessions');

export function readFixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, name), 'utf8')) as unknown;
}

export const V1_FIXTURES = ['message.v1.json', 'exchange.v1.json', 'summary.v1.json', 'turn.v1.json'] as const;

/** v2 added the `call` and `toolResult` kinds and the 1-hour cache write on turns. */
export const V2_FIXTURES = ['turn.v2.json', 'call.v2.json', 'toolResult.v2.json'] as const;
