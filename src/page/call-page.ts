import { beginCall, endCall } from './layout.ts'
import type * as ExtractFunctions from './extract-entry.ts'
import type * as GoalFunctions from './goal-entry.ts'

// How a page script runs one of its functions. Each script (goal-entry.ts, extract-entry.ts) is
// bundled with this module as its `call`, so each installs with its own per-call caches.

/** Every function Node calls in the page, by name, whichever script holds it. */
export type PageFunctions = typeof GoalFunctions & typeof ExtractFunctions

/** Calls one of `functions` with fresh per-call caches, emptied again when it returns. */
export function callPage(functions: Record<string, unknown>, name: string, args: unknown[]): unknown {
  const fn = functions[name]
  if (typeof fn !== 'function') throw new Error(`The page script has no function named "${name}".`)
  beginCall()
  try {
    return (fn as (...args: unknown[]) => unknown)(...args)
  } finally {
    endCall()
  }
}
