/**
 * Closing a dialog that may hold unsaved edits: ask first (in-app confirm), close only on yes. One rule for every
 * editor dialog, used by × and Escape alike.
 */
import type { Ctx } from './ctx.js';

/** The dialog's close handler: `isDirty` says whether edits would be lost, `done` closes. */
export function guardedClose(ctx: Pick<Ctx, 't' | 'confirm'>, isDirty: () => boolean, done: () => void): () => Promise<void> {
  return async () => {
    if (isDirty() && !(await ctx.confirm(ctx.t('agentSettings.discardConfirm')))) return;
    done();
  };
}
