import { boxOf, rendered, vh, vw } from './layout.ts'
import { clipToViewport, deepHit, hiddenFromUsers } from './visibility.ts'
import type { ChildReport, Point } from './types.ts'

// Points in a child frame's viewport, translated into the parent's and hit-tested there, so a control
// in a frame is offered only where the top page really shows it.

/** Translates points from a child iframe's viewport into this one, keeping those that hit the iframe. */
export function hitThrough(owner: Element, points: Point[]): ChildReport {
  const rect = boxOf(owner)
  const style = getComputedStyle(owner)
  const x = rect.left + owner.clientLeft + (parseFloat(style.paddingLeft) || 0)
  const y = rect.top + owner.clientTop + (parseFloat(style.paddingTop) || 0)
  const width = owner.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0)
  const height = owner.clientHeight - (parseFloat(style.paddingTop) || 0) - (parseFloat(style.paddingBottom) || 0)
  const visible = rect.width > 0 && rect.height > 0 && clipToViewport(rect) !== null && rendered(owner) && !hiddenFromUsers(owner)
  const translated = points.map((point): Point | null => {
    if (!visible) return null
    const [px, py] = point
    if (px < 0 || py < 0 || px >= width || py >= height) return null
    const at: Point = [Math.round(x + px), Math.round(y + py)]
    if (at[0] < 0 || at[1] < 0 || at[0] >= vw || at[1] >= vh) return null
    return deepHit(at[0], at[1]) === owner ? at : null
  })
  return { visible, x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height), points: translated }
}

/** Hit-tests points given in the viewport of the iframe `owner`; null where not visible here. */
export function hit(owner: Element, points: Point[]): Array<Point | null> {
  return hitThrough(owner, points).points
}

/** Whether each iframe shows its frame in this one's viewport, as `hitThrough` judges it. */
export function framesShown(...owners: Element[]): boolean[] {
  return owners.map((owner) => hitThrough(owner, []).visible)
}
