import { describe, expect, it } from 'vitest';
import { protocolNote, type ProtocolGates } from '../../../src/core/turn/wording.js';

const gates = (patch: Partial<ProtocolGates>): ProtocolGates => ({ useHandoffTools: true, offerTransfer: true, awaitingReply: false, planOffered: true, ...patch });

describe('protocolNote: only the tools the agent is offered, in as few words as carry the rule', () => {
  it.each([
    [
      'one tie: no plan line (plan is not offered), transfer, reply to the person',
      'en', ['Clerk'], gates({ planOffered: false }),
      ['## How to work with others', 'Others here: Clerk.', '- ask_* asks one of them and waits for the answer.', '- transfer_to_* hands the conversation to that agent; once you transfer, your turn is over.', '- Your final reply goes to the person.'],
    ],
    [
      'two ties: plan named; an asker waiting',
      'en', ['Clerk', 'Driver'], gates({ offerTransfer: false, awaitingReply: true }),
      ['## How to work with others', 'Others here: Clerk, Driver.', '- ask_* asks one of them and waits for the answer; plan asks several at once and returns all answers together.', '- Someone is waiting for your answer to this request; your final reply goes straight back to them.'],
    ],
    [
      'ja, one tie',
      'ja', ['係'], gates({ planOffered: false, offerTransfer: false }),
      ['## やり取りの決まり', 'ここにいる仲間: 係。', '- ask_* で仲間に質問すると、答えが返るまで待ちます。', '- あなたの最終的な返答は人間に届きます。'],
    ],
    [
      'no handoff tools: the [[END]] rule instead',
      'en', ['Clerk'], gates({ useHandoffTools: false }),
      ['## How to work with others', 'Others here: Clerk. When your reply is for the person and you are done, end it with [[END]]. A reply without [[END]] is passed in full to Clerk.'],
    ],
  ] as const)('%s', (_name, language, names, g, lines) => {
    expect(protocolNote(language, [...names], g).split('\n')).toEqual(lines);
  });
});
