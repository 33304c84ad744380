import { describe, expect, it } from 'vitest';
import { languageFromLocale, normalizeUserName, normalizeWorld } from '../../../src/core/world/normalize.js';
import { worldFileSchema } from '../../../src/core/world/schema.js';

const a = (id: string, connectedAgents: string[] = []) => ({ id, name: id, modelTemplateId: 't', connectedAgents });

/** Parses `input` the way the store does and normalizes it (not fresh, English locale unless given). */
function run(input: Record<string, unknown>, options: { locale?: string; fresh?: boolean } = {}) {
  return normalizeWorld(worldFileSchema.parse(input), { locale: options.locale ?? 'en_US.UTF-8', fresh: options.fresh ?? false, raw: input });
}

describe('normalizeWorld', () => {
  it('a clean world is unchanged and has no notes', () => {
    const result = run({ agents: [a('x', ['y']), a('y')], language: 'en', tokenBudget: 5000 });
    expect(result.changed).toBe(false);
    expect(result.notes).toEqual([]);
    expect(result.world.agents[0]?.connectedAgents).toEqual(['y']);
  });

  it.each([
    ['tie to self dropped', { agents: [a('x', ['x', 'y']), a('y')], language: 'en' }, (w: W) => w.agents[0]?.connectedAgents, ['y'], /agent "x": dropped 1 tie/],
    ['tie to unknown dropped', { agents: [a('x', ['ghost']), a('y')], language: 'en' }, (w: W) => w.agents[0]?.connectedAgents, [], /"ghost"/],
    ['duplicate tie dropped', { agents: [a('x', ['y', 'y']), a('y')], language: 'en' }, (w: W) => w.agents[0]?.connectedAgents, ['y'], /twice/],
    ['position of unknown agent dropped', { agents: [a('x')], language: 'en', topologyPositions: { x: { x: 1, y: 2 }, gone: { x: 0, y: 0 } } }, (w: W) => w.topologyPositions, { x: { x: 1, y: 2 } }, /1 position/],
    ['tokenBudget 0 → null', { language: 'en', tokenBudget: 0 }, (w: W) => w.tokenBudget, null, /tokenBudget: 0/],
    ['userName trimmed', { language: 'en', userName: '  Kana ' }, (w: W) => w.userName, 'Kana', /userName: surrounding whitespace/],
    ['userName with 【】 dropped', { language: 'en', userName: '【Kana】' }, (w: W) => w.userName, null, /userName: dropped/],
    ['userName blank dropped', { language: 'en', userName: '   ' }, (w: W) => w.userName, null, /userName: dropped/],
    ['userName over 32 code points dropped', { language: 'en', userName: 'あ'.repeat(33) }, (w: W) => w.userName, null, /userName: dropped/],
    ['externalName with control char dropped', { language: 'en', externalName: 'bot\u0007' }, (w: W) => w.externalName, null, /externalName: dropped/],
    ['language undetermined → from locale', { agents: [] }, (w: W) => w.language, 'en', /language: undetermined, set to en/],
    ['unknown language → undetermined → locale', { language: 'fr' }, (w: W) => w.language, 'en', /unknown value "fr"/],
    ['duplicate agent id dropped', { agents: [a('x'), { ...a('x'), name: 'second' }], language: 'en' }, (w: W) => w.agents.map((g) => g.name), ['x'], /agent "x": a second entry/],
    ['legacy credential none noted', { language: 'en', modelTemplates: [{ id: 't', name: 'T', baseUrl: 'u', model: 'm', credential: 'none' }] }, (w: W) => w.modelTemplates[0]?.credential, 'unset', /legacy credential "none"/],
    ['unknown role color noted', { language: 'en', roles: [{ id: 'r', name: 'R', color: 'mauve' }] }, (w: W) => w.roles[0]?.color, null, /unknown color "mauve"/],
  ])('%s', (_name, input, pick, expected, note) => {
    const result = run(input);
    expect(pick(result.world)).toEqual(expected);
    expect(result.changed).toBe(true);
    expect(result.notes.join('\n')).toMatch(note);
  });

  it('an unsupported provider is noted but is no reason to rewrite (written back as read)', () => {
    const result = run({ language: 'en', modelTemplates: [{ id: 'g', name: 'G', baseUrl: 'u', model: 'm', provider: 'mistral_native' }] });
    expect(result.notes.join('\n')).toMatch(/provider "mistral_native" is not supported/);
    expect(result.changed).toBe(false);
  });

  it.each([
    ['ja_JP.UTF-8', 'ja'],
    ['ja', 'ja'],
    ['JA-jp', 'ja'],
    ['en-US', 'en'],
    ['C', 'en'],
    ['', 'en'],
    ['jv-ID', 'en'],
  ])('locale %j → %s', (locale, language) => {
    expect(languageFromLocale(locale)).toBe(language);
    expect(run({}, { locale }).world.language).toBe(language);
  });

  it('a fresh village gets tokenBudget 1,000,000; an existing file without one keeps no ceiling', () => {
    expect(run({}, { fresh: true }).world.tokenBudget).toBe(1_000_000);
    expect(run({ language: 'en' }).world.tokenBudget).toBeNull();
  });

  it('reception is not validated on load (the original keeps a deleted reception)', () => {
    expect(run({ language: 'en', reception: 'gone' }).world.reception).toBe('gone');
  });

  it('notes never echo a dropped name', () => {
    expect(run({ language: 'en', userName: '【secret-ish】' }).notes.join('\n')).not.toContain('secret-ish');
  });
});

describe('normalizeUserName', () => {
  it.each([
    ['Kana', 'Kana'],
    [' かな ', 'かな'],
    ['a'.repeat(32), 'a'.repeat(32)],
    ['😀'.repeat(32), '😀'.repeat(32)], // code points, not UTF-16 units
    ['a'.repeat(33), null],
    ['［x］', null],
    ['line\nbreak', null],
    ['', null],
  ])('%j → %j', (input, expected) => {
    expect(normalizeUserName(input)).toBe(expected);
  });
});

type W = ReturnType<typeof normalizeWorld>['world'];
