// How a rule reads a value out of the page's JSON-LD (`<script type="application/ld+json">`), as
// data only: the scripts' text goes through JSON.parse and nothing else, so nothing in it runs, and
// text that is not JSON is skipped. The path syntax is src/page/json-path.ts's.

import { attributeOf, queryAll } from './dom-safe.ts'
import { parseSteps, readsEvery, valuesAt } from './json-path.ts'

export { JSON_LD_PATH } from './json-path.ts'

// Each script's parsed JSON for one run of the engine: every JSON-LD rule of a run reads the same scripts.
let parsed = new Map<Element, unknown>()

/** Called at the end of each run: scripts may change before the next, and their JSON need not stay in memory. */
export function forgetJsonLd(): void {
  parsed = new Map()
}

function parse(script: Element): unknown {
  if (!parsed.has(script)) {
    let value: unknown
    try {
      value = JSON.parse(script.textContent ?? '')
    } catch {
      value = undefined
    }
    parsed.set(script, value)
  }
  return parsed.get(script)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// "Product", and the same type written as an IRI: "schema:Product", "https://schema.org/Product".
function hasType(node: Record<string, unknown>, type: string): boolean {
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']]
  return types.some((name) => typeof name === 'string' && (name === type || name.endsWith(`/${type}`) || name.endsWith(`:${type}`)))
}

/** The first object of that @type, breadth first: top-level objects before the ones nested in them (in @graph, mainEntity…). */
function findType(root: unknown, type: string): Record<string, unknown> | undefined {
  // A queue walked by index, not a recursion: JSON nested deep enough would overflow the stack.
  const queue: unknown[] = [root]
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]
    // One push at a time: spreading a list of many thousand items would pass too many arguments.
    if (Array.isArray(node)) {
      for (const item of node) queue.push(item)
    } else if (isObject(node)) {
      if (hasType(node, type)) return node
      for (const key of Object.keys(node)) queue.push(node[key])
    }
  }
  return undefined
}

/**
 * The values at `path` in the JSON-LD inside `scope`: from the first script with an object of the
 * path's type that has any. One value, or with `[]` in the path every item's, in order.
 */
export function readJsonLd(scope: ParentNode, path: string): (string | number | boolean)[] {
  const [type, ...rest] = path.split('.')
  const steps = parseSteps(rest.join('.'))
  for (const script of queryAll(scope, 'script')) {
    if ((attributeOf(script, 'type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue
    const start = findType(parse(script), type!)
    if (start === undefined) continue
    const values = valuesAt(start, steps)
    if (values.length) return readsEvery(path) ? values : values.slice(0, 1)
  }
  return []
}
