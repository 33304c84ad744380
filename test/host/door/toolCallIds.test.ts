import { describe, expect, it } from 'vitest';
import { toolCallIds } from '../../../src/host/door/openDoor.js';

describe('toolCallIds: the tool calls a POST body carries (watched for a caller that goes away)', () => {
  const call = (id: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
  it.each([
    ['one call, numeric id', call(2), [2]],
    ['one call, string id', call('a'), ['a']],
    ['a batch keeps only the calls', [call(1), { jsonrpc: '2.0', id: 5, method: 'tools/list' }, call('x')], [1, 'x']],
    ['a notification (no id) is not a call', { jsonrpc: '2.0', method: 'tools/call' }, []],
    ['an initialize is not a call', { jsonrpc: '2.0', id: 1, method: 'initialize' }, []],
    ['an id that is neither string nor number', call({ nested: 1 }), []],
    ['not an object', 'tools/call', []],
    ['null', null, []],
  ])('%s', (_name, body, ids) => {
    expect(toolCallIds(body)).toEqual(ids);
  });
});
