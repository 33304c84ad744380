/**
 * The cap on what `ask` prints on stdout (issue 19): a reply of hundreds of megabytes must not land whole on a
 * terminal or in a cron mail. Up to the cap the answer is printed as is; past it, stdout gets the head cut at a
 * character boundary and a stderr note says how long the answer was and that the whole of it is in the session.
 */

/** Most bytes of an answer printed on stdout (UTF-8). */
export const ASK_STDOUT_MAX_BYTES = 1024 * 1024;

/** The printable head of `answer` (never splitting a character) and the answer's full size in bytes. */
export function capAnswer(answer: string, maxBytes: number = ASK_STDOUT_MAX_BYTES): { text: string; bytes: number; cut: boolean } {
  const bytes = Buffer.byteLength(answer, 'utf8');
  if (bytes <= maxBytes) return { text: answer, bytes, cut: false };
  // Never copy the whole answer: the first maxBytes UTF-16 units already hold at least maxBytes bytes.
  const head = Buffer.from(answer.slice(0, maxBytes), 'utf8').subarray(0, maxBytes);
  // A cut inside a multi-byte character leaves a partial sequence at the end: decode, then drop the replacement.
  const text = head.toString('utf8').replace(/\uFFFD+$/, '');
  return { text, bytes, cut: true };
}
