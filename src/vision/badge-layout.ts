// Where each action ID's badge goes on the screenshot. A badge sits next to its element, outside its
// box, so it never covers the element's own text; badges never cover one another; and a badge stays
// inside the image. Pure geometry, in image pixels, so it is tested without a browser.

import type { Rect } from '../base/rect.ts'

export interface Badge extends Rect {
  /** The action ID it shows. */
  id: string
  /** The element's box it labels, in image pixels. */
  target: Rect
  /** Whether it had to be placed over its own element (nowhere outside was free). */
  inside: boolean
}

/** Badge text size in image pixels: legible in a 1280×800 image without hiding much of the page. */
export const BADGE_FONT_PX = 12
export const BADGE_HEIGHT = 16
/** The cell of one character of the monospace badge font at BADGE_FONT_PX (its advance is 7.2 px), and the padding around the text. */
export const CHAR_WIDTH = 8
const PADDING = 3
/** Gap between a badge and its element's box. */
const GAP = 1
/** Steps down the image a badge may be moved to find a free place, when every spot beside its element is taken. */
const MAX_SHIFTS = 40

export function badgeWidth(id: string): number {
  return id.length * CHAR_WIDTH + 2 * PADDING
}

/**
 * Places one badge per element, in the given order (the request's order, so the first elements get
 * the best spots). Spots beside the box are tried in turn: above it at its left edge, left of it,
 * above at its right edge, right of it, below it; the first that is inside the image and free of
 * other badges wins, preferring one that covers no other element. When none is free, the badge moves
 * down from its first spot until it is; only when that fails too does it go over its own element.
 */
export function placeBadges(elements: readonly { id: string; box: Rect }[], image: { width: number; height: number }): Badge[] {
  const placed: Badge[] = []
  const boxes = elements.map((element) => element.box)
  for (const { id, box } of elements) {
    const width = badgeWidth(id)
    const spots = spotsBeside(box, width).map((spot) => clampInto(spot, image))
    const free = spots.filter((spot) => !overlapsAny(spot, placed) && !overlaps(spot, box))
    const clear = free.find((spot) => !boxes.some((other) => other !== box && overlaps(spot, other)))
    const chosen = clear ?? free[0] ?? shiftDown(spots[0]!, placed, box, image)
    placed.push({ id, ...chosen, target: box, inside: !clear && !free[0] && overlaps(chosen, box) })
  }
  return placed
}

function spotsBeside(box: Rect, width: number): Rect[] {
  const h = BADGE_HEIGHT
  return [
    { x: box.x, y: box.y - h - GAP, width, height: h },
    { x: box.x - width - GAP, y: box.y, width, height: h },
    { x: box.x + box.width - width, y: box.y - h - GAP, width, height: h },
    { x: box.x + box.width + GAP, y: box.y, width, height: h },
    { x: box.x, y: box.y + box.height + GAP, width, height: h },
  ]
}

/** Moves `spot` down a badge's height at a time until it covers no badge (nor, if possible, its own element). */
function shiftDown(spot: Rect, placed: readonly Badge[], own: Rect, image: { width: number; height: number }): Rect {
  let fallback: Rect | undefined
  for (let step = 0; step <= MAX_SHIFTS; step++) {
    const moved = clampInto({ ...spot, y: spot.y + step * (BADGE_HEIGHT + GAP) }, image)
    if (overlapsAny(moved, placed)) continue
    if (!overlaps(moved, own)) return moved
    fallback ??= moved
  }
  return fallback ?? clampInto(spot, image)
}

function clampInto(spot: Rect, image: { width: number; height: number }): Rect {
  return {
    ...spot,
    x: Math.round(Math.min(Math.max(0, spot.x), Math.max(0, image.width - spot.width))),
    y: Math.round(Math.min(Math.max(0, spot.y), Math.max(0, image.height - spot.height))),
  }
}

function overlapsAny(spot: Rect, badges: readonly Rect[]): boolean {
  return badges.some((badge) => overlaps(spot, badge))
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}
