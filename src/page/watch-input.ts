import { attributeOf, localNameOf, nodeTypeOf, ownerDocumentOf, parentNodeOf, textContentOf } from './dom-safe.ts'
import { collapse } from './text.ts'

// The watch on a click's or key's events in the target's document (see the executor's guarded input).

/** What an input watch saw: the event types that arrived, and the first that reached another element. */
export interface WatchReport {
  seen: string[]
  redirected: { type: string; to: string } | null
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
 * on the way to it run, and recorded. Runs in the isolated world, so the page cannot remove or fake it.
 * With `exact`, only the target itself counts, not what it holds: a key meant for the page's body
 * must not reach a button inside it.
 */
export function watchInput(target: Element, types: string[], exact = false): InputWatch {
  const doc = ownerDocumentOf(target)
  const view = doc.defaultView
  if (!view) throw new Error('The target has no window to watch.')
  const seen = new Set<string>()
  let redirected: WatchReport['redirected'] = null
  const onTarget = (node: Node | null): boolean => {
    if (exact) return node === target || node === doc || node === doc.documentElement
    for (let current: Node | null = node; current; ) {
      if (current === target) return true
      if (nodeTypeOf(current) === 1 && localNameOf(current as Element) === 'label' && (current as HTMLLabelElement).control === target) return true
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
  const listener = (event: Event) => {
    // Only the browser's own input counts; the page can dispatch untrusted copies at will.
    if (!event.isTrusted || seen.has(event.type)) return
    seen.add(event.type)
    const path = event.composedPath()
    const node = path.length > 0 && 'nodeType' in (path[0] as object) ? (path[0] as Node) : null
    if (onTarget(node)) return
    event.preventDefault()
    event.stopImmediatePropagation()
    redirected ??= { type: event.type, to: name(node) }
  }
  for (const type of types) view.addEventListener(type, listener, { capture: true })
  return {
    judge: (node) => ({ onTarget: onTarget(node), name: name(node) }),
    report: () => ({ seen: [...seen], redirected }),
    dispose: () => {
      for (const type of types) view.removeEventListener(type, listener, { capture: true })
    },
  }
}
