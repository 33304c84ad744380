/**
 * Finds where a JSON text stops being valid, as line:column. `JSON.parse` messages differ between Node versions
 * and omit the position for a truncated file, so a small scanner re-reads the text after a failed parse.
 * Pure; only ever called on text that `JSON.parse` rejected.
 */

/** Position of the first JSON syntax error; line and column are 1-based, column in UTF-16 code units. */
export interface JsonErrorPosition {
  offset: number;
  line: number;
  column: number;
  reason: string;
}

class JsonSyntax extends Error {
  constructor(readonly offset: number, reason: string) {
    super(reason);
  }
}

/** Returns the first syntax error in `text`, or null when `text` is valid JSON. */
export function findJsonError(text: string): JsonErrorPosition | null {
  const scanner = new Scanner(text);
  try {
    scanner.skipSpace();
    scanner.value();
    scanner.skipSpace();
    if (scanner.pos < text.length) throw new JsonSyntax(scanner.pos, 'unexpected text after the end of the JSON value');
    return null;
  } catch (error) {
    if (!(error instanceof JsonSyntax)) throw error;
    return { offset: error.offset, ...lineColumn(text, error.offset), reason: error.message };
  }
}

/** 1-based line and column of a character offset (LF, CRLF and CR all end a line). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  skipSpace(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos] ?? '')) this.pos += 1;
  }

  private fail(reason: string): never {
    const found = this.pos >= this.text.length ? 'the file ends' : `found ${JSON.stringify(this.text[this.pos])}`;
    throw new JsonSyntax(this.pos, `${reason}, but ${found}`);
  }

  value(): void {
    const ch = this.text[this.pos];
    if (ch === '{') return this.object();
    if (ch === '[') return this.array();
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    this.fail('expected a JSON value');
  }

  private object(): void {
    this.pos += 1;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos += 1;
      return;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail('expected a property name in double quotes');
      this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail('expected ":" after the property name');
      this.pos += 1;
      this.skipSpace();
      this.value();
      this.skipSpace();
      if (this.text[this.pos] === '}') {
        this.pos += 1;
        return;
      }
      if (this.text[this.pos] !== ',') this.fail('expected "," or "}" in the object');
      this.pos += 1;
      this.skipSpace();
    }
  }

  private array(): void {
    this.pos += 1;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.value();
      this.skipSpace();
      if (this.text[this.pos] === ']') {
        this.pos += 1;
        return;
      }
      if (this.text[this.pos] !== ',') this.fail('expected "," or "]" in the array');
      this.pos += 1;
      this.skipSpace();
    }
  }

  private string(): void {
    this.pos += 1;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail('expected a closing double quote');
      if (ch === '"') {
        this.pos += 1;
        return;
      }
      if (ch < ' ') this.fail('expected a string character (control characters must be escaped)');
      if (ch === '\\') {
        const esc = this.text[this.pos + 1];
        if (esc === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
            this.pos += 2;
            this.fail('expected four hex digits after \\u');
          }
          this.pos += 6;
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) {
          this.pos += 1;
          this.fail('expected a valid escape after "\\"');
        }
        this.pos += 2;
        continue;
      }
      this.pos += 1;
    }
  }

  private number(): void {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (match === null || match[0] === '-') {
      if (this.text[this.pos] === '-') this.pos += 1;
      this.fail('expected a digit');
    }
    this.pos += match[0].length;
  }
}
