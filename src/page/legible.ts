import { nodeTypeOf } from './dom-safe.ts'
import { composedParent } from './dom.ts'
import { boxOf, callCache, remembered } from './layout.ts'

// Whether text a parent renders is text a person can read. `rendered` (checkVisibility) passes text
// that is drawn yet unreadable: a page can put "Order complete" in the viewport's text in a
// transparent colour, a 1 px font, at opacity 0.02, or clipped to 1 px as screen-reader text, and the
// agent would take it for what the page says.

/** Below this font size (px) text is a dot, not a word. */
const MIN_FONT_PX = 5
/** Below this alpha, of the colour or of the opacity of the text and its ancestors, text is not seen. */
const MIN_ALPHA = 0.1

interface Fade {
  /** The product of the element's and its ancestors' opacity. */
  opacity: number
  /** The element or an ancestor clips what it holds to a box of at most 1 px in width or height. */
  clipped: boolean
  /** The element or an ancestor paints its background through its text (`background-clip: text`). */
  paintsText: boolean
}

const fades = callCache<Element, Fade>()

/** Whether a person can read the text `parent` holds (it is known to be rendered and in the viewport). */
export function legible(parent: Element): boolean {
  const style = getComputedStyle(parent)
  if (numberOr(style.fontSize, MIN_FONT_PX) < MIN_FONT_PX) return false
  const fade = fadeOf(parent)
  if (fade.opacity < MIN_ALPHA || fade.clipped) return false
  // Gradient headings paint a background through transparent text: that text is seen.
  return alphaOf(style.color) >= MIN_ALPHA || fade.paintsText
}

function fadeOf(el: Element): Fade {
  return remembered(fades, el, () => {
    const parent = composedParent(el)
    const above: Fade = parent && nodeTypeOf(parent) === 1 ? fadeOf(parent as Element) : { opacity: 1, clipped: false, paintsText: false }
    const style = getComputedStyle(el)
    const clips = /hidden|clip|scroll|auto/.test(style.overflow) || /rect/.test(style.clip)
    const box = boxOf(el)
    return {
      opacity: above.opacity * numberOr(style.opacity, 1),
      clipped: above.clipped || (clips && (box.width <= 1 || box.height <= 1)),
      paintsText: above.paintsText || style.backgroundClip === 'text' || style.getPropertyValue('-webkit-background-clip') === 'text',
    }
  })
}

/** A computed length or number; `fallback` where the engine gives none (jsdom leaves most styles empty). */
function numberOr(value: string, fallback: number): number {
  const number = parseFloat(value)
  return Number.isNaN(number) ? fallback : number
}

/** The alpha of a computed colour (`rgba(0, 0, 0, 0)`, `color(srgb 0 0 0 / 0.5)`); 1 when it has none. */
function alphaOf(color: string): number {
  const match = /rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\s*\)/.exec(color) ?? /\/\s*([\d.]+)(%?)\s*\)\s*$/.exec(color)
  if (!match) return 1
  const value = parseFloat(match[1]!)
  return match[2] === '%' ? value / 100 : value
}
