/** Defaults of world.json values that several files share (zod-free: importable anywhere). */

/** Base URL of a new model template (the original's `ModelTemplate::new`). */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Seconds an external ask (door, `ask`) waits for its answer (SPEC §3.1). */
export const DEFAULT_ASK_TIMEOUT_SECS = 600;
/** Delegation depth limit, in hops (reference core.md §2.1). */
export const DEFAULT_MAX_HOPS = 8;
/** Token ceiling a new village gets, in effective tokens per causal root (reference core.md §1.3). */
export const FRESH_TOKEN_BUDGET = 1_000_000;
