// The nodes an observation offers that Node holds no handle for yet. The report goes back as a string,
// so that Node reads it with the call's answer and decides on it at once; the nodes wait here, under
// the report's key, until Node takes them as handles while the model thinks.

const KEY = Symbol.for('puppeteer-agent.sent-nodes')
/**
 * Reports whose nodes are kept per document. Node takes each report's nodes right after it; one it
 * never asks for (the run ended, the frame was left out) is dropped once newer ones come.
 */
const KEPT_REPORTS = 4

function kept(): Map<string, Element[]> {
  const slot = document as unknown as Record<symbol, Map<string, Element[]> | undefined>
  return (slot[KEY] ??= new Map())
}

/** Keeps `nodes` for `key`, replacing what an earlier call of the same key kept. */
export function keepSentNodes(key: string, nodes: Element[]): void {
  const map = kept()
  map.delete(key)
  if (!nodes.length) return
  map.set(key, nodes)
  for (const oldest of map.keys()) {
    if (map.size <= KEPT_REPORTS) break
    map.delete(oldest)
  }
}

/** The nodes kept for `key`, in report order, given once; none when they were dropped or the document is another. */
export function takeSentNodes(key: string): Element[] {
  const map = kept()
  const nodes = map.get(key) ?? []
  map.delete(key)
  return nodes
}
