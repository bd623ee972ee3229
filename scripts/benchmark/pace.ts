import { setTimeout as sleep } from 'node:timers/promises'

/** How long to wait before the next request so that starts stay at least 60000 / perMinute ms apart. */
export function delayBeforeNext(lastStart: number | undefined, now: number, perMinute: number): number {
  if (lastStart === undefined) return 0
  return Math.max(0, lastStart + 60_000 / perMinute - now)
}

/** Spaces one decider's requests for a rate-limited tier; `perMinute: Infinity` never waits. */
export function createPacer(perMinute: number, clock: { now(): number; sleep(ms: number): Promise<unknown> } = { now: Date.now, sleep }) {
  let lastStart: number | undefined
  return async function wait(): Promise<void> {
    const delay = delayBeforeNext(lastStart, clock.now(), perMinute)
    if (delay > 0) await clock.sleep(delay)
    lastStart = clock.now()
  }
}
