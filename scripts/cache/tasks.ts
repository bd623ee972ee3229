import type { ChecklistItem, Rules } from '../../types/index.d.ts'
import { category, product, search } from '../../test/fixtures/cache-site/catalog.ts'
import type { ScriptStep, SeenRequest } from '../../test/helpers/goal-scripted-model.ts'

// What bench:cache does on each template of the cache-site (test/fixtures/cache-site): one goal and
// one extraction, each the same text on every page of the template (the cache keys on it), a policy
// that plays the decision model, the rules a model would write, and a check of the data read.

export type Template = 'category' | 'product' | 'search'
export const TEMPLATES: readonly Template[] = ['category', 'product', 'search']

/** The typed value of the search goal. */
export const QUERY = 'trail shoes'

export interface Task {
  template: Template
  goal: string
  /** The caller's checklist: no request writes it, and a success is one the page verified. */
  checklist: ChecklistItem[]
  /** The decision model's next step, from what the request shows (so it can take over at any step). */
  policy(request: SeenRequest): ScriptStep
  instruction: string
  /** The rules the scripted text model writes for `instruction`. */
  rules: Rules
  /** Why the data read from page `n` is wrong, or undefined when it is right. */
  check(data: unknown, n: number): string | undefined
}

const has = (request: SeenRequest, name: string | RegExp) =>
  request.elements.some((element) => (typeof name === 'string' ? element.name === name : name.test(element.name)))
/** The element named `name` as the request describes it, with its value and selected options. */
function element(request: SeenRequest, name: string): { value?: string; options?: { label: string; selected?: true }[] } | undefined {
  return request.elements.find((candidate) => candidate.name === name) as ReturnType<typeof element>
}
const shows = (request: SeenRequest, text: string) => request.page.text.toLowerCase().includes(text.toLowerCase())

/** Answers a consent banner first, as a model would when it covers the page. */
function consentFirst(next: (request: SeenRequest) => ScriptStep): (request: SeenRequest) => ScriptStep {
  return (request) => (has(request, 'Reject all') ? { operation: 'CLICK', target: 'Reject all' } : next(request))
}

const itemRules: Rules = {
  name: { selector: 'a', attr: 'text' },
  price: { selector: '.price', attr: 'text', type: 'number' },
  link: { selector: 'a', attr: 'href', type: 'url' },
}

interface Listed {
  name: string
  price: number
  link: string
}

function checkList(items: unknown, expected: { name: string; cents: number; id: number }[], what: string): string | undefined {
  if (!Array.isArray(items)) return `${what}: not a list`
  if (items.length !== expected.length) return `${what}: ${items.length} read, ${expected.length} on the page`
  // By link, the one thing unique to an item (two items may share a name).
  const byLink = new Map(expected.map((item) => [`/product/${item.id}`, item]))
  for (const item of items as Listed[]) {
    const want = byLink.get(String(item?.link).replace(/^https?:\/\/[^/]+/, '').replace(/[?#].*$/, ''))
    if (!want) return `${what}: unexpected link ${JSON.stringify(item?.link)}`
    if (item.name !== want.name) return `${what}: ${JSON.stringify(item.name)} at ${item.link}, not ${JSON.stringify(want.name)}`
    if (item.price !== want.cents / 100) return `${what}: ${want.name} costs ${item.price}, not ${want.cents / 100}`
  }
  return undefined
}

export const TASKS: Record<Template, Task> = {
  category: {
    template: 'category',
    goal: 'Sort the list by price, lowest first',
    checklist: [{ description: 'The list is sorted by price, low to high', check: { kind: 'selected', control: 'Sort by', option: 'Price: low to high' } }],
    policy: consentFirst((request) =>
      shows(request, 'Sorted by Price: low to high') ? { operation: 'DONE' } : { operation: 'SELECT', target: 'Sort by', option: 'Price: low to high' },
    ),
    instruction: 'Every item of the list: its name, its price and the link to it',
    rules: { items: { selectorAll: '.item', attr: itemRules } },
    check: (data, n) => checkList((data as { items?: unknown })?.items, category(n, 1).items, 'items'),
  },
  product: {
    template: 'product',
    goal: 'Choose size M and add the product to the cart',
    checklist: [
      { description: 'Size M is chosen', check: { kind: 'selected', control: 'Size', option: 'M' } },
      { description: 'The product is in the cart', check: { kind: 'text_visible', text: 'Added to cart' } },
    ],
    policy: consentFirst((request) => {
      if (shows(request, 'Added to cart')) return { operation: 'DONE' }
      const size = element(request, 'Size')
      if (size && !size.options?.some((option) => option.label === 'M' && option.selected)) return { operation: 'SELECT', target: 'Size', option: 'M' }
      return { operation: 'CLICK', target: /^Add to (cart|basket)$/ }
    }),
    instruction: "The product's name, its price and the sizes on offer",
    rules: {
      name: { selector: 'h1', attr: 'text' },
      price: { selector: '.price', attr: 'text', type: 'number' },
      sizes: { selectorAll: 'select[name="size"] option[value]:not([value=""])', attr: 'text' },
    },
    check(data, n) {
      const want = product(n)
      const read = data as { name?: unknown; price?: unknown; sizes?: unknown }
      if (read?.name !== want.name) return `name ${JSON.stringify(read?.name)}, not ${JSON.stringify(want.name)}`
      if (read.price !== want.cents / 100) return `price ${JSON.stringify(read.price)}, not ${want.cents / 100}`
      if (JSON.stringify(read.sizes) !== '["S","M","L","XL"]') return `sizes ${JSON.stringify(read.sizes)}`
      return undefined
    },
  },
  search: {
    template: 'search',
    goal: `Search for "${QUERY}"`,
    checklist: [
      { description: `The search field holds "${QUERY}"`, check: { kind: 'field_value', field: 'Search products', value: QUERY } },
      { description: 'The results are shown', check: { kind: 'text_visible', text: `Results for ${QUERY}` } },
    ],
    policy: consentFirst((request) => {
      if (shows(request, `Results for ${QUERY}`)) return { operation: 'DONE' }
      if (element(request, 'Search products')?.value !== QUERY) return { operation: 'TYPE_TEXT', target: 'Search products' }
      return has(request, /^(Search|Find)$/) ? { operation: 'CLICK', target: /^(Search|Find)$/ } : { operation: 'SUBMIT', target: 'Search products' }
    }),
    instruction: 'Every search result: its name, its price and the link to it',
    rules: { results: { selectorAll: '.result', attr: itemRules } },
    check: (data, n) => checkList((data as { results?: unknown })?.results, search(n, QUERY), 'results'),
  },
}

export interface BenchPage {
  template: Template
  /** The page's number: the product or category id, the store of the search page. */
  n: number
  /** Path and query on the cache-site. */
  path: string
}

/** `count` pages, the templates in turn, each template's pages numbered from 1. */
export function benchPages(count: number): BenchPage[] {
  return Array.from({ length: count }, (_, index) => {
    const template = TEMPLATES[index % TEMPLATES.length]!
    const n = Math.floor(index / TEMPLATES.length) + 1
    const path = template === 'search' ? `/search?store=${n}` : `/${template}/${n}`
    return { template, n, path }
  })
}
