import { AVAILABILITIES, isOutOfStock } from './availability.ts'

// What one value a person reads from several: a rule's `reduce` turns the values it found (the
// matches of `selectorAll`, the items a path reaches through `[]`) into one. Data only: a name from
// this list, never code. Also imported by the rules' validation in Node.

export const REDUCTIONS = ['first', 'min', 'max', 'any'] as const
export type Reduction = (typeof REDUCTIONS)[number]

const availabilities: ReadonlySet<unknown> = new Set(AVAILABILITIES)

/**
 * - `first`: the first value found.
 * - `min`, `max`: the smallest or largest number (the lowest price of a product's offers); values
 *   that are not numbers are passed over.
 * - `any`: for availabilities, the first that can be bought (in stock if any offer is), else the
 *   first; for true/false, true if any is; otherwise the first value.
 * Undefined when there is nothing to reduce.
 */
export function reduceValues(values: readonly unknown[], reduction: Reduction): unknown {
  if (values.length === 0) return undefined
  switch (reduction) {
    case 'first':
      return values[0]
    case 'min':
    case 'max': {
      const numbers = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value))
      // A loop, not Math.min(...numbers): a page's thousands of matches would be too many arguments.
      let best = numbers[0]
      for (const number of numbers) if (reduction === 'min' ? number < best! : number > best!) best = number
      return best
    }
    case 'any': {
      if (values.every((value) => typeof value === 'boolean')) return values.includes(true)
      return values.find((value) => availabilities.has(value) && !isOutOfStock(value as (typeof AVAILABILITIES)[number])) ?? values[0]
    }
  }
}
