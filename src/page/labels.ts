import { closestTo, idOf, localNameOf, nodeTypeOf, rootNodeOf } from './dom-safe.ts'
import { callCache } from './layout.ts'

// The labels of a control, as `el.labels` gives them but read from one query per document or shadow
// root and call: `el.labels` walks the whole tree for each control, which on a shop with thousands of
// filter checkboxes made one observation take most of a second.

const labelsByFor = callCache<Node, Map<string, HTMLLabelElement[]>>()

/** Its enclosing label and those naming its id, in document order, as `el.labels`. */
export function labelsOf(el: Element): HTMLLabelElement[] {
  const found: HTMLLabelElement[] = []
  const enclosing = closestTo(el, 'label') as HTMLLabelElement | null
  if (enclosing && enclosing.control === el) found.push(enclosing)
  const id = idOf(el)
  if (!id) return found
  const root = rootNodeOf(el) as Document | ShadowRoot
  let byFor = labelsByFor.get(root)
  if (!byFor) {
    byFor = new Map()
    for (const label of Array.from(root.querySelectorAll<HTMLLabelElement>('label[for]'))) {
      const list = byFor.get(label.htmlFor) ?? []
      list.push(label)
      byFor.set(label.htmlFor, list)
    }
    labelsByFor.set(root, byFor)
  }
  for (const label of byFor.get(id) ?? []) if (label !== enclosing && label.control === el) found.push(label)
  // 4: DOCUMENT_POSITION_FOLLOWING, read as "b comes after a".
  if (enclosing && found.length > 1) found.sort((a, b) => (a === b ? 0 : a.compareDocumentPosition(b) & 4 ? -1 : 1))
  return found
}

/**
 * A press on `node` is a press on `target`: `node` is a label of it, or, for a label, its control (a
 * skin's menu lays its transparent checkbox over the label: a click there toggles it all the same).
 */
export function pressesThrough(node: Node, target: Element): boolean {
  if (nodeTypeOf(node) !== 1) return false
  if (localNameOf(node as Element) === 'label' && (node as HTMLLabelElement).control === target) return true
  return localNameOf(target) === 'label' && (target as HTMLLabelElement).control === node
}
