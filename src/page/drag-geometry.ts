import { attributeOf, boundingBox, localNameOf, parentElementOf } from './dom-safe.ts'
import { inputType } from './dom.ts'

// Where a drag takes hold of a control and how far its moves reach: a slider is taken by its thumb
// and moved along its track; anything else is taken at its centre and moved by its own size.

export interface DragGeometry {
  /** Where to press, as fractions of the element's box (0.5, 0.5: its centre). */
  at: [number, number]
  /** The length a move's share is of, in CSS pixels: the track's for a slider, else the element's. */
  track: { width: number; height: number }
}

function fraction(value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || !(max > min)) return 0.5
  return Math.min(1, Math.max(0, (value - min) / (max - min)))
}

export function dragGeometry(el: Element): DragGeometry {
  const box = boundingBox(el)
  if (localNameOf(el) === 'input' && inputType(el) === 'range') {
    const range = el as HTMLInputElement
    const share = fraction(Number(range.value), Number(range.min || 0), Number(range.max || 100))
    const vertical = box.height > box.width
    // The thumb sits at the value's share of the track (bottom to top when upright).
    return { at: vertical ? [0.5, 1 - share] : [share, 0.5], track: { width: box.width, height: box.height } }
  }
  if (attributeOf(el, 'role') === 'slider') {
    // An ARIA slider is usually its thumb: the track is the parent box that is longer than it.
    const holder = parentElementOf(el)
    const parent = holder ? boundingBox(holder) : undefined
    const track = parent && (parent.width > box.width * 2 || parent.height > box.height * 2) ? parent : box
    return { at: [0.5, 0.5], track: { width: track.width, height: track.height } }
  }
  return { at: [0.5, 0.5], track: { width: box.width, height: box.height } }
}
