// How a checklist's words meet the page's: one definition, used by the tracker (and by the offline
// writer to name controls as the page does). Matching is plain string comparison, case- and
// space-insensitive, with no model and no fuzzy distance: a checklist item is evidence only when the
// page says the same thing.

import { fold } from '../base/fold.ts'
import type { Omitted } from '../clip.ts'


/** A name as compared: folded, without the trailing `:` or `*` a label carries (`Email *`, `Name:`). */
export function normaliseName(name: string): string {
  return fold(name).replace(/[\s:*]+$/, '')
}

/**
 * How well an observed control name fits the name a checklist gave: 2 when equal, 1 when the observed
 * name contains the wanted one as whole words ("Email" in "Email address", not "Go" in "Google"), 0
 * otherwise. A wanted name that normalises to nothing matches nothing.
 */
export function nameFit(observed: string, wanted: string): 0 | 1 | 2 {
  const have = normaliseName(observed)
  const want = normaliseName(wanted)
  if (!want) return 0
  if (have === want) return 2
  return containsWords(have, want) ? 1 : 0
}

/**
 * The candidates whose name fits `wanted` best: the equally named ones when there are any, otherwise
 * every one that contains it. "Click Me" then never stands for "Double Click Me" beside it.
 */
export function bestMatches<T>(candidates: readonly T[], nameOf: (candidate: T) => string, wanted: string): T[] {
  const exact: T[] = []
  const partial: T[] = []
  for (const candidate of candidates) {
    const fit = nameFit(nameOf(candidate), wanted)
    if (fit === 2) exact.push(candidate)
    else if (fit === 1) partial.push(candidate)
  }
  return exact.length > 0 ? exact : partial
}

/**
 * Whether an observed value is the wanted one, folded. The observation keeps a long value as a part of
 * it, `omitted` counting the characters left out before and after: it matches a wanted value of the
 * whole length that holds that part there.
 */
export function valueMatches(observed: string | undefined, wanted: string, omitted?: Omitted): boolean {
  if (observed === undefined) return false
  if (!omitted) return fold(observed) === fold(wanted)
  if (wanted.length !== omitted.before + observed.length + omitted.after) return false
  return fold(wanted.slice(omitted.before, omitted.before + observed.length)) === fold(observed)
}

/** Whether the page's text shows `wanted`, folded. An empty wanted text is never shown. */
export function textShows(pageText: string, wanted: string): boolean {
  const want = fold(wanted)
  return want.length > 0 && fold(pageText).includes(want)
}

/**
 * Whether a URL shows `wanted`, ignoring case (hosts are case-insensitive, and models rarely keep
 * case). The query and the fragment count only when `wanted` names them (`?` or `=`, `#`): else a
 * `/login?next=/order-complete` would show `/order-complete`.
 */
export function urlShows(url: string, wanted: string): boolean {
  const want = wanted.trim().toLowerCase()
  if (want.length === 0) return false
  let kept = url
  if (!want.includes('#')) kept = kept.split('#')[0]!
  if (!/[?=#]/.test(want)) kept = kept.split('?')[0]!
  return kept.toLowerCase().includes(want)
}

const WORD_CHAR = /[\p{L}\p{N}]/u

/** `wanted` occurs in `text` with no letter or digit touching either end. */
function containsWords(text: string, wanted: string): boolean {
  for (let at = text.indexOf(wanted); at !== -1; at = text.indexOf(wanted, at + 1)) {
    const before = text[at - 1]
    const after = text[at + wanted.length]
    if ((before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after))) return true
  }
  return false
}
