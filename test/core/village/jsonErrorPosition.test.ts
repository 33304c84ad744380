import { describe, expect, it } from 'vitest';
import { findJsonError, lineColumn } from '../../../src/core/village/jsonErrorPosition.js';

describe('findJsonError', () => {
  it.each([
    ['{"a": 1}', null],
    ['[1, -2.5e3, "x\\u00e9", true, false, null, {}]', null],
    [' \n"s" \n', null],
  ])('valid %j → null', (text, expected) => {
    expect(findJsonError(text)).toBe(expected);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it.each([
    ['truncated object', '{\n  "agents": [\n    {"id": "a"', 3, 15, /the file ends/],
    ['truncated string', '{"a": "abc', 1, 11, /closing double quote/],
    ['trailing comma', '{"a": 1,\n}', 2, 1, /property name/],
    ['single quotes', "{'a': 1}", 1, 2, /property name/],
    ['bare word', '{"a": yes}', 1, 7, /JSON value/],
    ['missing colon', '{"a" 1}', 1, 6, /":"/],
    ['array without comma', '[1 2]', 1, 4, /","/],
    ['text after value', '{} x', 1, 4, /after the end/],
    ['bad escape', '"\\q"', 1, 3, /escape/],
    ['raw control char', '"a\tb"', 1, 3, /control/],
    ['lone minus', '-', 1, 2, /digit/],
    ['CRLF lines', '{\r\n"a":\r\n}', 3, 1, /JSON value/],
    ['empty text', '', 1, 1, /the file ends/],
  ])('%s → line:column', (_name, text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    const found = findJsonError(text);
    expect(found).toMatchObject({ line, column });
    expect(found?.reason).toMatch(reason);
  });
});

describe('lineColumn', () => {
  it.each([
    ['abc', 0, 1, 1],
    ['a\nbc', 3, 2, 2],
    ['a\r\nb', 3, 2, 1],
    ['a\rb', 2, 2, 1],
  ])('%j @%i → %i:%i', (text, offset, line, column) => {
    expect(lineColumn(text, offset)).toEqual({ line, column });
  });
});
