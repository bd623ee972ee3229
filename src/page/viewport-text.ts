import { localNameOf, parentElementOf, rangeBox } from './dom-safe.ts'
import { boxed, boxless, boxOf, placement, rendered, vh, vw } from './layout.ts'
import { centre, round } from './visibility.ts'
import { legible } from './legible.ts'
import { BLOCK_TAGS, collapse, shorten } from './text.ts'
import type { RawBlocker } from './types.ts'

// The visible text of the viewport in document order, read from the text nodes the observe walk
// found, with CAPTCHA-like wording flagged as a blocker where it appears.

const CAPTCHA =
  /\b(re|h)?captcha\b|i['’]?m not a robot|are you (a )?(human|robot)|verify (that )?you(['’]re| are) (a )?human|human verification|prove you(['’]re| are) (a )?human|press (&|and) hold|checking (if the site connection is secure|your browser)|unusual traffic/i

export interface ViewportText {
  text: string
  /** The elements that hold visible text (their scroll containers are offered too). */
  holders: Element[]
  captcha: RawBlocker | null
}

export function viewportText(texts: Text[], textLimit: number): ViewportText {
  let text = ''
  const holders: Element[] = []
  // Per parent element: 0 not visible, 1 partly in the viewport, 2 wholly in it.
  const parentSeen = new Map<Element, number>()
  const range = document.createRange()
  let captcha: RawBlocker | null = null
  let previous: { parent: Element; endsInSpace: boolean } | null = null
  for (const node of texts) {
    if (text.length >= textLimit) break
    const parent = node.parentElement
    if (!parent) continue
    let seen = parentSeen.get(parent)
    // Most of a long page's texts are where the viewport watch placed outside it: passed over first.
    if (seen === undefined) {
      const placed = placement(parent)
      if (placed === 'out' || placed === 'none') continue
    }
    const data = node.data
    if (!/\S/.test(data)) continue
    if (seen === undefined) {
      const rect = boxOf(parent)
      if (rect.width === 0 && rect.height === 0 && boxless(parent)) {
        // No box of its own: judge the text by its own box and the nearest ancestor that has one.
        const holder = boxed(parent)
        seen = holder && rendered(holder) && legible(parent) ? 1 : 0
      } else {
        const inside = rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.right > 0 && rect.top < vh && rect.left < vw
        seen = !inside || !rendered(parent) || !legible(parent) ? 0 : rect.top >= 0 && rect.left >= 0 && rect.bottom <= vh && rect.right <= vw ? 2 : 1
      }
      parentSeen.set(parent, seen)
      if (seen) holders.push(parent)
    }
    if (!seen) continue
    if (seen === 1) {
      range.selectNodeContents(node)
      const box = rangeBox(range)
      if (box.width <= 0 || box.bottom <= 0 || box.top >= vh || box.right <= 0 || box.left >= vw) continue
    }
    const piece = collapse(data)
    // Split inline runs ("Hel<b>lo</b>") stay joined; anything else is separated by a space.
    const joined =
      previous !== null &&
      !previous.endsInSpace &&
      !/^\s/.test(data) &&
      (previous.parent === parent ||
        (parentElementOf(parent) === previous.parent && !BLOCK_TAGS.has(localNameOf(parent))) ||
        (parentElementOf(previous.parent) === parent && !BLOCK_TAGS.has(localNameOf(previous.parent))))
    text += joined || !text ? piece : ` ${piece}`
    previous = { parent, endsInSpace: /\s$/.test(data) }
    if (!captcha && CAPTCHA.test(piece)) {
      const box = boxOf(parent)
      captcha = { kind: 'captcha', text: shorten(piece, 80), rect: round(box), at: centre(box) ?? [0, 0] }
    }
  }
  text = shorten(text, textLimit)
  if (!captcha) {
    const match = CAPTCHA.exec(text)
    if (match) captcha = { kind: 'captcha', text: match[0], rect: { x: 0, y: 0, width: vw, height: vh }, at: [vw >> 1, vh >> 1] }
  }
  return { text, holders, captcha }
}
