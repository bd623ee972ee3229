import type { ElementHandle } from 'puppeteer-core'
import { callInFrame } from '../browser/page-script.ts'
import { readMove } from '../operations.ts'
import { outcomeOf, type ActionInput, type ActionOutcome } from './action.ts'
import { dragTarget, pointOf, type InputResult, type Point } from './guarded-input.ts'

// DRAG: the target is taken where a person takes it (a slider by its thumb) and released on another
// control (checked fresh as the target is) or a share of its track away. The press is guarded as a
// click's; the release is where the page's own drag code puts it.

export async function drag(input: ActionInput): Promise<ActionOutcome> {
  const { decision } = input
  if (!decision.to) throw new Error(`DRAG of ${String(decision.target)} needs a destination, and the decision has none.`)
  const source = await input.checkFreshness(input.snapshot, decision.target!)
  if (!source.fresh) return { acted: false, stale: source.reason }
  const from = await startOf(source.handle)
  if ('done' in from) return outcomeOf(from, source.handle)
  const to = await destinationOf(input, decision.to, from)
  if ('stale' in to) return { acted: false, stale: to.stale }
  input.signal?.throwIfAborted()
  return outcomeOf(await dragTarget(input.page, source.handle, from.point, to.point), source.handle)
}

interface Start {
  point: Point
  track: { width: number; height: number }
}

async function startOf(handle: ElementHandle<Element>): Promise<Start | InputResult> {
  const centre = await pointOf(handle, 'drag')
  if ('done' in centre) return centre
  const box = await handle.boundingBox()
  const geometry = await callInFrame(handle.frame, 'dragGeometry', handle)
  if (!box) return { point: centre, track: geometry.track }
  return { point: { x: box.x + box.width * geometry.at[0], y: box.y + box.height * geometry.at[1] }, track: geometry.track }
}

async function destinationOf(input: ActionInput, to: string, from: Start): Promise<{ point: Point } | { stale: string }> {
  const move = readMove(to)
  if (move) return { point: { x: from.point.x + move.dx * move.share * from.track.width, y: from.point.y + move.dy * move.share * from.track.height } }
  if (!input.snapshot.observation.elements.some((element) => element.id === to)) {
    throw new Error(`DRAG chose the destination ${to}, which is neither an element of this observation nor a move.`)
  }
  const target = await input.checkFreshness(input.snapshot, to)
  if (!target.fresh) return { stale: `the destination: ${target.reason}` }
  const point = await pointOf(target.handle, 'drop')
  return 'done' in point ? { stale: `the destination: ${'stale' in point ? point.stale : 'not located'}` } : { point }
}
