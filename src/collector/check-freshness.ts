import type { ElementHandle, Frame, Point as ViewportPoint } from 'puppeteer-core'
import { isDocumentGone, isHandleReleased } from '../base/gone.ts'
import { elementById } from './find-target.ts'
import type { Snapshot } from './observation.ts'
import type { Point } from '../page/types.ts'
import { frameOwner } from '../browser/isolated-world.ts'
import { callInFrame } from '../browser/page-script.ts'
import { LIMITS } from './limits.ts'

// The executor's last look before input: the target is described again by the collector's own page
// script and compared with what the model was shown. Changes elsewhere on the page do not matter.

/**
 * A fresh target comes with `at`, the point of it that the check found visible and reaching the top
 * page, in top-viewport CSS pixels: where an input presses it (checked again by the browser's hit test).
 */
export type Freshness = { fresh: true; handle: ElementHandle<Element>; at?: ViewportPoint } | { fresh: false; reason: string }

export interface FreshnessOptions {
  /** Also require the target to hold keyboard focus (following shadow roots), for text entry after focusing. */
  focused?: boolean
}

/** Follows a point up through the ancestor frames: the point in the top viewport, or null when an ancestor covers or clips it. */
async function reachesTop(frame: Frame, at: Point): Promise<Point | null> {
  let point = at
  for (let child = frame, parent = frame.parentFrame(); parent; child = parent, parent = parent.parentFrame()) {
    const owner = await frameOwner(child)
    if (!owner) return null
    try {
      const [translated] = await callInFrame(parent, 'hit', owner, [point])
      if (!translated) return null
      point = translated
    } finally {
      void owner.dispose().catch(() => {})
    }
  }
  return point
}

/**
 * Checks, just before input, that action `actionId` of `snapshot` still targets what the model saw:
 * same node and document, same attributes, value, state, nearby text and form values, still
 * visible and reached by hit-testing at its centre (through every frame above it).
 */
export async function checkFreshness(snapshot: Snapshot, actionId: string, options: FreshnessOptions = {}): Promise<Freshness> {
  await snapshot.ready
  const element = elementById(snapshot.observation, actionId)
  const handle = snapshot.handles.get(actionId)
  if (!element) return { fresh: false, reason: `unknown target ${actionId}` }
  // Its node could not be taken from the page after the report: the document changed, or the frame did not answer in time.
  if (!handle) return { fresh: false, reason: 'node not taken' }
  const request = {
    nodeId: element.nodeId,
    fingerprint: element.fingerprint,
    focused: options.focused === true,
    nameLimit: LIMITS.nameLimit,
    nearbyLimit: LIMITS.nearbyLimit,
    valueLimit: LIMITS.valueLimit,
    keptValueLimit: LIMITS.keptValueLimit,
  }
  try {
    const report = await callInFrame(handle.frame, 'check', handle, request)
    if (report.reason !== null) return { fresh: false, reason: report.reason }
    const top = report.at ? await reachesTop(handle.frame, report.at) : null
    if (!top) return { fresh: false, reason: 'covered' }
    return { fresh: true, handle, at: { x: top[0], y: top[1] } }
  } catch (error) {
    if (isDocumentGone(error)) return { fresh: false, reason: 'document changed' }
    if (isHandleReleased(error)) return { fresh: false, reason: 'snapshot released' }
    throw error
  }
}
