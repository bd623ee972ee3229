// The jobs bench:workers sends: the generated shop of the Crawlee example (examples/crawlee/site.js),
// a product page to extract with complete rules for most jobs, and on each category's first page the
// goal of sorting it by price, on the offline local models. Every run gets ids of its own, so no job
// is taken for one enqueued before.
import type { JobInput } from '../../types/queue.d.ts'

const LOCAL = { decisions: 'local', text: 'local', evaluator: 'local' } as const

export const PRODUCT_RULES = {
  name: { selector: 'h1', attr: 'text', type: 'string' },
  price: { selector: '.price', attr: 'text', type: 'number' },
  stock: { selector: '.stock', attr: 'text', type: 'string' },
  sku: { selector: '.sku span', attr: 'text', type: 'string' },
  specs: { selectorAll: '.specs div', attr: { name: { selector: 'dt', attr: 'text' }, value: { selector: 'dd', attr: 'text' } } },
} as const

export const SORT_GOAL = 'Sort the products by lowest price first'

interface Shop {
  url: string
  shop: { path: string; products: { path: string; name: string; price: number }[] }[]
}

/** `count` jobs for run `run`: one sort goal per category first (as far as they go), then products in turn. */
export function shopJobs(site: Shop, count: number, run: string): JobInput[] {
  const origin = site.url.replace(/\/$/, '')
  const goals = site.shop.map((category, c) => ({
    id: `${run}-sort-${c}`,
    url: `${origin}${category.path}`,
    goals: [SORT_GOAL],
    extract: { rules: { cheapest: { selector: '.products li .price', attr: 'text', type: 'number' as const } } },
    options: LOCAL,
    repeatable: true,
  }))
  const products = site.shop.flatMap((category) => category.products)
  const pages = Array.from({ length: Math.max(0, count - goals.length) }, (_, n) => ({
    id: `${run}-product-${n}`,
    url: `${origin}${products[n % products.length]!.path}`,
    extract: { rules: PRODUCT_RULES },
  }))
  return [...goals.slice(0, count), ...pages]
}

/** What a product job must have read: its name and price, from the generator. */
export function expectedProduct(site: Shop, url: string): { name: string; price: number } | undefined {
  const path = new URL(url).pathname
  const product = site.shop.flatMap((category) => category.products).find((entry) => entry.path === path)
  return product && { name: product.name, price: product.price }
}
