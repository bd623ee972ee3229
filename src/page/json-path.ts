// A path into parsed JSON, as data: dotted property names, `[n]` for the nth item of a list and `[]`
// for every item. One syntax for a JSON-LD rule's path after its type and for a `json` rule's path
// inside an attribute's JSON; also imported by the rules' validation in Node.

/** A property name in a path: no dot, bracket or space ("offers", "@id", "priceSpecification"). */
export const PATH_NAME = '[^\\s.\\[\\]]+'
const INDEX = '\\[\\d{0,4}\\]'
const STEPS = `${PATH_NAME}(?:${INDEX})*(?:\\.${PATH_NAME}(?:${INDEX})*)*`
/** A path inside JSON: "sku", "variants[0].sku", "offers[].price". */
export const JSON_PATH = new RegExp(`^${STEPS}$`)
/** A JSON-LD path: the @type to start from, then a path. "Product.offers.price", "Product.offers[].price". */
export const JSON_LD_PATH = new RegExp(`^${PATH_NAME}\\.${STEPS}$`)

/** `every` is `[]`: each item of the list goes on with the rest of the path. */
type Index = number | 'every'

interface Step {
  key: string
  indexes: Index[]
}

/** Whether the path reads every item of a list somewhere (`[]`), so it gives a list of values. */
export function readsEvery(path: string): boolean {
  return path.includes('[]')
}

export function parseSteps(path: string): Step[] {
  return path.split('.').map((part) => {
    const [key, ...indexes] = part.split('[')
    return { key: key!, indexes: indexes.map((index) => (index === ']' ? 'every' : Number(index.slice(0, -1)))) }
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function indexed(value: unknown, indexes: readonly Index[]): unknown[] {
  let current = [value]
  for (const index of indexes) {
    const next: unknown[] = []
    for (const item of current) {
      // A lone value stands for a list of one: sites write "offers" as an object or as a list of them.
      const list = Array.isArray(item) ? item : [item]
      if (index === 'every') for (const entry of list) next.push(entry)
      else if (index < list.length) next.push(list[index])
    }
    current = next
  }
  return current
}

/**
 * The scalars (text, number, true/false) at the path from `start`. A step into a list without an
 * index takes its first item; `[]` takes them all, so the path can give several values, in order.
 */
export function valuesAt(start: unknown, steps: readonly Step[]): (string | number | boolean)[] {
  let current: unknown[] = [start]
  for (const step of steps) {
    const next: unknown[] = []
    for (const value of current) {
      // Own properties only: "constructor" and the like must not reach the object's prototype.
      const child = isObject(value) && Object.hasOwn(value, step.key) ? value[step.key] : undefined
      for (const item of indexed(child, step.indexes)) next.push(Array.isArray(item) ? item[0] : item)
    }
    current = next
  }
  return current.filter((value): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
}
