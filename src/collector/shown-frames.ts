import type { ElementHandle, Frame } from 'puppeteer-core'
import { callInFrame } from '../browser/page-script.ts'
import { ownerOf, type CollectorMemory } from './collector-memory.ts'

// The frames an observation goes into: a child frame whose iframe the parent does not show in its
// viewport (an empty, hidden or scrolled-away ad slot) is not observed, nor anything inside it. Its
// report would be dropped when the frames are merged; observing it anyway made a page with fifteen
// hidden ad frames take twice as long to observe. Each parent is asked once, for all its iframes.

export interface FrameNode<T> {
  frame: Frame
  parent: T | undefined
  children: T[]
}

/** Which of `parent`'s children it shows; a child whose iframe cannot be judged counts as shown. */
async function shownChildren<T extends FrameNode<T>>(memory: CollectorMemory, parent: T): Promise<Set<T>> {
  const owners = await Promise.all(parent.children.map((child) => ownerOf(memory, child.frame)))
  const judged = parent.children.filter((_, i) => owners[i])
  const shown = new Set(parent.children.filter((_, i) => !owners[i]))
  if (judged.length === 0) return shown
  const handles = owners.filter((owner): owner is ElementHandle<Element> => owner !== null)
  // A document replaced meanwhile: each child is observed as before, and left out there if it must be.
  const answers = await callInFrame(parent.frame, 'framesShown', ...handles).catch(() => judged.map(() => true))
  judged.forEach((child, i) => {
    if (answers[i] !== false) shown.add(child)
  })
  return shown
}

/**
 * `runs` (parents before their children) but the frames not shown and what is inside them. Asked
 * level by level, so that a frame left out is never asked about its own iframes.
 */
export async function shownFrames<T extends FrameNode<T>>(memory: CollectorMemory, runs: T[]): Promise<T[]> {
  const hidden = new Set<T>()
  let level = runs.filter((run) => run.parent === undefined)
  while (level.length > 0) {
    const parents = level.filter((run) => run.children.length > 0)
    const shown = await Promise.all(parents.map((parent) => shownChildren(memory, parent)))
    level = []
    parents.forEach((parent, i) => {
      for (const child of parent.children) {
        if (shown[i]!.has(child)) level.push(child)
        else hidden.add(child)
      }
    })
  }
  if (hidden.size === 0) return runs
  const kept = runs.filter((run) => {
    for (let at: T | undefined = run; at; at = at.parent) if (hidden.has(at)) return false
    return true
  })
  for (const run of kept) run.children = run.children.filter((child) => !hidden.has(child))
  return kept
}
