// How a rule reads a value out of the page's JSON-LD (`<script type="application/ld+json">`), as
// data only: the scripts' text goes through JSON.parse and nothing else, so nothing in it runs, and
// text that is not JSON is skipped. Also imported by the rules' validation in Node, so the path
// syntax is defined once.

/** A name in a path: a schema.org type or a property ("offers", "@id", "priceSpecification"). */
const NAME = '[^\\s.\\[\\]]+'
/**
 * A path: the @type of the object to start from, then its properties, dotted; `[n]` picks the nth
 * element of a list (a step into a list without it takes the first). "Product.offers.price",
 * "Product.image[1]", "BreadcrumbList.itemListElement[2].name".
 */
export const JSON_LD_PATH = new RegExp(`^${NAME}(?:\\.${NAME}(?:\\[\\d{1,4}\\])*)+$`)

interface Step {
  key: string
  indexes: number[]
}

function parsePath(path: string): { type: string; steps: Step[] } {
  const [type, ...rest] = path.split('.')
  const steps = rest.map((part) => {
    const [key, ...indexes] = part.split('[')
    return { key, indexes: indexes.map((index) => Number(index.slice(0, -1))) }
  })
  return { type, steps }
}

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

function step(value: unknown, { key, indexes }: Step): unknown {
  // Own properties only: "constructor" and the like must not reach the object's prototype.
  let next = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
  for (const index of indexes) {
    // A lone value stands for a list of one: sites write "offers" as an object or as a list of them.
    next = Array.isArray(next) ? next[index] : index === 0 ? next : undefined
  }
  return Array.isArray(next) ? next[0] : next
}

/** The text, number or true/false at `path` in the JSON-LD inside `scope`, or undefined when no script has one. */
export function readJsonLd(scope: ParentNode, path: string): string | number | boolean | undefined {
  const { type, steps } = parsePath(path)
  for (const script of scope.querySelectorAll('script')) {
    if ((script.getAttribute('type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue
    const start = findType(parse(script), type)
    if (start === undefined) continue
    const value = steps.reduce<unknown>(step, start)
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  }
  return undefined
}
