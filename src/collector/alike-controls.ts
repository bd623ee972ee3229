import type { ObservedElement } from './observation.ts'

// Controls offered with the same role, name and nearby text (the "Reply" of two threads whose rows
// read alike) are told apart by their place among them, in the order they are offered: `2 of 2`.
// Named on the merged frames, before the cap, as positional names are: a control the budget drops
// does not renumber the ones kept. The place is not in the fingerprint, so no target goes stale by it.

/** What makes two controls read alike: nothing the model is shown tells them apart. */
function likeness(element: ObservedElement): string {
  return JSON.stringify([element.role, element.name, element.nearby ?? ''])
}

/** Sets `alike` (`k of n`) on each control that `elements` offer more than once alike, in place. */
export function numberAlike(elements: readonly ObservedElement[]): void {
  const groups = new Map<string, ObservedElement[]>()
  for (const element of elements) {
    const key = likeness(element)
    const group = groups.get(key)
    if (group) group.push(element)
    else groups.set(key, [element])
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue
    group.forEach((element, index) => {
      element.alike = `${index + 1} of ${group.length}`
    })
  }
}
