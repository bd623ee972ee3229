import type { JSONValue } from '@ai-sdk/provider'
import { clip } from '../clip.ts'

// How large a request to a model may grow, whatever the page holds or does. The collector and the page
// events clip what the page hands over; these bound what a request is built from, and then the request
// itself: the docs promise a decision request well under 40,000 characters, and the text model's
// prompts and the evaluator's request are held to the same.

export const REQUEST_LIMITS = {
  /**
   * Characters of a request serialized as JSON: under 40,000 with room for the text model's instructions
   * around it. Escapes count: a page of control characters takes six times its length.
   */
  maxChars: 38_000,
  /** Recent actions told: older ones rarely matter and would grow every request. */
  recentActions: 10,
  /** Characters of a typed value as the history tells it: enough to recognise it (a value may be 2,000). */
  actionText: 200,
  /** Characters of an action's detail: the URL it led to, the dialogs it raised, new tabs, a failed check. */
  actionDetail: 600,
  /** Characters of the model's note of a step (`decisions: false`): a few prices or names to remember; a longer one is clipped. */
  note: 300,
  /** Names of the controls a scroll brought into view, as its recent action tells them. */
  scrolledNames: 5,
  /** Actions the evaluator reads: the latest ones, which decide whether the goal is met. */
  evaluatedActions: 30,
} as const

/** What every bound above measures: the JSON a provider receives. */
export function sizeOf(value: JSONValue): number {
  return JSON.stringify(value).length
}

/**
 * A request built again and again until its JSON fits in `REQUEST_LIMITS.maxChars`: while it is over,
 * the first of `shrink` that still has something to give up gives up at least the excess. Each
 * shrink step changes what `build` reads and returns false once it has nothing left. Only what the
 * caller wrote (the goal) can keep a request over the bound, once everything else is given up.
 */
export function fitRequest<T>(build: () => T, size: (request: T) => number, shrink: Array<(excess: number) => boolean>): T {
  for (;;) {
    const request = build()
    const excess = size(request) - REQUEST_LIMITS.maxChars
    if (excess <= 0 || !shrink.some((step) => step(excess))) return request
  }
}

/** One part of a request that gives way to the bound, held where `build` reads it. */
export interface Part<T> {
  value: T
}

// Room for the mark `clip` leaves at the end, `… (1,048,576 characters)`.
const CLIP_MARK = 24

/** A shrink step that clips the text so that its JSON is about the excess shorter; '' once little would be left. */
export function shortenText(part: Part<string>): (excess: number) => boolean {
  return (excess) => {
    const text = part.value
    if (!text) return false
    const serialized = sizeOf(text)
    const keep = Math.floor((text.length * (serialized - excess - CLIP_MARK)) / serialized)
    part.value = keep > CLIP_MARK ? clip(text, keep) : ''
    return true
  }
}

/** A shrink step that leaves out the first items, as many as cover the excess. */
export function dropFirst<T extends JSONValue>(part: Part<T[]>): (excess: number) => boolean {
  return (excess) => {
    if (part.value.length === 0) return false
    part.value = part.value.slice(countToDrop(part.value, excess))
    return true
  }
}

/** A shrink step that leaves out the last items, as many as cover the excess; `sent` is what an item costs in the request. */
export function dropLast<T>(part: Part<T[]>, sent: (item: T) => JSONValue): (excess: number) => boolean {
  return (excess) => {
    if (part.value.length === 0) return false
    part.value = part.value.slice(0, part.value.length - countToDrop(part.value.map(sent).reverse(), excess))
    return true
  }
}

/** How many of `items`, taken in order, to leave out so that at least `excess` characters are saved. */
function countToDrop(items: readonly JSONValue[], excess: number): number {
  let saved = 0
  let count = 0
  while (count < items.length && saved < excess) saved += sizeOf(items[count++]!) + 1
  return count
}
