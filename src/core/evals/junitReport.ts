/**
 * An eval run as JUnit XML (pure), the format CI systems read: one `<testsuite>` for the run, one `<testcase>` per
 * eval case (classname `fuseforks.evals`), a `<failure>` naming the pass rate and every failed verdict of every
 * repeat, a `<skipped>` for a case that was not fully run, and each repeat's answer in `<system-out>`.
 */
import type { CaseResult, RunSummary } from './caseResult.js';

/** Escapes text for XML character data and attribute values; drops characters XML 1.0 cannot carry. */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const secs = (ms: number): string => (ms / 1000).toFixed(3);

function failureText(c: CaseResult): string {
  const lines = [`pass rate ${c.passed}/${c.repeat} below minPassRate ${c.minPassRate}`];
  for (const r of c.repeats) {
    for (const v of r.verdicts.filter((x) => !x.pass)) lines.push(`repeat ${r.repeat}: ${v.expectation}: ${v.reason}`);
  }
  return lines.join('\n');
}

function testcase(c: CaseResult): string {
  const time = secs(c.repeats.reduce((n, r) => n + r.durationMs, 0));
  const head = `    <testcase classname="fuseforks.evals" name="${xmlEscape(c.id)}" file="${xmlEscape(c.file)}" time="${time}">`;
  const body: string[] = [];
  if (c.status === 'failed') body.push(`      <failure message="${xmlEscape(`${c.passed}/${c.repeat} repeats passed (minPassRate ${c.minPassRate})`)}" type="eval">${xmlEscape(failureText(c))}</failure>`);
  if (c.status === 'skipped') body.push(`      <skipped message="${xmlEscape(c.skipped ?? 'not run')}"/>`);
  const out = c.repeats.map((r) => `repeat ${r.repeat} (${r.pass ? 'pass' : 'fail'}, ${r.outcome}):\n${r.answer}`).join('\n\n');
  if (out !== '') body.push(`      <system-out>${xmlEscape(out)}</system-out>`);
  return [head, ...body, '    </testcase>'].join('\n');
}

/** The whole document. `timestamp` is an ISO time without zone suffix handling (JUnit takes it as written). */
export function junitXml(cases: readonly CaseResult[], summary: RunSummary, timestamp: string): string {
  const attrs = `name="fuseforks evals" tests="${summary.cases}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}" time="${secs(summary.durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs}>`,
    `  <testsuite ${attrs} timestamp="${xmlEscape(timestamp.replace(/Z$/, ''))}">`,
    ...cases.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
