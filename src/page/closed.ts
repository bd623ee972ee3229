import { localNameOf, parentElementOf } from './dom-safe.ts'
import { hiddenAttribute } from './dom.ts'
import { SKIP_TAGS } from './text.ts'

// The subtrees no walk of ours enters: what they hold is never offered, read as text or taken for a
// heading, whichever code looks for it.

/**
 * An element whose subtree the walk does not enter (a script, a select's options, `hidden`, but
 * `hidden="until-found"`, whose content the browser's find-in-page reveals).
 */
export function closed(el: Element): boolean {
  if (SKIP_TAGS.has(localNameOf(el))) return true
  const hidden = hiddenAttribute(el)
  return hidden !== null && hidden.toLowerCase() !== 'until-found'
}

/** A strict ancestor keeps the walk out of `el` (its subtree is skipped). */
export function insideClosed(el: Element): boolean {
  for (let node = parentElementOf(el); node; node = parentElementOf(node)) if (closed(node)) return true
  return false
}
