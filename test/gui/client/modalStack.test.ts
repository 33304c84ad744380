import { describe, expect, it } from 'vitest';
import { createModalStack } from '../../../src/gui/client/lib/modalStack.js';
import { plainCopy } from '../../../src/gui/client/lib/plain.js';
import { reactive } from 'vue';

describe('modal stack (Escape closes the innermost dialog)', () => {
  it('closes the last opened first and ignores Escape with nothing open', () => {
    const closed: string[] = [];
    const stack = createModalStack();
    expect(stack.escape()).toBe(false);
    const outer = stack.push(() => closed.push('outer'));
    const confirm = stack.push(() => closed.push('confirm'));
    expect(stack.escape()).toBe(true);
    expect(closed).toEqual(['confirm']);
    expect(stack.size).toBe(2); // the dialog removes itself when it actually unmounts
    stack.remove(confirm);
    stack.escape();
    expect(closed).toEqual(['confirm', 'outer']);
    stack.remove(outer);
    expect(stack.size).toBe(0);
  });
});

describe('plainCopy (drafts of reactive store objects)', () => {
  it('copies a reactive object that structuredClone refuses', () => {
    const spec = reactive({ id: 'a', ragSources: ['x'], enabledTools: null as string[] | null, nested: { deep: [1, 2] } });
    expect(() => structuredClone(spec)).toThrow();
    const copy = plainCopy(spec);
    expect(copy).toEqual({ id: 'a', ragSources: ['x'], enabledTools: null, nested: { deep: [1, 2] } });
    copy.ragSources.push('y');
    expect(spec.ragSources).toEqual(['x']);
  });
});
