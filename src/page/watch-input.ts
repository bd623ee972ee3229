import { focusedElement } from './capabilities.ts'
import { attributeOf, containsNode, idOf, localNameOf, nodeTypeOf, ownerDocumentOf, parentNodeOf, textContentOf } from './dom-safe.ts'
import { pressesThrough } from './labels.ts'
import { collapse } from './text.ts'

// The watch on a click's or key's events in the target's document (see the executor's guarded input).

/** What an input watch saw: the event types that arrived, and the first that reached another element. */
export interface WatchReport {
  seen: string[]
  redirected: { type: string; to: string } | null
  /**
   * Keyboard focus was in the target as an event of the input reached it, or came to it during the
   * input, before any event went elsewhere: where it went afterwards is the page's doing.
   */
  focused: boolean
  /** A short name of what holds keyboard focus as the report is read. */
  holder: string
}

export interface InputWatch {
  /** Whether `node` is the target, inside it (through open shadow roots) or a label of it, and its name for messages. */
  judge(node: Node | null): { onTarget: boolean; name: string }
  report(): WatchReport
  dispose(): void
}

/**
 * Watches, from the capture phase at the window, the first trusted event of each of `types` in the
 * target's document. One that reaches anything but the target is stopped before the page's own handlers
 * on the way to it run, and recorded. Trusted focus events are only noted: whether keyboard focus
 * reached the target. Runs in the isolated world, so the page cannot remove or fake it.
 * With `exact`, only the target itself counts, not what it holds: a key meant for the page's body
 * must not reach a button inside it.
 */
export function watchInput(target: Element, types: string[], exact = false): InputWatch {
  const doc = ownerDocumentOf(target)
  const view = doc.defaultView
  if (!view) throw new Error('The target has no window to watch.')
  const seen = new Set<string>()
  let redirected: WatchReport['redirected'] = null
  let focused = false
  const onTarget = (node: Node | null): boolean => {
    if (exact) return node === target || node === doc || node === doc.documentElement
    for (let current: Node | null = node; current; ) {
      if (current === target || pressesThrough(current, target)) return true
      const parent: Node | null = parentNodeOf(current)
      current = parent && nodeTypeOf(parent) === 11 ? ((parent as ShadowRoot).host ?? null) : parent
    }
    return false
  }
  const name = (node: Node | null): string => {
    if (!node || nodeTypeOf(node) !== 1) return node ? node.nodeName.toLowerCase() : 'nothing'
    const el = node as Element
    const text = collapse(textContentOf(el) ?? '').slice(0, 40)
    const id = attributeOf(el, 'id')
    return `<${localNameOf(el)}${id ? `#${id.slice(0, 30)}` : ''}>${text ? ` "${text}"` : ''}`
  }
  const holdsFocus = (): boolean => {
    const active = focusedElement(doc)
    return active !== null && (active === target || containsNode(target, active))
  }
  const listener = (event: Event) => {
    // Only the browser's own input counts; the page can dispatch untrusted copies at will.
    if (!event.isTrusted || seen.has(event.type)) return
    seen.add(event.type)
    const node = startOf(event)
    if (onTarget(node)) {
      // A click into the field that already holds focus moves none: it is there all the same.
      focused ||= redirected === null && holdsFocus()
      return
    }
    event.preventDefault()
    event.stopImmediatePropagation()
    redirected ??= { type: event.type, to: name(node) }
  }
  // Counted once an event of the input reached the target, and all before it did. Focus the page
  // gives with focus() is trusted too: it is the target's all the same.
  const onFocus = (event: Event) => {
    if (event.isTrusted && seen.size > 0 && redirected === null && onTarget(startOf(event))) focused = true
  }
  for (const type of types) view.addEventListener(type, listener, { capture: true })
  view.addEventListener('focus', onFocus, { capture: true })
  return {
    judge: (node) => ({ onTarget: onTarget(node), name: name(node) }),
    report: () => ({ seen: [...seen], redirected, focused, holder: holderName(focusedElement(doc)) }),
    dispose: () => {
      for (const type of types) view.removeEventListener(type, listener, { capture: true })
      view.removeEventListener('focus', onFocus, { capture: true })
    },
  }
}

/** The node an event was dispatched to, inside open shadow roots; null for the window. */
function startOf(event: Event): Node | null {
  const path = event.composedPath()
  return path.length > 0 && 'nodeType' in (path[0] as object) ? (path[0] as Node) : null
}

/** A short name of the element holding focus: its tag and its ID, name or label. */
function holderName(active: Element | null): string {
  if (!active) return 'nothing'
  const label = idOf(active) || attributeOf(active, 'name') || attributeOf(active, 'aria-label') || ''
  return `<${localNameOf(active)}${label ? ` "${label.slice(0, 40)}"` : ''}>`
}
