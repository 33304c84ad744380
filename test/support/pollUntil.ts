/**
 * Waits for an outcome, not for a time: polls `check` every `everyMs` until it holds, for up to `limitMs` (30 s by
 * default: a busy two-core machine running the whole suite is slow, never wrong). Returns whether it held, so the
 * caller asserts the outcome with its own message. A check that throws counts as not yet. Never a timing assertion.
 */
export async function pollUntil(check: () => boolean | Promise<boolean>, { everyMs = 20, limitMs = 30_000 }: { everyMs?: number; limitMs?: number } = {}): Promise<boolean> {
  const attempt = async (): Promise<boolean> => {
    try {
      return await check();
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await attempt()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
