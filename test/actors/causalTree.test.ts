import { describe, expect, it } from 'vitest';
import { CausalTree } from '../../src/actors/causalTree.js';

describe('CausalTree', () => {
  it('cuts a node and its whole subtree, not its siblings or parent', () => {
    const t = new CausalTree();
    t.add('root', null);
    t.add('a', 'root');
    t.add('b', 'root');
    t.add('a1', 'a');
    expect(t.cut('a').sort()).toEqual(['a', 'a1']);
    expect([t.isCut('root'), t.isCut('b'), t.isCut('a1')]).toEqual([false, false, true]);
    expect(t.cut('a')).toEqual([]);
  });

  it('a child added under a cut parent is born cut; an unknown parent makes a root', () => {
    const t = new CausalTree();
    t.add('p', null);
    t.cut('p');
    t.add('c', 'p');
    t.add('orphan', 'gone');
    expect([t.isCut('c'), t.isCut('orphan')]).toEqual([true, false]);
  });

  it('removing a finished node detaches it from the cascade', () => {
    const t = new CausalTree();
    t.add('p', null);
    t.add('c', 'p');
    t.remove('c');
    expect(t.cut('p')).toEqual(['p']);
    expect(t.size).toBe(1);
  });
});
