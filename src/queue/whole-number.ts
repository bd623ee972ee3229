// A numeric setting of a worker or producer: a whole number at least some least value, or the default.

/** `value`, or `fallback` when it is undefined; throws a TypeError naming `what` when it is not a whole number ≥ `least`. */
export function wholeNumber(value: unknown, fallback: number, least: number, what: string): number {
  const chosen = value ?? fallback
  if (typeof chosen !== 'number' || !Number.isInteger(chosen) || chosen < least) throw new TypeError(`${what} must be a whole number ≥ ${least}, got ${JSON.stringify(chosen)}.`)
  return chosen
}
