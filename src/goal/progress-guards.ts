import type { Observation, ObservedElement } from '../collector/observation.ts'

/** Consecutive actions that left the same observation stop the run at this count (`no_change`). */
export const NO_CHANGE_LIMIT = 3
/** Consecutive stale decisions on the same target stop the run at this count (`stale_target`). */
export const STALE_LIMIT = 3

/** What an action was aimed at, in terms that outlive one snapshot's action IDs. */
export interface TargetIdentity {
  /** Persistent node ID, or `scroll:<id>` for a scroll target. */
  key: string
  /** Role and name: a list that re-renders gives the "same" button a new node each time. */
  label?: string
}

export function identify(target: string | undefined, element: ObservedElement | undefined): TargetIdentity | undefined {
  if (element) return { key: element.nodeId, label: `${element.role}\u0000${element.name}` }
  return target ? { key: `scroll:${target}` } : undefined
}

function sameTarget(a: TargetIdentity, b: TargetIdentity): boolean {
  return a.key === b.key || (a.label !== undefined && a.label === b.label)
}

/**
 * Counts successful actions in a row that left the observation as it was, and keeps each such
 * action's target out of the offer until the page changes.
 */
export class NoChangeGuard {
  #inARow = 0
  #ignored = new Set<string>()
  #ignoredOn: string | undefined

  /** Action and scroll IDs of this observation not to offer again. */
  exclusions(observation: Observation): Set<string> {
    if (observation.signature !== this.#ignoredOn) {
      this.#ignored.clear()
      return new Set()
    }
    const excluded = new Set<string>()
    for (const element of observation.elements) if (this.#ignored.has(element.nodeId)) excluded.add(element.id)
    for (const scroll of observation.scroll) if (this.#ignored.has(`scroll:${scroll.id}`)) excluded.add(scroll.id)
    return excluded
  }

  /** Records a successful action; true when it is the last unchanged action allowed. */
  record(target: TargetIdentity | undefined, before: Observation, changed: boolean): boolean {
    if (changed) {
      this.#inARow = 0
      return false
    }
    this.#inARow += 1
    this.ignore(target, before)
    return this.#inARow >= NO_CHANGE_LIMIT
  }

  /** Keeps a target out of the offer while the page stays as `observation` shows it. */
  ignore(target: TargetIdentity | undefined, observation: Observation): void {
    if (observation.signature !== this.#ignoredOn) {
      this.#ignored.clear()
      this.#ignoredOn = observation.signature
    }
    if (target) this.#ignored.add(target.key)
  }
}

/** Counts decisions in a row that chose the same target and found it stale. */
export class StaleGuard {
  #last: TargetIdentity | undefined
  #inARow = 0

  /** Records a stale decision; true when the limit is reached. */
  stale(target: TargetIdentity | undefined): boolean {
    this.#inARow = target && this.#last && sameTarget(target, this.#last) ? this.#inARow + 1 : 1
    this.#last = target
    return this.#inARow >= STALE_LIMIT
  }

  /** Any decision that was not stale breaks the streak. */
  fresh(): void {
    this.#last = undefined
    this.#inARow = 0
  }
}
