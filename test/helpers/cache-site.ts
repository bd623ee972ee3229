import { createServer, type Server } from 'node:http'
import type { TestFn } from 'ava'
import { isVariant, render, VARIANTS, type Variant } from '../fixtures/cache-site/templates.ts'

export { VARIANTS, type Variant } from '../fixtures/cache-site/templates.ts'

// The cache-site (test/fixtures/cache-site) on a loopback port: three templates with many pages each,
// for the replay cache's tests and `npm run bench:cache`.
//
//   /category/:n[?page=p]    a list: a "Sort by" select, items linking to products, "Next page"
//   /product/:n              a product: name, price, a "Size" select, "Add to cart" (status, cart count)
//   /search?store=n[&q=…]    a search form ("Search products", "Search"); results at ?q=…
//
// Variants (templates.ts says what each one changes) come from the server, for every request
// (`variants`, settable between requests), and from the request, `?variant=ids,renamed`, which
// every link and form of the page then carries on. Both apply together.

export interface CacheSite {
  /** `http://127.0.0.1:<port>` */
  origin: string
  url(path: string): string
  /** The variants applied to every request from now on. */
  variants: Variant[]
  /** Paths and queries requested, in order (favicon requests left out). */
  readonly requests: string[]
  close(): Promise<void>
}

export async function serveCacheSite(options: { variants?: Variant[] } = {}): Promise<CacheSite> {
  const requests: string[] = []
  const site = { variants: [...(options.variants ?? [])] }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end()
    requests.push(`${url.pathname}${url.search}`)
    const asked = (url.searchParams.get('variant') ?? '').split(',').map((value) => value.trim()).filter(Boolean)
    const unknown = asked.find((value) => !isVariant(value))
    if (unknown !== undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`unknown variant "${unknown}" (known: ${VARIANTS.join(', ')})`)
      return
    }
    const carry = new URLSearchParams(asked.length > 0 ? { variant: asked.join(',') } : {})
    const variants = new Set<Variant>([...site.variants, ...(asked as Variant[])])
    const page = render(url, { variants, carry })
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page.html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || !address) throw new Error('The cache-site has no TCP address')
  const origin = `http://127.0.0.1:${address.port}`
  return {
    origin,
    url: (path) => new URL(path, `${origin}/`).href,
    get variants() {
      return site.variants
    },
    set variants(value: Variant[]) {
      site.variants = [...value]
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The cache-site for a test file: started before its first test, closed after its last. */
export function useCacheSite(test: TestFn, options: { variants?: Variant[] } = {}): { readonly site: CacheSite } {
  let site: CacheSite | undefined
  test.before(async () => {
    site = await serveCacheSite(options)
  })
  test.after.always(async () => {
    await site?.close()
  })
  return {
    get site() {
      if (!site) throw new Error('The cache-site starts in test.before; use it inside tests.')
      return site
    },
  }
}
