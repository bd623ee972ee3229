import { attributeOf, boundingBox, canCheckVisibility, checkVisibility, isConnectedNode, matchesSelector, nodeTypeOf, queryAll } from './dom-safe.ts'

// What says the page is still at work on an input after its DOM has gone quiet, so that the wait for
// quiet goes on: a region the page marks `aria-busy="true"` while it updates it (a list loading more
// items, a form sending), and an animation that the input started (a slide moving, a dialog fading).
// One already busy, or animating, when the page was observed for the input's decision (a ticker that
// is always loading) does not hold the wait: when each region became busy is kept for that.

const BUSY = '[aria-busy="true"]'
/** Regions remembered at once: a page that marks thousands busy costs a bounded map. */
const MAX_REGIONS = 100

/** When each region the watch saw become busy did so (performance.now()). */
export type BusyRegions = Map<Element, number>

function remember(regions: BusyRegions, el: Element, at: number): void {
  regions.delete(el)
  regions.set(el, at)
  // The oldest goes first: a Map keeps insertion order.
  if (regions.size > MAX_REGIONS) regions.delete(regions.keys().next().value!)
}

/** Notes a mutation that made a region busy: its `aria-busy` set, or a busy element added. */
export function noteBusy(regions: BusyRegions, record: MutationRecord, at: number): void {
  if (record.type === 'attributes') {
    if (record.attributeName !== 'aria-busy') return
    const target = record.target as Element
    if (attributeOf(target, 'aria-busy') === 'true') remember(regions, target, at)
    else regions.delete(target)
    return
  }
  if (record.type !== 'childList') return
  for (const node of Array.from(record.addedNodes)) {
    if (nodeTypeOf(node) !== 1) continue
    const el = node as Element
    if (matchesSelector(el, BUSY)) remember(regions, el, at)
    for (const inner of Array.from(queryAll(el, BUSY))) remember(regions, inner, at)
  }
}

/** Whether a region that became busy at or after `since` is still busy, in the document and shown. */
export function busySince(regions: BusyRegions, since: number): boolean {
  for (const [el, at] of regions) {
    if (!isConnectedNode(el) || attributeOf(el, 'aria-busy') !== 'true') {
      regions.delete(el)
      continue
    }
    if (at < since) continue
    if (!canCheckVisibility || checkVisibility(el, { visibilityProperty: true, checkVisibilityCSS: true } as CheckVisibilityOptions)) return true
  }
  return false
}

/**
 * The smallest box (CSS px²) whose animation holds the wait: a panel, a slide or a dialog, not a
 * button's own press ripple or colour fade, which a person does not wait for.
 */
const ANIMATED_AREA = 10_000

/**
 * Whether an animation or transition that started at or after `since` (performance.now()) is still
 * running on a box of some size and will end: a panel sliding in, a slide moving, a dialog fading.
 * What shows mid-way is not what a person waits to see. A spinner's endless animation says nothing,
 * and is passed over.
 */
export function animatingSince(since: number): boolean {
  if (typeof document.getAnimations !== 'function') return false
  for (const animation of document.getAnimations()) {
    if (animation.playState !== 'running') continue
    // A pending animation has no start time yet: it starts now.
    const start = animation.startTime === null ? Infinity : Number(animation.startTime)
    if (start < since) continue
    const effect = animation.effect as KeyframeEffect | null
    const end = effect?.getComputedTiming().endTime
    if (typeof end !== 'number' || !Number.isFinite(end)) continue
    const target = effect?.target
    if (!target || !isConnectedNode(target)) continue
    const box = boundingBox(target)
    if (box.width * box.height >= ANIMATED_AREA) return true
  }
  return false
}
