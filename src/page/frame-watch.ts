import { noteBusy, type BusyRegions } from './busy-regions.ts'
import { nodeTypeOf } from './dom-safe.ts'
import { boxless, type Placement } from './layout.ts'
import type { Found, KeptWalk } from './page-walk.ts'

// What one observation of a document hands the next, kept on the document in our isolated world (the
// page cannot see it):
// - the last walk, and a MutationObserver's roots of the subtrees that changed since, so the next
//   walk re-reads only those;
// - an IntersectionObserver (rooted at the document: the frame's own viewport) following the nodes
//   of the walk, so the next observation reads the box only of nodes the browser last found in the
//   viewport. Its answers are used only when a frame was drawn after the last change this side knows
//   of (a mutation, an event that moves or restyles things, a scroll, a resize), the frame in which
//   the browser brought them up to date; otherwise, and for a node it has not reported yet, the box
//   is read as before. What it says only ever spares a box read: a node it places in the viewport is
//   still measured;
// - when the document was last observed, and when regions became `aria-busy` (the same mutation
//   records), for the wait for DOM quiet after an input.

export interface FrameWatch {
  walk: KeptWalk | undefined
  /** Roots of the subtrees changed since the last walk; 'all' once there were too many to keep. */
  changed: Set<Element> | 'all'
  /** Nodes left the document since the last walk: its lists hold some that are gone. */
  removed: boolean
  placements: WeakMap<Element, Placement>
  followed: WeakSet<Element>
  followedCount: number
  /** Absent where the engine has none (jsdom): every box is read. */
  viewport: IntersectionObserver | undefined
  mutations: MutationObserver
  /** Open shadow roots the mutation observer watches too: it does not see into them from the document. */
  shadowRoots: WeakSet<ShadowRoot>
  /** When the last mutation was seen (performance.now()), and how many were, for the wait for DOM quiet. */
  mutatedAt: number
  mutationCount: number
  /** Regions seen becoming `aria-busy`, for the wait for DOM quiet. */
  busy: BusyRegions
  /** When the document was last observed (performance.now()), oldest first. */
  observedAt: number[]
  /** Bumped by every change seen; a drawn frame catches up with it. */
  changes: number
  drawnAt: number
  /** Window scroll and size when the last frame was drawn. */
  drawn: string
  frameAsked: boolean
}

const KEY = Symbol.for('puppeteer-agent.frame-watch')
const MUTATIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true }
/**
 * Observation times kept: the one an input was decided on, and those made while it settles (an
 * observation is made ahead then).
 */
const OBSERVED_TIMES = 4
/** Changed roots kept between two observations: a page that never stops changing costs one whole walk, not a growing list. */
const MAX_CHANGED = 200
/** Nodes followed per document: past this, the rest are measured each time, as without a watch. */
const MAX_FOLLOWED = 50_000
/**
 * Events after which layout or what the page shows may differ with no mutation: a scroll, a resize,
 * an image or font that loaded, a field's value or checked state (CSS `:checked`), focus and hover
 * (`:focus-within`, `:hover`), transitions and animations, a `<details>` toggled.
 */
const CHANGE_EVENTS = [
  'scroll', 'resize', 'load', 'error', 'input', 'change', 'focusin', 'focusout', 'mouseover', 'mouseout',
  'transitionrun', 'transitionend', 'transitioncancel', 'animationstart', 'animationend', 'animationiteration', 'toggle',
]

/** The window's scroll and size: a reading taken before them is not one to trust after. */
export function viewState(): string {
  return `${window.scrollX},${window.scrollY},${window.innerWidth},${window.innerHeight}`
}

function place(watch: FrameWatch, entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    const box = entry.boundingClientRect
    const placement: Placement = entry.isIntersecting
      ? 'in'
      : box.width > 0 || box.height > 0
        ? 'out'
        : // Read here, off the observation's path: a `display: contents` parent has no box, yet its text shows.
          boxless(entry.target)
          ? 'contents'
          : 'none'
    watch.placements.set(entry.target, placement)
  }
}

function askFrame(watch: FrameWatch): void {
  watch.changes += 1
  if (watch.frameAsked) return
  if (!watch.viewport) return
  watch.frameAsked = true
  requestAnimationFrame(() => {
    watch.frameAsked = false
    // The browser updates intersections after the animation frame callbacks, in this same frame.
    watch.drawnAt = watch.changes
    watch.drawn = viewState()
  })
}

function changedRoot(watch: FrameWatch, record: MutationRecord): void {
  if (record.removedNodes.length) watch.removed = true
  if (watch.changed === 'all') return
  // A text that changed is walked again from its element: the walk keeps only texts with something to read.
  const target = record.type === 'characterData' ? record.target.parentElement : record.target
  if (!target) return
  if (nodeTypeOf(target) !== 1) {
    watch.changed = 'all'
    return
  }
  watch.changed.add(target as Element)
  if (watch.changed.size > MAX_CHANGED) watch.changed = 'all'
}

function noteMutations(watch: FrameWatch, records: MutationRecord[]): void {
  if (!records.length) return
  const now = performance.now()
  for (const record of records) {
    changedRoot(watch, record)
    noteBusy(watch.busy, record, now)
  }
  watch.mutatedAt = now
  watch.mutationCount += records.length
  askFrame(watch)
}

function startWatch(): FrameWatch {
  const mutations = new MutationObserver((records) => {
    noteMutations(watch, records)
  })
  const watch: FrameWatch = {
    walk: undefined,
    changed: 'all',
    removed: false,
    placements: new WeakMap(),
    followed: new WeakSet(),
    followedCount: 0,
    viewport: typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => place(watch, entries), { root: document }) : undefined,
    mutatedAt: -Infinity,
    mutationCount: 0,
    busy: new Map(),
    observedAt: [],
    changes: 1,
    drawnAt: 0,
    drawn: '',
    frameAsked: false,
    mutations,
    shadowRoots: new WeakSet(),
  }
  mutations.observe(document, MUTATIONS)
  for (const type of CHANGE_EVENTS) window.addEventListener(type, () => askFrame(watch), { capture: true, passive: true })
  askFrame(watch)
  return watch
}

/** The document's watch if it was observed already; undefined before its first observation. */
export function startedWatch(): FrameWatch | undefined {
  return (document as unknown as Record<symbol, FrameWatch | undefined>)[KEY]
}

/** The document's watch, started on its first observation. */
export function frameWatch(): FrameWatch {
  let watch = startedWatch()
  if (!watch) {
    watch = startWatch()
    Object.defineProperty(document, KEY, { value: watch })
  }
  return watch
}

/** The kept walk and what changed since, handing the watch over to the walk about to be made. */
export function takeChanges(watch: FrameWatch): { kept: KeptWalk | undefined; changed: Element[] | 'all'; removed: boolean } {
  noteMutations(watch, watch.mutations.takeRecords())
  const changed = watch.changed === 'all' ? 'all' : [...watch.changed]
  const removed = watch.removed
  watch.changed = new Set()
  watch.removed = false
  return { kept: watch.walk, changed, removed }
}

/**
 * The placements to trust in this call, or undefined: only when a frame was drawn after the last change
 * seen, with the window scrolled and sized as it is now.
 */
export function trustedPlacements(watch: FrameWatch): WeakMap<Element, Placement> | undefined {
  if (!watch.viewport) return undefined
  place(watch, watch.viewport.takeRecords())
  if (watch.drawnAt !== watch.changes || watch.drawn !== viewState()) return undefined
  return watch.placements
}

/** Whether no change was seen since the watch counted `changes`. */
export function nothingChangedSince(watch: FrameWatch, changes: number): boolean {
  noteMutations(watch, watch.mutations.takeRecords())
  return watch.changes === changes
}

/**
 * When the document last mutated and how many mutations it has seen, once it has been observed (its
 * watch sees into its shadow roots too); undefined before.
 */
export function mutationsSeen(): { at: number; count: number } | undefined {
  const watch = startedWatch()
  if (!watch) return undefined
  noteMutations(watch, watch.mutations.takeRecords())
  return { at: watch.mutatedAt, count: watch.mutationCount }
}

/** Notes that the document is observed now (performance.now()), keeping the last few times. */
export function noteObserved(watch: FrameWatch): void {
  watch.observedAt.push(performance.now())
  if (watch.observedAt.length > OBSERVED_TIMES) watch.observedAt.shift()
}

/** When the document was last observed before `time`; -Infinity when it was not. */
export function observedBefore(watch: FrameWatch, time: number): number {
  return watch.observedAt.findLast((at) => at < time) ?? -Infinity
}

/**
 * Keeps the walk, and follows the nodes it walked (all, or those of the subtrees walked again) in a
 * later task, so that following them costs this call nothing.
 */
export function keepWalk(watch: FrameWatch, walk: KeptWalk, walked: Found[]): void {
  watch.walk = walk
  for (const root of walk.shadowRoots) {
    if (watch.shadowRoots.has(root)) continue
    watch.shadowRoots.add(root)
    watch.mutations.observe(root, MUTATIONS)
  }
  if (walked.length) setTimeout(() => walked.forEach((found) => follow(watch, found)), 0)
}

function follow(watch: FrameWatch, found: Found): void {
  const viewport = watch.viewport
  if (!viewport) return
  const add = (el: Element | null) => {
    if (!el || watch.followed.has(el) || watch.followedCount >= MAX_FOLLOWED) return
    watch.followed.add(el)
    watch.followedCount += 1
    viewport.observe(el)
  }
  for (const el of found.candidates) add(el)
  for (const el of found.labels) add(el)
  for (const el of found.leaves) add(el)
  for (const text of found.texts) add(text.parentElement)
}
