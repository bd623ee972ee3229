import type { Operation } from '../../types/index.d.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { exclusionKey, specOf } from '../operations.ts'

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

/**
 * Whether an action changed what the agent sees: the URL or the observation's signature; and, for an
 * action whose point is focus (a key, a click into a field), focus moving to another control. Focus
 * is not in the signature: a click that focuses a button as a side effect changed nothing.
 */
export function pageChanged(operation: Operation, target: ObservedElement | undefined, before: Observation, after: Observation): boolean {
  if (after.signature !== before.signature || after.url !== before.url) return true
  const aimsAtFocus = operation === 'PRESS' || (operation === 'CLICK' && target?.operations.includes('type') === true)
  return aimsAtFocus && focusedNode(before) !== focusedNode(after)
}

function focusedNode(observation: Observation): string | undefined {
  return observation.elements.find((element) => element.focused)?.nodeId
}

function sameTarget(a: TargetIdentity, b: TargetIdentity): boolean {
  return a.key === b.key || (a.label !== undefined && a.label === b.label)
}

/**
 * Counts successful actions in a row that left the observation as it was, and keeps each such
 * action out of the offer until the page changes: that operation on that target (a hover that showed
 * nothing leaves the click on the same control offered).
 */
export class NoChangeGuard {
  #inARow = 0
  /** Per operation, the target keys it is not offered on. */
  #ignored = new Map<Operation, Set<string>>()
  #ignoredOn: string | undefined

  /** The operations on targets of this observation not to offer again, as `exclusionKey`s. */
  exclusions(observation: Observation): Set<string> {
    if (observation.signature !== this.#ignoredOn) {
      this.#ignored.clear()
      return new Set()
    }
    const excluded = new Set<string>()
    for (const [operation, keys] of this.#ignored) {
      for (const element of observation.elements) if (keys.has(element.nodeId)) excluded.add(exclusionKey(operation, element.id))
      for (const scroll of observation.scroll) if (keys.has(`scroll:${scroll.id}`)) excluded.add(exclusionKey(operation, scroll.id))
    }
    return excluded
  }

  /** Records a successful action; true when it is the last unchanged action allowed. */
  record(operation: Operation, target: TargetIdentity | undefined, before: Observation, changed: boolean): boolean {
    if (changed) {
      this.#inARow = 0
      return false
    }
    this.#inARow += 1
    this.ignore(operation, target, before)
    return this.#inARow >= NO_CHANGE_LIMIT
  }

  /** Keeps an operation on a target out of the offer while the page stays as `observation` shows it. */
  ignore(operation: Operation, target: TargetIdentity | undefined, observation: Observation): void {
    if (observation.signature !== this.#ignoredOn) {
      this.#ignored.clear()
      this.#ignoredOn = observation.signature
    }
    // PRESS with another key, DRAG to another place is another action on the same target: only the
    // streak of unchanged actions bounds those.
    if (!target || specOf(operation).detail) return
    let keys = this.#ignored.get(operation)
    if (!keys) this.#ignored.set(operation, (keys = new Set()))
    keys.add(target.key)
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
