import { fold } from '../base/fold.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { pageGivenName } from '../collector/positional-names.ts'
import type { ElementCapability } from '../operations.ts'
import type { RecordedTarget } from './goal-entry.ts'
import { pageShape } from './page-shape.ts'

// Finds the element of a new observation that a recorded step acted on. First exactly: the same
// role, name, tag, input type, form and frame; among several such (a button repeated per row), the
// one with the same nearby text, then the same fingerprint, then the one in the recorded place.
// Nearby text breaks ties but is not required: on another page of a template it names another item.
// Then by score, when the page changed a little (a button renamed, a form moved): the best candidate
// must clear a threshold and stand clear of the next one, or there is no match and the model decides.
// A candidate's name must share a word with the recorded one: role, form and place say where a control
// is, never what it does, and a "Delete" where "Save" was is another control, not a renamed one.
// Names are the page's: a control named by its place (`text field 1`) is recorded and matched as
// unnamed, by its nearby text, fingerprint and place among its equals, since on another page of the
// template the first unnamed field may be another one.

/** Lowest score of a scored match: role and tag alone (0.3) plus frame and type are never enough. */
export const MATCH_THRESHOLD = 0.6
/** How far the best candidate must lead the next: two near-equal candidates are a guess, not a match. */
export const MATCH_MARGIN = 0.1

// What each likeness is worth; the weights sum to 1. Role and name say most about what a control is;
// form and nearby text say where it is; the viewport position only separates near-equals.
const WEIGHTS = { role: 0.2, tag: 0.1, type: 0.05, name: 0.25, form: 0.15, nearby: 0.15, frame: 0.05, position: 0.05 }

/** Centre distance, in CSS pixels, at which position stops counting. */
const POSITION_RANGE = 600

export type TargetMatch =
  | { element: ObservedElement; how: 'exact' | 'scored'; score: number }
  | { miss: string }

/** The recorded identity of `element` in `observation`. */
export function recordTarget(element: ObservedElement, observation: Observation): RecordedTarget {
  const target: RecordedTarget = {
    role: element.role,
    name: pageGivenName(element),
    tag: element.tag,
    frame: frameShape(observation, element),
    fingerprint: element.fingerprint,
    ordinal: 0,
    rect: { ...element.rect },
  }
  if (element.type !== undefined) target.type = element.type
  if (element.form) target.form = element.form.name
  if (element.nearby) target.nearby = element.nearby
  target.ordinal = Math.max(0, observation.elements.filter((other) => sameIdentity(target, other, observation)).indexOf(element))
  return target
}

export function matchTarget(recorded: RecordedTarget, observation: Observation, capability: ElementCapability): TargetMatch {
  const candidates = observation.elements.filter((element) => element.operations.includes(capability))
  if (candidates.length === 0) return { miss: `no element offers ${capability}` }
  const exact = candidates.filter((element) => sameIdentity(recorded, element, observation))
  if (exact.length > 0) {
    const chosen = exact.length === 1 ? exact[0]! : pickAmongEquals(recorded, exact)
    if (chosen) return { element: chosen, how: 'exact', score: 1 }
  }
  const scored = candidates
    .filter((element) => namesAgree(pageGivenName(element), recorded.name))
    .map((element) => ({ element, score: score(recorded, element, observation) }))
    .sort((a, b) => b.score - a.score)
  const [best, next] = scored
  if (!best) return { miss: `no element's name shares a word with "${recorded.name}" (${recorded.role})` }
  if (best.score < MATCH_THRESHOLD) {
    return { miss: `no element is like "${recorded.name}" (${recorded.role}); the best scored ${round(best.score)}` }
  }
  if (next && best.score - next.score < MATCH_MARGIN) {
    return { miss: `"${best.element.name}" and "${next.element.name}" are equally like "${recorded.name}" (${round(best.score)}, ${round(next.score)})` }
  }
  return { element: best.element, how: 'scored', score: round(best.score) }
}

function sameIdentity(recorded: RecordedTarget, element: ObservedElement, observation: Observation): boolean {
  return (
    element.role === recorded.role &&
    pageGivenName(element) === recorded.name &&
    element.tag === recorded.tag &&
    element.type === recorded.type &&
    element.form?.name === recorded.form &&
    frameShape(observation, element) === recorded.frame
  )
}

/** Equal identities: the one with the recorded nearby text, else fingerprint, else the one in the recorded place. */
function pickAmongEquals(recorded: RecordedTarget, exact: ObservedElement[]): ObservedElement | undefined {
  for (const same of [(element: ObservedElement) => element.nearby === recorded.nearby, (element: ObservedElement) => element.fingerprint === recorded.fingerprint]) {
    const found = exact.filter(same)
    if (found.length === 1) return found[0]
  }
  return exact[recorded.ordinal]
}

function score(recorded: RecordedTarget, element: ObservedElement, observation: Observation): number {
  let total = 0
  if (element.role === recorded.role) total += WEIGHTS.role
  if (element.tag === recorded.tag) total += WEIGHTS.tag
  if (element.type === recorded.type) total += WEIGHTS.type
  total += WEIGHTS.name * likeness(pageGivenName(element), recorded.name)
  if (element.form?.name === recorded.form) total += WEIGHTS.form
  total += WEIGHTS.nearby * likeness(element.nearby ?? '', recorded.nearby ?? '')
  if (frameShape(observation, element) === recorded.frame) total += WEIGHTS.frame
  total += WEIGHTS.position * Math.max(0, 1 - distance(centre(element.rect), centre(recorded.rect)) / POSITION_RANGE)
  return total
}

/** The same name up to case and spacing, or names that share a word (two wordless names must be equal). */
function namesAgree(a: string, b: string): boolean {
  if (fold(a) === fold(b)) return true
  const left = words(a)
  for (const word of words(b)) if (left.has(word)) return true
  return false
}

/** Word overlap (Jaccard) of two texts, case- and space-insensitive; two empty texts are alike. */
export function likeness(a: string, b: string): number {
  const left = words(a)
  const right = words(b)
  if (left.size === 0 && right.size === 0) return 1
  let shared = 0
  for (const word of left) if (right.has(word)) shared += 1
  return shared / (left.size + right.size - shared)
}

function words(text: string): Set<string> {
  return new Set(fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean))
}

function frameShape(observation: Observation, element: ObservedElement): string {
  return element.frame === 0 ? '' : pageShape(observation.frames[element.frame]?.url ?? '')
}

function centre(rect: RecordedTarget['rect']): { x: number; y: number } {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }
}

function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
