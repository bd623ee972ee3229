// Persistent node IDs: one registry per document, kept on the document object of our isolated world
// (the page cannot see it), so the same node keeps its ID across observations and a new document
// gets a new token.

const KEY = Symbol.for('puppeteer-agent.collector')

export interface Registry {
  doc: string
  ids: WeakMap<Element, string>
  next: number
}

/** The document's registry; made with `token` when it has none yet (observe), else undefined (check). */
export function registry(token: string | null): Registry | undefined {
  const holder = document as unknown as Record<symbol, Registry | undefined>
  let found = holder[KEY]
  if (!found && token) {
    found = { doc: token, ids: new WeakMap(), next: 1 }
    Object.defineProperty(document, KEY, { value: found })
  }
  return found
}

/** The node's ID in `reg`, given one when it has none. */
export function nodeIdOf(reg: Registry, el: Element): string {
  let id = reg.ids.get(el)
  if (!id) {
    id = `${reg.doc}:${reg.next++}`
    reg.ids.set(el, id)
  }
  return id
}
