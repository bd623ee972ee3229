// DOM facts every page module asks: the composed-tree parent, trimmed attributes, an input's type,
// the options of an ARIA listbox.

/** Parent in the composed (rendered) tree: slot for slotted nodes, host for shadow roots. */
export function composedParent(node: Node): Node | null {
  const slot = (node as Element).assignedSlot
  if (slot) return slot
  const parent = node.parentNode
  if (parent && parent.nodeType === 11) return (parent as ShadowRoot).host ?? null
  return parent
}

export function attr(el: Element, name: string): string {
  return (el.getAttribute(name) ?? '').trim()
}

const HTML_NS = 'http://www.w3.org/1999/xhtml'

/**
 * The `hidden` attribute of an HTML element, or null. Read as an attribute: a form's field named
 * "hidden" shadows the property, and reading the property of a form looks through all its fields.
 */
export function hiddenAttribute(el: Element): string | null {
  return el.namespaceURI === HTML_NS ? el.getAttribute('hidden') : null
}

export function inputType(el: Element): string {
  return el.localName === 'input' ? ((el as HTMLInputElement).type || 'text').toLowerCase() : ''
}

/** The option elements of an ARIA listbox: its `role="option"` descendants, then those it owns by `aria-owns`. */
export function listOptions(listbox: Element): Element[] {
  const owned = attr(listbox, 'aria-owns')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => listbox.ownerDocument.getElementById(id))
    .filter((node): node is HTMLElement => node !== null)
  return [...Array.from(listbox.querySelectorAll('[role="option"]')), ...owned]
}
