import type { ElementHandle, Frame } from 'puppeteer-core'
import type { FrameReport } from '../page/types.ts'
import { callHandleInFrame } from '../browser/page-script.ts'
import { release, releaseLater } from './collector-memory.ts'

// A frame's report comes back as a string with the page script's answer; the nodes it offers that
// Node holds no handle for stay in the page (src/page/sent-nodes.ts) until they are taken here, after
// the observation has been handed on.

type Handle = ElementHandle<Element>

/** The handles of the nodes a frame's report offers, elements then scrollers in report order. */
export interface FrameHandles {
  elements: Handle[]
  scrollers: Handle[]
}

/**
 * The handles of the nodes `report` offers: the ones Node holds from `held`, the others taken from the
 * page, where its call kept them under `key` (one call, one read).
 */
export async function takeHandles(frame: Frame, report: FrameReport, key: string, held: Map<string, Handle>): Promise<FrameHandles> {
  const wanted = report.elements.filter((item) => !item.held).length + report.scrollers.filter((item) => !item.held).length
  const sent: Handle[] = []
  if (wanted) {
    const nodes = await callHandleInFrame(frame, 'takeSentNodes', key)
    try {
      const properties = await nodes.getProperties()
      for (const property of properties.values()) {
        const handle = property.asElement()
        if (handle) sent.push(handle as Handle)
        else void property.dispose().catch(() => {})
      }
    } finally {
      void nodes.dispose().catch(() => {})
    }
    if (sent.length !== wanted) {
      void release(sent)
      throw new Error(`The page gave ${sent.length} of the ${wanted} nodes its report offers in frame ${frame.url()}`)
    }
  }
  let next = 0
  const handleFor = (item: { nodeId: string; held?: true }): Handle => {
    const handle = item.held ? held.get(item.nodeId) : sent[next++]
    if (handle) return handle
    void release(sent)
    throw new Error(`No handle for node ${item.nodeId} in frame ${frame.url()}`)
  }
  const elements = report.elements.map(handleFor)
  // A field or list box that scrolls is an element and a scroller, sent twice: the snapshot keeps one
  // handle per node, so the element's serves both and the copy goes.
  const byNode = new Map(report.elements.map((element, i) => [element.nodeId, elements[i]!]))
  const copies: Handle[] = []
  const scrollers = report.scrollers.map((scroller) => {
    const handle = handleFor(scroller)
    const shared = byNode.get(scroller.nodeId)
    if (!shared || shared === handle) return handle
    copies.push(handle)
    return shared
  })
  releaseLater(() => release(copies))
  return { elements, scrollers }
}
