import { fold, holds, type Offered } from './match.ts'

// Which listed controls are offered. Each control needs an offered element of its own: an element
// named exactly like it first, then (for the controls left) one whose name holds its text, paired so
// that as many controls as possible get one. Without the pairing, "Ada Lovelace" (the row) would
// count as offered through the checkbox "Select Ada Lovelace", and a nav offered as one element
// would stand for every link in it. A control still left counts as offered when it is the label of
// an option of an offered select or listbox: the model can choose it with SELECT.

export interface Recall {
  listed: number
  matched: number
  misses: string[]
  /** Controls with some offered element or option whose name is or holds their text, shared or not. */
  loose: number
}

export function recall(controls: readonly string[], offered: readonly Offered[]): Recall {
  const owner = new Map<number, number>()
  const matchedControl = new Set<number>()
  // Exact names first, each element to one control.
  controls.forEach((text, control) => {
    const element = offered.find((candidate) => !owner.has(candidate.index) && fold(candidate.name) === fold(text) && fold(text) !== '')
    if (!element) return
    owner.set(element.index, control)
    matchedControl.add(control)
  })
  // Then names that hold the text: a maximum matching of the controls left to the elements left.
  const exact = new Set(owner.keys())
  const candidates = (control: number) => offered.filter((element) => !exact.has(element.index) && holds(element.name, controls[control]!))
  const augment = (control: number, seen: Set<number>): boolean => {
    for (const element of candidates(control)) {
      if (seen.has(element.index)) continue
      seen.add(element.index)
      const holder = owner.get(element.index)
      if (holder === undefined || augment(holder, seen)) {
        owner.set(element.index, control)
        return true
      }
    }
    return false
  }
  controls.forEach((_, control) => {
    if (!matchedControl.has(control) && augment(control, new Set())) matchedControl.add(control)
  })
  // Last, options of offered elements, each option once.
  const options = offered.flatMap((element) => (element.options ?? []).map((option) => ({ key: `${element.index}:${option.id}`, label: option.label })))
  const used = new Set<string>()
  controls.forEach((text, control) => {
    if (matchedControl.has(control)) return
    // Labelled exactly so: "2" is no option of a select whose options are "2 guests" or "Cut — 20 min".
    const option = options.find((candidate) => !used.has(candidate.key) && fold(candidate.label) === fold(text))
    if (!option) return
    used.add(option.key)
    matchedControl.add(control)
  })
  const loose = controls.filter(
    (text) => offered.some((element) => holds(element.name, text)) || options.some((option) => fold(option.label) === fold(text)),
  ).length
  return { listed: controls.length, matched: matchedControl.size, misses: controls.filter((_, control) => !matchedControl.has(control)), loose }
}
