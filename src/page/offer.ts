import { fold } from '../base/fold.ts'
import { focusedElement } from './capabilities.ts'
import { attributeOf, closestTo, containsNode, nodeTypeOf, parentElementOf, textContentOf } from './dom-safe.ts'
import { composedParent } from './dom.ts'
import { controlRole, INTERACTIVE_ROLES, nameOf } from './names.ts'
import { pointerCursor } from './script-controls.ts'
import { collapse, shorten } from './text.ts'
import type { Seen } from './visibility.ts'

// Which of the visible candidates are offered: each control once, containers left out, and when
// there are more than the cap, the ones a person is most likely to need (distinct names, inside an
// open dialog or near the focus), not simply the first in document order.

/** How a candidate became one: by its tag or role, or by a script signal (`drop`: a drop listener alone). */
export type Signal = 'native' | 'listener' | 'focusable' | 'state' | 'pointer' | 'drop'

export interface Visible {
  /** The candidate the walk found (a hidden checkbox, for one offered through its label). */
  el: Element
  /** What is offered and hit-tested: `el`, or its label. */
  node: Element
  seen: Extract<Seen, { rect: DOMRect }>
  signal: Signal
}

export interface Offer {
  chosen: Visible[]
  /** Visible controls left out by the cap. */
  omitted: number
  /** The most common names among those left out, with their counts: what the model is not shown. */
  omittedNames: string[]
}

/** How many ancestors are climbed to find the control a candidate sits in. */
const MAX_HOPS = 40
/** Names of left-out controls reported, most common first. */
const OMITTED_NAMES = 5

function rankOf(item: Visible): number {
  if (item.signal !== 'native') return 1
  const role = attributeOf(item.el, 'role')?.trim().split(/\s+/)[0]
  return role && INTERACTIVE_ROLES.has(role) ? 3 : 2
}

/** `name` holds the whole of `part`, between word boundaries. */
function containsWords(name: string, part: string): boolean {
  if (!part) return false
  for (let at = name.indexOf(part); at !== -1; at = name.indexOf(part, at + 1)) {
    if (startsWith(name.slice(at), part) && (at === 0 || !/[\p{L}\p{N}]/u.test(name[at - 1]!))) return true
  }
  return false
}

/** `name` begins with the whole of `start`, up to a word boundary. */
function startsWith(name: string, start: string): boolean {
  return start.length > 0 && name.startsWith(start) && (name.length === start.length || !/[\p{L}\p{N}]/u.test(name[start.length]!))
}

/** The nearest visible candidate that holds `item` (in the composed tree). */
function holderOf(item: Visible, byNode: Map<Element, Visible>): Visible | undefined {
  let node = composedParent(item.node)
  for (let hops = 0; node && nodeTypeOf(node) === 1 && hops < MAX_HOPS; hops++, node = composedParent(node)) {
    const found = byNode.get(node as Element)
    if (found) return found
  }
  return undefined
}

/** One control is offered once; a container of controls is not offered as one. */
function distinct(items: Visible[], nameLimit: number): Visible[] {
  const byNode = new Map(items.map((item) => [item.node, item]))
  const names = new Map<Visible, string>()
  const nameFor = (item: Visible) => {
    let name = names.get(item)
    if (name === undefined) {
      name = fold(nameOf(item.el, controlRole(item.el), nameLimit))
      names.set(item, name)
    }
    return name
  }
  // Two names cut at the limit read the same when one text starts the other (a list's first long row
  // and the list): the same text only if their whole texts are.
  const wholeText = (item: Visible) => collapse(textContentOf(item.el) ?? '')
  const sameText = (a: Visible, b: Visible) => nameFor(a) === nameFor(b) && (!nameFor(a).endsWith('…') || wholeText(a) === wholeText(b))
  const dropped = new Set<Visible>()
  const held = new Map<Visible, Visible[]>()
  for (const item of items) {
    const holder = holderOf(item, byNode)
    if (!holder) continue
    const list = held.get(holder) ?? []
    list.push(item)
    held.set(holder, list)
    // A clickable row around a link of the same text, a tab around its link: one control, the one
    // whose role says most (an ARIA widget, then a native control); the outer one on a tie.
    if (!sameText(item, holder)) continue
    dropped.add(rankOf(item) > rankOf(holder) ? holder : item)
  }
  for (const [holder, inner] of held) {
    if (holder.signal === 'native' || dropped.has(holder)) continue
    // A card whose title is its one link (wherever its text puts it: after a labelled heart icon), a
    // section header around its button and a chevron: the control a person clicks is the one inside,
    // the rest of the text is only said beside it.
    const titled = inner.filter(
      (item) => !dropped.has(item) && rankOf(item) > rankOf(holder) && (startsWith(nameFor(holder), nameFor(item)) || (controlRole(item.el) === 'link' && containsWords(nameFor(holder), nameFor(item)))),
    )
    if (titled.length === 1) dropped.add(holder)
    // A listener, tabindex or state alone on an element that holds several controls marks where a
    // page listens for them (a delegated handler), not a control of its own.
    // A drop zone holds what is dropped on it (a board's column, its cards): it stays, to be dropped on.
    else if (inner.length >= 2 && holder.signal !== 'pointer' && holder.signal !== 'drop' && !pointerCursor(holder.node)) dropped.add(holder)
  }
  return items.filter((item) => !dropped.has(item))
}

/** The part of the page that has the person's attention: an open modal dialog, else the focused element's section. */
function focusOf(): Element | null {
  const modal = document.querySelector('dialog[open], [aria-modal="true"]')
  if (modal) return modal
  const active = focusedElement(document)
  if (!active || active === document.body || active === document.documentElement) return null
  return closestTo(active, 'form, section, article, [role="dialog"], [role="listbox"], [role="menu"], [role="tree"], [role="grid"], ul, ol, table') ?? parentElementOf(active)
}

/** Keeps at most `cap` controls: those near the focus, then each name's first occurrences; in document order. */
function rank(items: Visible[], cap: number, nameLimit: number): Offer {
  if (items.length <= cap) return { chosen: items, omitted: 0, omittedNames: [] }
  const focus = focusOf()
  const seenNames = new Map<string, number>()
  const keyed = items.map((item, order) => {
    const name = collapse(nameOf(item.el, controlRole(item.el), nameLimit))
    const repeat = seenNames.get(fold(name)) ?? 0
    seenNames.set(fold(name), repeat + 1)
    const near = focus && containsNode(focus, item.node) ? 0 : 1
    return { item, name, order, key: [near, repeat, order] }
  })
  const ordered = [...keyed].sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.order - b.order)
  const kept = new Set(ordered.slice(0, cap).map((entry) => entry.item))
  const counts = new Map<string, { name: string; count: number }>()
  for (const entry of ordered.slice(cap)) {
    const counted = counts.get(fold(entry.name)) ?? { name: entry.name, count: 0 }
    counted.count += 1
    counts.set(fold(entry.name), counted)
  }
  const omittedNames = [...counts.values()]
    .sort((a, b) => b.count - a.count)
    .slice(0, OMITTED_NAMES)
    .map(({ name, count }) => `${shorten(name, 40) || '(unnamed)'} ×${count}`)
  return { chosen: items.filter((item) => kept.has(item)), omitted: items.length - kept.size, omittedNames }
}

export function offer(items: Visible[], cap: number, nameLimit: number): Offer {
  return rank(distinct(items, nameLimit), cap, nameLimit)
}
