/**
 * `ask` while another process (a `serve`, the GUI) holds the village: when that process has its MCP door open, the
 * request goes through the door — the same external mailbox, the same outcome — instead of failing with exit 4.
 * The door's tool result carries the outcome in `_meta` (state, tokens, cost), so the exit code is the one a
 * direct ask would give. The MCP SDK is loaded only on this path.
 */
import type { PlanTaskState } from '../../core/events.js';
import { DOOR_ERROR_META, DOOR_OUTCOME_META, DOOR_TOOL_NAME } from '../../host/door/openDoor.js';
import { EXIT } from '../exitCodes.js';
import { doorAddress } from '../manage/throughDoor.js';
import type { CliOutput } from '../output.js';
import { deliveredReport, outcomeNote, undeliveredReport, type AskReport } from './askReport.js';

/** What the door path needs from `ask`'s arguments. */
export interface DoorAsk {
  dataDir: string;
  text: string;
  client: string;
  /** Give up after this long (seconds): the door is told to cut the request, the ask exits 7. */
  timeoutSecs?: number;
  /** Aborted at the first Ctrl+C: the door cuts the request, the ask exits 8. */
  signal: AbortSignal;
}

/** The MCP client's own limit when `--timeout` is absent (the village's askTimeoutSecs bounds the request anyway). */
const NO_CLIENT_LIMIT_MS = 24 * 3600 * 1000;

/** The report of an ask sent through the holder's door, or null when the door is off, has no token or does not answer. */
export async function askThroughDoor(request: DoorAsk, output: CliOutput): Promise<AskReport | null> {
  const address = await doorAddress(request.dataDir);
  if (address === null) return null;
  const { port, token } = address;
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client = new Client({ name: request.client, version: '1' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
  } catch {
    return null; // enabled in the file, but not listening (a GUI without the door, a busy port)
  }
  // warn, not info: ask's default stderr keeps only what bears on the outcome, and this says where the answer came from.
  output.note({
    level: 'warn',
    code: 'VIA_DOOR',
    message: `This village is open in another process; asking through its MCP door at 127.0.0.1:${port} instead.`,
  });
  const giveUp = new AbortController();
  const onSignal = (): void => giveUp.abort('interrupted');
  request.signal.addEventListener('abort', onSignal, { once: true });
  const timer = request.timeoutSecs === undefined ? undefined : setTimeout(() => giveUp.abort('timed_out'), request.timeoutSecs * 1000);
  try {
    const result = await client.callTool({ name: DOOR_TOOL_NAME, arguments: { message: request.text } }, undefined, {
      signal: giveUp.signal,
      timeout: NO_CLIENT_LIMIT_MS,
    });
    return reportOf(result, output);
  } catch (error) {
    if (giveUp.signal.aborted) return givenUp(giveUp.signal.reason === 'timed_out' ? 'timed_out' : 'interrupted', output);
    output.note({ level: 'error', code: 'MCP_FAILED', message: `The door at 127.0.0.1:${port} failed: ${error instanceof Error ? error.message : String(error)}.`, fix: 'See the serving process\'s log (workspace/fuseforks.log).' });
    return undeliveredReport(EXIT.coreError);
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', onSignal);
    await client.close().catch(() => undefined);
  }
}

interface DoorResult {
  isError?: boolean;
  content?: unknown;
  _meta?: Record<string, unknown>;
}

/** The tool result as an ask report: an outcome (same exit code as a direct ask) or a refusal before delivery. */
function reportOf(result: DoorResult, output: CliOutput): AskReport {
  const text = Array.isArray(result.content) ? result.content.map((c: { text?: string }) => c.text ?? '').join('') : '';
  if (result.isError === true) {
    const e = (result._meta?.[DOOR_ERROR_META] ?? {}) as { code?: string; message?: string; fix?: string | null };
    output.note({ level: 'error', code: e.code ?? 'MCP_FAILED', message: e.message ?? text, ...(e.fix ? { fix: e.fix } : {}) });
    return undeliveredReport(EXIT.coreError);
  }
  const meta = (result._meta?.[DOOR_OUTCOME_META] ?? {}) as { state?: PlanTaskState; tokens?: AskReport['tokens']; cost?: number | null };
  const outcome = { answer: text, state: meta.state ?? 'answered', tokens: meta.tokens ?? null, cost: { usd: meta.cost ?? null } };
  const notice = outcomeNote(outcome);
  if (notice !== null) output.note(notice);
  return deliveredReport(outcome, null);
}

/** This side gave up (Ctrl+C or --timeout): the door was told to cut the request. */
function givenUp(state: 'timed_out' | 'interrupted', output: CliOutput): AskReport {
  const outcome = { answer: state === 'timed_out' ? '(No answer: the wait timed out.)' : '(Interrupted.)', state, tokens: null, cost: { usd: null } };
  const notice = outcomeNote(outcome);
  if (notice !== null) output.note(notice);
  return deliveredReport(outcome, null);
}
