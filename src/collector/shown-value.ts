import { windowOf, type Omitted } from '../clip.ts'
import type { ObservedElement } from './observation.ts'

// The part of a field's value a request shows, exactly as it is, and how much of the value it leaves
// out before and after: the value is never cut with a mark inside it, which a model could take for
// part of the value or copy into the field.

/** A value as a request shows it: `value_omitted` only when `value` is a part. */
export interface ShownValue {
  value: string
  value_omitted?: Omitted
}

/**
 * At most `limit` characters of the element's value, from where the observation placed the part
 * shown (around the caret, or in view), with what the observation itself left out added.
 */
export function shownValue(element: Pick<ObservedElement, 'value' | 'valueOmitted' | 'shownFrom'>, limit: number): ShownValue | undefined {
  if (element.value === undefined) return undefined
  const { part, before, after } = windowOf(element.value, element.shownFrom ?? 0, limit)
  const omitted = { before: before + (element.valueOmitted?.before ?? 0), after: after + (element.valueOmitted?.after ?? 0) }
  return omitted.before > 0 || omitted.after > 0 ? { value: part, value_omitted: omitted } : { value: part }
}
