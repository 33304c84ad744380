/**
 * For the CLI's `ask` and `serve`: spawn the agent workers of a start set before the host is built, so their
 * bootstraps overlap with opening the village (src/actors/workerPrewarm.ts). The supervisor adopts them.
 */
export { discardPrewarmed, prewarmAgentWorkers } from '../actors/workerPrewarm.js';
