// What can be selected: a mesh, or one thin instance of a mesh; the selection is an insertion-ordered set of them.
import type { Mesh } from '../../../engine/index.js';

/** A mesh (`instance` -1) or one of its thin instances. */
export interface SelectionItem {
  mesh: Mesh;
  instance: number;
}

/** The selection: items by key, in the order they were added; `version` bumps on every change. */
export interface Selection {
  items: Map<string, SelectionItem>;
  version: number;
}

/** An empty selection. */
export function makeSelection(): Selection {
  return { items: new Map(), version: 0 };
}

/** Stable key of an item: mesh id and instance. */
export function itemKey(item: SelectionItem): string {
  return `${item.mesh.uniqueId}:${item.instance}`;
}

/** Display name: the mesh name, `#n` for thin instance n. */
export function itemName(item: SelectionItem): string {
  return item.instance >= 0 ? `${item.mesh.name}#${item.instance}` : item.mesh.name;
}

/** True when the two refer to the same mesh and instance. */
export function sameItem(a: SelectionItem | null, b: SelectionItem | null): boolean {
  return a === b || (!!a && !!b && a.mesh === b.mesh && a.instance === b.instance);
}

/** How a pick result changes the selection. */
export type SelectionOp = 'replace' | 'add' | 'toggle';

/** Applies `items` to the selection: replace it, add them, or toggle each in or out. */
export function applySelection(selection: Selection, items: readonly SelectionItem[], op: SelectionOp): void {
  if (op === 'replace') selection.items.clear();
  for (const item of items) {
    const key = itemKey(item);
    if (op === 'toggle' && selection.items.has(key)) selection.items.delete(key);
    else selection.items.set(key, { mesh: item.mesh, instance: item.instance });
  }
  selection.version++;
}

/** Empties the selection. */
export function clearSelection(selection: Selection): void {
  if (selection.items.size === 0) return;
  selection.items.clear();
  selection.version++;
}
