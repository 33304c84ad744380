/**
 * The causal tree of live envelopes: each ask/plan-task envelope is a child of the turn that asked.
 * Cutting a node cuts its whole subtree (reference core.md §2.9: child tokens), so an interrupt cascades
 * from a parent turn to every delegated turn below it, queued or in flight.
 */

interface Node {
  parent: string | null;
  children: Set<string>;
  cut: boolean;
}

/** Envelope ids and their parent links; ids are opaque strings. */
export class CausalTree {
  private readonly nodes = new Map<string, Node>();

  /** Registers an envelope; a child of an already cut parent is born cut. */
  add(id: string, parent: string | null): void {
    const parentNode = parent === null ? undefined : this.nodes.get(parent);
    this.nodes.set(id, { parent: parentNode === undefined ? null : parent, children: new Set(), cut: parentNode?.cut ?? false });
    parentNode?.children.add(id);
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  isCut(id: string): boolean {
    return this.nodes.get(id)?.cut ?? false;
  }

  /** Cuts `id` and its subtree; returns the ids newly cut (parent first). Unknown ids cut nothing. */
  cut(id: string): string[] {
    const out: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      const node = this.nodes.get(next);
      if (node === undefined) continue;
      if (!node.cut) {
        node.cut = true;
        out.push(next);
      }
      for (const child of node.children) stack.push(child);
    }
    return out;
  }

  /** Forgets a finished envelope; its live children stay (re-parented to nothing). */
  remove(id: string): void {
    const node = this.nodes.get(id);
    if (node === undefined) return;
    this.nodes.delete(id);
    if (node.parent !== null) this.nodes.get(node.parent)?.children.delete(id);
    for (const child of node.children) {
      const c = this.nodes.get(child);
      if (c !== undefined) c.parent = null;
    }
  }

  get size(): number {
    return this.nodes.size;
  }
}
