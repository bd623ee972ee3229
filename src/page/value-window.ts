import { windowOf, type Omitted } from '../clip.ts'
import { focusedElement } from './capabilities.ts'
import { localNameOf, ownerDocumentOf, scrollHeightOf, scrollTopOf } from './dom-safe.ts'

// A field's value as an observation keeps it: exactly as it is (line breaks, leading, trailing and
// repeated white space), since a model copies or rewrites it from there; and the part of it the
// decision request shows when it is longer than that shows: around the caret or selection of a
// focused field, from the first line in view of a scrolled multiline one (so SCROLL_DOWN in the field
// reveals its end), else from its start. Only what is shown moves: the fingerprint hashes the whole
// value, so neither a scroll nor the caret makes the field stale.

/** The value as the page reports it. */
export interface KeptValue {
  /** The value, or the part of it around the part shown when it is longer than the kept bound. */
  value: string
  /** Characters of the value before and after `value`, when it is a part. */
  valueOmitted?: Omitted
  /** Where in `value` the part the decision request shows starts, when not at its start. */
  shownFrom?: number
}

/** How a value is bounded: the part the decision request shows, and the part an observation keeps. */
export interface ValueLimits {
  valueLimit: number
  keptValueLimit: number
}

/** How far back the part shown of a scrolled field may move to start at the start of its line. */
const LINE_REACH = 80

/**
 * The selection (or the caret) of a text field that holds focus. An editing host's is not read: a
 * DOM range's offset does not count the line breaks its innerText has between blocks.
 */
function selectionOf(el: Element): [number, number] | undefined {
  const tag = localNameOf(el)
  if ((tag !== 'input' && tag !== 'textarea') || focusedElement(ownerDocumentOf(el)) !== el) return undefined
  // An input that is never a form: its own properties are read. Types without a selection answer null.
  const field = el as HTMLInputElement | HTMLTextAreaElement
  const start = field.selectionStart
  const end = field.selectionEnd
  return start === null || end === null ? undefined : [start, end]
}

/**
 * Where the part shown starts: the selection with as much of the value before it as after it (its
 * start when it is longer than the part shown), or about the first line in view. The offset in view
 * is estimated from the scroll position (`scrollTop / scrollHeight` of the value's length: lines wrap
 * unevenly, so it is about, not exactly, that line), moved back to its line's start when that is close.
 */
function shownStart(el: Element, value: string, limit: number, multiline: boolean): number {
  const selection = selectionOf(el)
  if (selection) {
    const [start, end] = selection
    return end - start >= limit ? start : start - Math.floor((limit - (end - start)) / 2)
  }
  if (!multiline) return 0
  const top = scrollTopOf(el)
  const height = scrollHeightOf(el)
  if (top <= 0 || height <= 0) return 0
  const at = Math.round((top / height) * value.length)
  const line = value.lastIndexOf('\n', at - 1) + 1
  return at - line <= LINE_REACH ? line : at
}

/**
 * `value` as the observation keeps it, at most `keptValueLimit` characters, and where in it the part
 * shown starts. A part that would run short of `valueLimit` starts earlier, so that at the bottom of
 * a field the whole last `valueLimit` is read; the part kept is centred on the part shown.
 */
export function keptValue(el: Element, value: string, limits: ValueLimits, multiline: boolean): KeptValue {
  if (value.length <= limits.valueLimit) return { value }
  const shown = Math.max(0, Math.min(shownStart(el, value, limits.valueLimit, multiline), value.length - limits.valueLimit))
  const around = shown - Math.floor((limits.keptValueLimit - limits.valueLimit) / 2)
  const kept = windowOf(value, Math.max(0, Math.min(around, value.length - limits.keptValueLimit)), limits.keptValueLimit)
  const shownFrom = Math.max(0, shown - kept.before)
  return {
    value: kept.part,
    ...(kept.before > 0 || kept.after > 0 ? { valueOmitted: { before: kept.before, after: kept.after } } : {}),
    ...(shownFrom > 0 ? { shownFrom } : {}),
  }
}
