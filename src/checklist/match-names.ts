// How a checklist's words meet the page's: one definition, used by the tracker (and by the offline
// writer to name controls as the page does). Matching is plain string comparison, case- and
// space-insensitive, with no model and no fuzzy distance: a checklist item is evidence only when the
// page says the same thing.

import { fold } from '../base/fold.ts'


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

// The mark `clip` (src/clip.ts) leaves where the collector cut a long value: `… (1,234 characters)`.
const CLIP_MARK = /… \(([\d,]+) characters\)$/
// The mark `clipFrom` puts before the part of a long value a scrolled field shows: `… (from character 2,001 of 3,000) `.
const START_MARK = /^… \(from character ([\d,]+) of ([\d,]+)\) /

const count = (digits: string) => Number(digits.replaceAll(',', ''))

/**
 * Whether an observed value is the wanted one, folded. The collector clips long values (a field's at 80
 * characters, an option's label at 40); a clipped value matches a wanted one of the stated length
 * that starts with the part kept, and a scrolled field's window one that holds it where it starts.
 */
export function valueMatches(observed: string | undefined, wanted: string): boolean {
  if (observed === undefined) return false
  const window = START_MARK.exec(observed)
  if (window) return windowMatches(observed.slice(window[0].length), count(window[1]!) - 1, count(window[2]!), wanted)
  const want = fold(wanted)
  const mark = CLIP_MARK.exec(observed)
  if (!mark) return fold(observed) === want
  const length = Number(mark[1]!.replaceAll(',', ''))
  const kept = fold(observed.slice(0, mark.index))
  return wanted.replace(/\s+/g, ' ').trim().length === length && want.startsWith(kept)
}

/**
 * A scrolled field's window, from character `from` of a value `length` long, matches a wanted value
 * of that length that holds the window there (up to the end, or up to the window's own clip mark).
 */
function windowMatches(shown: string, from: number, length: number, wanted: string): boolean {
  const whole = wanted.replace(/\s+/g, ' ').trim()
  if (whole.length !== length) return false
  const end = CLIP_MARK.exec(shown)
  const kept = fold(end ? shown.slice(0, end.index) : shown)
  const rest = fold(whole.slice(from))
  return end ? rest.startsWith(kept) : rest === kept
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
