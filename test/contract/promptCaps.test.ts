/** data_contract.yaml `prompt_caps` and the code agree (issue 28): the numbers a user reads are the ones enforced. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  BYTES_PER_TOKEN,
  MAX_LISTED_TIES,
  MAX_TOOLS_PER_AGENT,
  MIN_SYSTEM_PROMPT_CAP_BYTES,
  PROMPT_FILE_CAP_BYTES,
  SYSTEM_PROMPT_CONTEXT_SHARE,
} from '../../src/core/turn/promptCaps.js';

const ledger = parse(readFileSync(new URL('../../data_contract.yaml', import.meta.url), 'utf8')) as {
  prompt_caps: { prompt_file_bytes: number; max_tools: number; listed_ties: number; system_prompt_bytes: string };
};

describe('data_contract.yaml prompt_caps', () => {
  it('names the caps the turn engine applies', () => {
    expect(ledger.prompt_caps.prompt_file_bytes).toBe(PROMPT_FILE_CAP_BYTES);
    expect(ledger.prompt_caps.max_tools).toBe(MAX_TOOLS_PER_AGENT);
    expect(ledger.prompt_caps.listed_ties).toBe(MAX_LISTED_TIES);
    expect(ledger.prompt_caps.system_prompt_bytes).toContain(
      `max(${MIN_SYSTEM_PROMPT_CAP_BYTES}, floor(contextLength * ${BYTES_PER_TOKEN} * ${SYSTEM_PROMPT_CONTEXT_SHARE}))`,
    );
  });
});
