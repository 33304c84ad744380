/**
 * Where `secrets set` gets the value: standard input when it is a pipe or a file (everything, one trailing line
 * break dropped), or — at a terminal — a prompt on stderr that does not echo what is typed. Never the command line:
 * argv stays in shell history and in every process listing (`ps`, /proc/<pid>/cmdline).
 */

/** The stream shape the reader needs (`process.stdin`, or a test's own). */
export interface SecretInputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Reads all of a piped stdin; the value without one trailing `\n` / `\r\n`. */
export async function readPipedValue(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * Asks at a terminal without echo: raw mode, characters collected until Enter; Backspace removes one; Ctrl+C or
 * Ctrl+D on an empty line gives null (nothing is stored). The prompt and the final line break go to `prompt`'s
 * stream (stderr), so stdout stays clean.
 */
export function promptHidden(stream: SecretInputStream, prompt: (text: string) => void, question: string): Promise<string | null> {
  // Raw mode first: a keystroke that arrives right after the question must not be echoed by the terminal.
  stream.setRawMode?.(true);
  prompt(question);
  return new Promise((resolve) => {
    let value = '';
    const finish = (result: string | null): void => {
      stream.removeListener('data', onData);
      stream.setRawMode?.(false);
      stream.pause();
      prompt('\n');
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const ch of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish(value);
        if (ch === '\u0003' || (ch === '\u0004' && value === '')) return finish(null);
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stream.on('data', onData);
    stream.resume();
  });
}

/** The value from stdin or the hidden prompt; null when the person cancelled at the prompt. */
export async function readSecretValue(stream: SecretInputStream, prompt: (text: string) => void, question: string): Promise<string | null> {
  return stream.isTTY === true ? promptHidden(stream, prompt, question) : readPipedValue(stream);
}
