import { attributeOf, canCheckVisibility, checkVisibility, isConnectedNode, matchesSelector, nodeTypeOf, queryAll } from './dom-safe.ts'

// Regions the page marks `aria-busy="true"` while it updates them (a list loading more items, a form
// sending): the wait for DOM quiet after an input goes on while one the input made busy is shown, since
// the page has said that what it shows there is not final. One already busy when the page was observed
// for the input's decision (a ticker that is always loading) does not hold the wait: when each region
// became busy is kept for that.

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
