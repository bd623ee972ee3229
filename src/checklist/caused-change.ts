import { fold } from '../base/fold.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'

// Whether what changed after an input is the input's doing. A page changes by itself too: a clock
// ticks, a carousel turns, a counter counts. Across the page digits stand for any digits (a clock
// showing another time is the same clock), and what the page was seen to change between two
// observations with no input of the run between them (a WAIT, a stale decision observed again) is its
// own doing from then on. In the region of the control the input went to (the control itself, the row
// or card its nearby text comes from, the words beside its name in the page's text) every character
// counts: a quantity stepper's "− 2 +" is the click's doing, a clock a few words on is not.

/** A text as compared: digits stand for any digits. */
function shape(text: string): string {
  return fold(text).replace(/\d+/g, '#')
}

function wordsOf(text: string): Set<string> {
  return new Set(shape(text).split(' ').filter(Boolean))
}

/** What a person reads of a control, as compared. */
function reading(element: ObservedElement): string {
  return shape(`${element.role}\n${element.name}\n${element.value ?? ''}\n${JSON.stringify(element.state ?? {})}`)
}

/** A control and the text of its row or card, exactly as shown. */
function regionOf(element: ObservedElement): string {
  return `${element.name}\n${element.value ?? ''}\n${JSON.stringify(element.state ?? {})}\n${element.nearby ?? ''}`
}

/** A word that says something: symbols alone (a stepper's "−") are skipped. */
const MEANING = /[\p{L}\p{N}]/u

/**
 * The words beside each place the page's text shows `name`, exactly as shown: the nearest word that
 * says something before it and after it. The text is one line, so this is the control's region in it.
 */
function neighboursOf(text: string, name: string): string {
  const words = text.split(/\s+/).filter(Boolean)
  const folded = words.map((word) => fold(word))
  const wanted = fold(name).split(' ').filter(Boolean)
  if (wanted.length === 0) return ''
  const found: string[] = []
  for (let start = 0; start + wanted.length <= words.length; start++) {
    if (!wanted.every((word, offset) => folded[start + offset] === word)) continue
    const before = words.slice(0, start).findLast((word) => MEANING.test(word)) ?? ''
    const after = words.slice(start + wanted.length).find((word) => MEANING.test(word)) ?? ''
    found.push(`${before} ${after}`)
  }
  return found.join('\n')
}

interface Difference {
  /** Controls that appeared, left, or read otherwise (node IDs). */
  nodes: string[]
  /** Words the viewport's text gained or lost. */
  words: string[]
}

function difference(before: Observation, after: Observation): Difference {
  const was = new Map(before.elements.map((element) => [element.nodeId, reading(element)]))
  const is = new Map(after.elements.map((element) => [element.nodeId, reading(element)]))
  const nodes = [...is].filter(([node, read]) => was.get(node) !== read).map(([node]) => node)
  for (const node of was.keys()) if (!is.has(node)) nodes.push(node)
  const wordsBefore = wordsOf(before.text)
  const wordsAfter = wordsOf(after.text)
  const words = [...wordsAfter].filter((word) => !wordsBefore.has(word))
  for (const word of wordsBefore) if (!wordsAfter.has(word)) words.push(word)
  return { nodes, words }
}

export class PageChanges {
  readonly #ownNodes = new Set<string>()
  readonly #ownWords = new Set<string>()

  /** Two observations with no input of the run between them: whatever differs, the page changes by itself. */
  learn(before: Observation, after: Observation): void {
    const { nodes, words } = difference(before, after)
    for (const node of nodes) this.#ownNodes.add(node)
    for (const word of words) this.#ownWords.add(word)
  }

  /**
   * Whether `after` differs from `before` in its URL, in the region of a control the input went to
   * (`acted`: snapshot IDs of `before`), or in a control or a word the page is not known to change by itself.
   */
  caused(before: Observation, after: Observation, acted: readonly string[]): boolean {
    if (before.url !== after.url) return true
    for (const id of acted) {
      const was = before.elements.find((element) => element.id === id)
      const is = was && after.elements.find((element) => element.nodeId === was.nodeId)
      if (was && is && regionOf(was) !== regionOf(is)) return true
      if (was?.name && neighboursOf(before.text, was.name) !== neighboursOf(after.text, was.name)) return true
    }
    const { nodes, words } = difference(before, after)
    return nodes.some((node) => !this.#ownNodes.has(node)) || words.some((word) => !this.#ownWords.has(word))
  }
}
