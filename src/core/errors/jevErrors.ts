/**
 * Jev, the helper model (the judge and tool-result compression): its settings form and the judge.json / jev.json
 * files (INVALID_REQUEST, AGENT_NOT_FOUND, CONFIG_PARSE). A file that cannot be used is left as it is.
 */
import { errorFactory } from './errorFactory.js';

/** A Jev setting of the wrong shape (`what` = what it must be). */
export const jevSettingInvalid = errorFactory('INVALID_REQUEST', (field: string, what: string) => ({
  message: `The Jev setting "${field}" must be ${what}.`,
  fix: `Correct "${field}" on the Jev page and save again.`,
  details: { field },
}));

/** A judge switched on with no judge agent named. */
export const judgeAgentMissing = errorFactory('INVALID_REQUEST', (agentId: string) => ({
  message: `A judge for ${agentId} needs a judge agent ("to" in judge.json).`,
  fix: 'Pick the servant who is the judge, then switch it on.',
  details: { field: 'to' },
}));

/** The Jev page names a servant (judged or judge) that is not in world.json. */
export const jevServantNotFound = errorFactory('AGENT_NOT_FOUND', (id: string) => ({
  message: `Servant "${id}" is not in world.json.`,
  fix: 'Reload the page and pick an existing servant.',
}));

/** A Jev file that cannot be used: the shelf's jev.json (`settings`) or an agent's judge.json (`judge`). */
export const jevFileUnusable = errorFactory('CONFIG_PARSE', (file: string, problem: string, which: 'settings' | 'judge') => ({
  message: `${file} cannot be used (${problem}); it was left as it is.`,
  fix:
    which === 'settings'
      ? `Fix or remove ${file}, then save the Jev settings again.`
      : `Fix or remove ${file} (a JSON object such as {"enabled": true, "instructions": "…"}), then switch the judge again.`,
  details: { file, reason: problem },
}));
