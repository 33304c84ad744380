/**
 * What the OS keyring answers about one key, store by store, and whether those answers disagree (a pure decision:
 * `check` names a keyring whose answers disagree). On Linux the keyring library picks the Secret Service when one
 * answers on the session bus and silently falls back to the kernel keyring otherwise, so two processes of one user
 * (a desktop terminal and cron, or ssh) can read two different stores; a Secret Service that is still starting can
 * answer "missing" once and the key the next time.
 */

/** Which store answered: the one the library picks for this process, or one store asked by name (Linux). */
export type KeyringStoreName = 'keyring' | 'secret-service' | 'kernel-keyring';

/**
 * One read of one key. `unavailable` = that store cannot be asked here (no bus, not Linux): not an answer.
 * `value` (stored only) is a digest of the value, never the value: two stores holding different keys disagree too.
 */
export interface KeyringAnswer {
  store: KeyringStoreName;
  state: 'stored' | 'missing' | 'error' | 'unavailable';
  value?: string;
}

/**
 * True when the answers disagree in a way that changes what a process gets: the library's pick answers differently
 * from one read to the next, two stores hold different values, or the pick says missing while another store holds
 * the key. A key in the Secret Service and not in the kernel keyring is the normal state, not a disagreement; errors
 * and unreachable stores say nothing either way.
 */
export function answersDisagree(answers: readonly KeyringAnswer[]): boolean {
  const real = answers.filter((a) => a.state === 'stored' || a.state === 'missing');
  const picks = new Set(real.filter((a) => a.store === 'keyring').map((a) => (a.state === 'stored' ? `stored:${a.value ?? ''}` : 'missing')));
  const values = new Set(real.filter((a) => a.state === 'stored').map((a) => a.value ?? ''));
  return picks.size > 1 || values.size > 1 || (picks.has('missing') && values.size > 0);
}
