import { assignedSlotOf, attributeOf, HTML_NS, localNameOf, namespaceOf, nodeTypeOf, ownerDocumentOf, parentNodeOf, queryAll } from './dom-safe.ts'

// DOM facts every page module asks: the composed-tree parent, trimmed attributes, an input's type,
// the options of an ARIA listbox. Read through dom-safe.ts: any of these elements may be a form.

/** Parent in the composed (rendered) tree: slot for slotted nodes, host for shadow roots. */
export function composedParent(node: Node): Node | null {
  const type = nodeTypeOf(node)
  const slot = type === 1 ? assignedSlotOf(node as Element) : type === 3 ? (node as Text).assignedSlot : null
  if (slot) return slot
  const parent = parentNodeOf(node)
  if (parent && nodeTypeOf(parent) === 11) return (parent as ShadowRoot).host ?? null
  return parent
}

export function attr(el: Element, name: string): string {
  return (attributeOf(el, name) ?? '').trim()
}

/**
 * The `hidden` attribute of an HTML element, or null. Read as an attribute: a form's field named
 * "hidden" shadows the property, and reading the property of a form looks through all its fields.
 */
export function hiddenAttribute(el: Element): string | null {
  return namespaceOf(el) === HTML_NS ? attributeOf(el, 'hidden') : null
}

export function inputType(el: Element): string {
  return localNameOf(el) === 'input' ? ((el as HTMLInputElement).type || 'text').toLowerCase() : ''
}

/** The option elements of an ARIA listbox: its `role="option"` descendants, then those it owns by `aria-owns`. */
export function listOptions(listbox: Element): Element[] {
  const owned = attr(listbox, 'aria-owns')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => ownerDocumentOf(listbox).getElementById(id))
    .filter((node): node is HTMLElement => node !== null)
  return [...Array.from(queryAll(listbox, '[role="option"]')), ...owned]
}
