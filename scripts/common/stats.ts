// Summary statistics for the measuring scripts. Every function returns undefined for no input
// rather than a made-up number.

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * The value that nine in ten of the values do not exceed (nearest rank). With fewer than ten values
 * that is the largest one: a p90 of five runs is the slowest of the five, never an interpolation.
 */
export function p90(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  // Integer arithmetic: 0.9 * 70 is 63.00000000000001 in floating point and would round the rank up.
  const rank = Math.ceil((9 * sorted.length) / 10)
  return sorted[rank - 1]
}

/** The sum, or undefined as soon as one value is missing, so a total is never understated. */
export function strictSum(values: readonly (number | undefined)[]): number | undefined {
  let sum = 0
  for (const value of values) {
    if (value === undefined || !Number.isFinite(value)) return undefined
    sum += value
  }
  return roundUsd(sum)
}

/** The sum of the values that are present. */
export function lenientSum(values: readonly (number | undefined)[]): number {
  return roundUsd(values.reduce<number>((sum, value) => (value !== undefined && Number.isFinite(value) ? sum + value : sum), 0))
}

/** Share of `part` in `whole`, rounded to four places; undefined for an empty whole. */
export function share(part: number, whole: number): number | undefined {
  return whole === 0 ? undefined : Math.round((part / whole) * 10_000) / 10_000
}

/** The most frequent value and how often it occurs; ties go to the value seen first. */
export function mostCommon<T>(values: readonly T[]): { value: T; count: number } | undefined {
  const counts = new Map<T, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  let best: { value: T; count: number } | undefined
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count }
  return best
}

/** How often each value occurs, most frequent first, ties by name, so equal tallies always print alike. */
export function tally<T extends string>(values: readonly T[]): Partial<Record<T, number>> {
  const counts = new Map<T, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return Object.fromEntries([...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))) as Partial<Record<T, number>>
}

// Sums of decimal dollar amounts drift in floating point (0.1 + 0.2); twelve places is below any reported price.
function roundUsd(value: number): number {
  return Number(value.toFixed(12))
}
