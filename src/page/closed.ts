import { SKIP_TAGS } from './text.ts'

// The subtrees no walk of ours enters: what they hold is never offered, read as text or taken for a
// heading, whichever code looks for it.

/** An element whose subtree the walk does not enter (a script, a select's options, `hidden`). */
export function closed(el: Element): boolean {
  return SKIP_TAGS.has(el.localName) || (el as HTMLElement).hidden === true
}

/** A strict ancestor keeps the walk out of `el` (its subtree is skipped). */
export function insideClosed(el: Element): boolean {
  for (let node = el.parentElement; node; node = node.parentElement) if (closed(node)) return true
  return false
}
