import { createHash } from 'node:crypto'
import { clip } from '../clip.ts'
import { describeElement } from './describe-element.ts'
import type { Blocker, ObservedElement, ObservedFrame, Observation, ScrollTarget } from './observation.ts'
import type { Rect } from '../base/rect.ts'
import { CHALLENGE_FRAME } from '../page/challenge-frames.ts'
import type { FrameReport } from '../page/types.ts'
import { LIMITS } from './limits.ts'
import { nameByPosition } from './positional-names.ts'
import { numberAlike } from './alike-controls.ts'
import { dropSharedNearby } from './shared-nearby.ts'

// Joins the reports of every observed frame into one observation: frame-relative rectangles become
// top-page ones, unnamed controls are named by their place, snapshot IDs are handed out, and the
// caps and the character budget are applied.
// The title and the URLs come from the page whole (the page script clips only what it describes), so
// they are clipped here, where they enter the observation.

/** One frame's report, placed in the page. `H` is the handle type (an ElementHandle in Chrome). */
export interface PlacedFrame<H> {
  report: FrameReport
  frame: ObservedFrame
  /** Origin of this frame's viewport in the top page's viewport. */
  offset: { x: number; y: number }
  /** The iframe's content box in the top page (absent for the top document). */
  box?: Rect
  /** Per element, blocker and scroller of the report: whether the ancestor frames let it be seen. */
  seen: { elements: boolean[]; blockers: boolean[]; scrollers: boolean[] }
  elementHandles: H[]
  scrollHandles: H[]
}

export interface Merged<H> {
  observation: Observation
  handles: Map<string, H>
  scrollHandles: Map<string, H>
}

function shift(rect: Rect, offset: { x: number; y: number }): Rect {
  return { x: rect.x + offset.x, y: rect.y + offset.y, width: rect.width, height: rect.height }
}

function frameLabel(placed: PlacedFrame<unknown>, index: number): string {
  const title = placed.report.title.trim()
  let host = ''
  try {
    host = new URL(placed.report.url).host
  } catch {
    host = placed.report.url
  }
  return `[frame ${index}: ${(title || host).slice(0, 40)}]`
}

function joinText(frames: PlacedFrame<unknown>[]): string {
  const [top, ...children] = frames
  const parts = children
    .map((placed, i) => ({ label: frameLabel(placed, i + 1), text: placed.report.text }))
    .filter((part) => part.text)
    .map((part) => `${part.label} ${part.text.slice(0, LIMITS.frameTextShare)}`)
  const framesText = parts.join('\n')
  const room = Math.max(0, LIMITS.textLimit - framesText.length - (framesText ? 1 : 0))
  const topText = (top?.report.text ?? '').slice(0, room)
  return [topText, framesText].filter(Boolean).join('\n').slice(0, LIMITS.textLimit)
}

export function mergeFrames<H>(frames: PlacedFrame<H>[], popups: string[]): Merged<H> {
  const top = frames[0]
  if (!top) throw new Error('mergeFrames needs at least the top document')

  dropSharedNearby(frames)
  type Entry = { frame: number; index: number; element: ObservedElement; handle: H; cost: number }
  const entries: Entry[] = []
  let omitted = 0
  const omittedNames: string[] = []
  frames.forEach((placed, frame) => {
    omitted += placed.report.omitted
    omittedNames.push(...(placed.report.omittedNames ?? []))
    placed.report.elements.forEach((raw, index) => {
      const handle = placed.elementHandles[index]!
      if (!placed.seen.elements[index]) return
      const { at: _at, held: _held, nodeId, rect, fingerprint, options, ...description } = raw
      const element: ObservedElement = {
        id: '',
        nodeId,
        frame,
        ...description,
        ...(options ? { options: options.map((option, i) => ({ id: `o${i + 1}`, ...option })) } : {}),
        rect: shift(rect, placed.offset),
        fingerprint,
      }
      entries.push({ frame, index, element, handle, cost: 0 })
    })
  })
  nameByPosition(entries.map((entry) => entry.element))
  numberAlike(entries.map((entry) => entry.element))
  // As sent, with an ID as long as the longest handed out and its comma in the list.
  for (const entry of entries) entry.cost = JSON.stringify(describeElement({ ...entry.element, id: 'e000' })).length + 1

  // Which controls to keep when the cap or the budget binds: a few child-frame controls first, then the
  // top document in order, then the rest of the frames.
  const fromFrames = entries.filter((entry) => entry.frame > 0)
  const priority = [
    ...fromFrames.slice(0, LIMITS.frameReserve),
    ...entries.filter((entry) => entry.frame === 0),
    ...fromFrames.slice(LIMITS.frameReserve),
  ]
  const kept = new Set<Entry>()
  let spent = 0
  for (const entry of priority) {
    if (kept.size >= LIMITS.maxElements || spent + entry.cost > LIMITS.elementBudget) break
    kept.add(entry)
    spent += entry.cost
  }
  omitted += entries.length - kept.size

  const handles = new Map<string, H>()
  const elements: ObservedElement[] = []
  for (const entry of entries) {
    if (!kept.has(entry)) continue
    entry.element.id = `e${elements.length + 1}`
    elements.push(entry.element)
    handles.set(entry.element.id, entry.handle)
  }

  const blockers: Blocker[] = []
  frames.forEach((placed, frame) => {
    placed.report.blockers.forEach((raw, index) => {
      if (!placed.seen.blockers[index]) return
      blockers.push({ kind: raw.kind, frame, ...(raw.text ? { text: raw.text } : {}), rect: shift(raw.rect, placed.offset) })
    })
    if (frame > 0 && placed.box && CHALLENGE_FRAME.test(placed.report.url) && !blockers.some((b) => b.frame === frame && b.kind === 'captcha')) {
      blockers.push({ kind: 'captcha', frame, text: placed.report.url.slice(0, 80), rect: placed.box })
    }
  })

  const scroll: ScrollTarget[] = [{ id: 'page', name: 'page', up: top.report.scroll.up, down: top.report.scroll.down }]
  const scrollHandles = new Map<string, H>()
  frames.forEach((placed) => {
    placed.report.scrollers.forEach((raw, index) => {
      const handle = placed.scrollHandles[index]!
      if (!placed.seen.scrollers[index] || scrollHandles.size >= LIMITS.maxScrollers) return
      const id = `s${scrollHandles.size + 1}`
      scroll.push({ id, name: raw.name, up: raw.up, down: raw.down })
      scrollHandles.set(id, handle)
    })
  })

  const text = joinText(frames)
  const observation: Observation = {
    url: clip(top.report.url, LIMITS.urlLimit),
    title: clip(top.report.title, LIMITS.titleLimit),
    text,
    elements,
    omitted,
    ...(omittedNames.length ? { omittedNames: omittedNames.slice(0, LIMITS.omittedNames) } : {}),
    blockers,
    scroll,
    frames: frames.map((placed) => ({ ...placed.frame, url: clip(placed.frame.url, LIMITS.urlLimit) })),
    popups: [...popups],
    signature: '',
  }
  observation.signature = signatureOf(observation, frames)
  return { observation, handles, scrollHandles }
}

/** URL, documents, scroll positions, text, and every offered control with what it shows. */
function signatureOf(observation: Observation, frames: PlacedFrame<unknown>[]): string {
  const digest = createHash('sha1')
  // The whole URL: two that differ only past the clip are still two places.
  digest.update(frames[0]!.report.url)
  for (const placed of frames) {
    digest.update(`\u0000${placed.report.doc}@${placed.report.scroll.x},${placed.report.scroll.y}`)
    for (const scroller of placed.report.scrollers) digest.update(`\u0000${scroller.name}@${scroller.top}`)
  }
  digest.update(`\u0000${observation.text}`)
  for (const element of observation.elements) digest.update(`\u0000${element.nodeId}:${element.fingerprint}`)
  for (const blocker of observation.blockers) digest.update(`\u0000${blocker.kind}@${blocker.frame}`)
  return digest.digest('base64url').slice(0, 16)
}
