import { check } from './check-target.ts'
import { hit } from './hit-test.ts'
import { dragGeometry } from './drag-geometry.ts'
import { documentParsed, findListOption, focusHolder, planSubmit, replaceFocusedValue, requestSubmit, scrollByPage, waitForDomQuiet } from './input.ts'
import { beginCall, endCall } from './layout.ts'
import { observe } from './observe-frame.ts'
import { outlinePage } from './outline.ts'
import { rulesEngine } from './rules-engine.ts'
import { watchInput } from './watch-input.ts'

// The bundle's entry (scripts/bundle-page.mjs): every function Node calls in the page, by name.

export const PAGE_FUNCTIONS = {
  observe,
  check,
  hit,
  rulesEngine,
  outline: outlinePage,
  replaceFocusedValue,
  planSubmit,
  requestSubmit,
  scrollByPage,
  waitForDomQuiet,
  findListOption,
  watchInput,
  documentParsed,
  focusHolder,
  dragGeometry,
}

export type PageFunctions = typeof PAGE_FUNCTIONS

/** Calls one function with fresh per-call caches, emptied again when it returns. */
export function call(name: keyof PageFunctions, args: unknown[]): unknown {
  beginCall()
  try {
    return (PAGE_FUNCTIONS[name] as (...args: unknown[]) => unknown)(...args)
  } finally {
    endCall()
  }
}
