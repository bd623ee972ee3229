import test from 'ava'
import { OUTLINE_LIMITS, type PageOutline } from '../src/extract/page-outline.ts'
import { isGeneratedName } from '../src/page/generated-names.ts'
import { BIG_PRODUCT_PAGE } from './fixtures/outline/big-product-page.ts'
import { callInDom, makeDom } from './helpers/jsdom.ts'

// Item 8 of issue 15: the outline is dense, shows the main content first and includes the metadata.

const ONCE = { ...OUTLINE_LIMITS, maxWaitMs: 0 }

async function outline(html: string, limits = ONCE): Promise<PageOutline> {
  const dom = makeDom(html, { url: 'http://127.0.0.1/p/trail' })
  try {
    return await callInDom(dom, 'outline', limits)
  } finally {
    dom.window.close()
  }
}

/** Share of the outline that is the elements' own text (the quoted text ending a line). */
function textShare(text: string): number {
  let chars = 0
  for (const line of text.split('\n')) chars += (/ "((?:[^"\\]|\\.)*)"$/.exec(line)?.[1] ?? '').length
  return chars / text.length
}

const TITLE = '2 h1.product-title[itemprop="name"] "Trail Runner Pro"'
const PRICE = '3 span.price[data-testid="price"] "89,90 €"'
const ADD_TO_CART = '2 button.add-to-cart[type="button"][data-testid="add-to-cart"] "Add to cart"'

test('a large product page: title, price and add-to-cart are in the outline, within the bound', async (t) => {
  const { outline: text } = await outline(BIG_PRODUCT_PAGE)
  const lines = text.split('\n')
  // Taken in document order at two spaces a level, this page was cut at 60,000 characters inside the menu.
  t.true(text.length <= OUTLINE_LIMITS.maxChars)
  for (const line of [TITLE, PRICE, ADD_TO_CART]) t.true(lines.includes(line), line)
  t.false(lines.some((line) => line.startsWith(' ')), 'no indentation')
  t.true(textShare(text) > 0.1, `text share ${textShare(text)}`)
  t.false(/css-|sc-|Menu_item__/.test(text), 'generated class names are left out')
  // An icon's shapes are not outlined.
  t.false(text.includes('path'))
})

test('the main content comes before the header, so a tight cap still holds the product', async (t) => {
  const { outline: text } = await outline(BIG_PRODUCT_PAGE, { ...ONCE, maxChars: 3_000 })
  const lines = text.split('\n')
  t.true(text.length <= 3_000)
  t.true(text.endsWith('… (outline cut at 3000 characters)'))
  for (const line of [TITLE, PRICE, ADD_TO_CART]) t.true(lines.includes(line), line)
  t.true(lines.indexOf('Main content:') < lines.indexOf(TITLE))
  t.is(lines[lines.indexOf('Main content:') + 1], '0 section.product')
})

test('the metadata: <meta> tags and JSON-LD values by type and path', async (t) => {
  const { outline: text } = await outline(BIG_PRODUCT_PAGE)
  const lines = text.split('\n')
  t.is(lines[0], 'Metadata:')
  for (const line of [
    'meta og:title = "Trail Runner Pro"',
    'meta product:price:amount = "89.90"',
    'meta price = "89.90"',
    'json-ld Product.name = "Trail Runner Pro"',
    'json-ld Product.brand.name = "Peak"',
    'json-ld Product.offers.price = 89.9',
    'json-ld BreadcrumbList.itemListElement[1].name = "Trail"',
  ]) {
    t.true(lines.includes(line), line)
  }
  t.true(lines.indexOf('json-ld Product.offers.price = 89.9') < lines.indexOf('Main content:'))
  t.false(text.includes('@context'))
})

test('the metadata is bounded: values clipped, at most 40 meta and 80 JSON-LD lines, broken JSON-LD skipped', async (t) => {
  const metas = Array.from({ length: 100 }, (_, i) => `<meta name="k${i}" content="${'v'.repeat(200)}">`).join('')
  const offers = Array.from({ length: 100 }, (_, i) => ({ '@type': 'Offer', price: i }))
  const html =
    `<head>${metas}<script type="application/ld+json">{ broken</script>` +
    `<script type="application/ld+json">${JSON.stringify([{ '@type': ['Product', 'Thing'], offers }])}</script></head><body><p>Hello</p></body>`
  const lines = (await outline(html)).outline.split('\n')
  const meta = lines.filter((line) => line.startsWith('meta '))
  t.is(meta.length, 40)
  t.is(meta[0], `meta k0 = "${'v'.repeat(80)}…"`)
  const jsonLd = lines.filter((line) => line.startsWith('json-ld '))
  t.is(jsonLd.length, 80)
  t.is(jsonLd[0], 'json-ld Product.offers[0].price = 0')
  t.true(lines.includes('Page:'))
  t.true(lines.includes('0 body > p "Hello"'))
})

test('a <main> after the header is outlined first; the rest of the page follows with a line where it was', async (t) => {
  const html =
    '<header><nav><a href="/">Home</a></nav></header><div class="layout"><main id="content"><h1>Article</h1><p>Body text</p></main></div><footer>Footer</footer>'
  const lines = (await outline(html)).outline.split('\n')
  t.deepEqual(lines, [
    'Main content:',
    '0 main#content',
    '1 h1 "Article"',
    '1 p "Body text"',
    'Rest of the page:',
    '0 body',
    '1 header > nav > a[href="/"] "Home"',
    '1 div.layout',
    '2 main#content (the main content, outlined above)',
    '1 footer "Footer"',
  ])
})

test('without <main>, the block holding all content outside page chrome comes first; chrome inside it comes last', async (t) => {
  const html =
    '<div id="app"><div class="top">Free shipping today</div><header><a href="/">Logo</a></header>' +
    '<div class="page"><h1>Product</h1><aside>Related</aside><p>Details</p></div><footer>Footer</footer></div>'
  const lines = (await outline(html)).outline.split('\n')
  t.deepEqual(lines, [
    'Main content:',
    '0 div#app',
    '1 div.top "Free shipping today"',
    '1 header (outlined at the end)',
    '1 div.page',
    '2 h1 "Product"',
    '2 aside (outlined at the end)',
    '2 p "Details"',
    '1 footer (outlined at the end)',
    'Rest of the page:',
    '0 body > div#app (the main content, outlined above)',
    '0 header > a[href="/"] "Logo"',
    '0 aside "Related"',
    '0 footer "Footer"',
  ])
})

test('generated class names and ids are recognised; readable ones are kept', (t) => {
  for (const name of ['css-1x2y3z', 'css-kqzqgg', 'sc-bdfBwQ', 'jsx-2093845', 'svelte-1xyz9', 'card-module__ckj4h', 'Card_title__3xYz1', 'Menu_item__91819', 'a1b2c3d4']) {
    t.true(isGeneratedName(name), name)
  }
  for (const name of ['product-title', 'add-to-cart', 'col-md-6', 'css-grid', 'productTitle', 'item12', 'mt-4', 'h264', 'product__price--sale', 'react-aria-123']) {
    t.false(isGeneratedName(name), name)
  }
})

test('JSON-LD lines name what a path reads: the type without its vocabulary, the first object of a type', async (t) => {
  const data = [
    { '@type': 'https://schema.org/Product', name: 'First', 'odd key': 1, offers: [{ price: '10.00' }] },
    { '@type': 'Product', name: 'Second' },
    { name: 'No type' },
  ]
  const lines = (await outline(`<script type="application/ld+json">${JSON.stringify(data)}</script><p>Hello</p>`)).outline.split('\n')
  t.deepEqual(lines.filter((line) => line.startsWith('json-ld ')), ['json-ld Product.name = "First"', 'json-ld Product.offers.price = "10.00"'])
})

test("an article's own header stays with it: only page-level header, nav, footer and aside are moved", async (t) => {
  const html =
    '<div id="app"><header>Site</header><div class="feed">' +
    '<article><header><h2>First</h2></header><p>One</p></article><article><header><h2>Second</h2></header><p>Two</p></article></div></div>'
  const lines = (await outline(html)).outline.split('\n')
  t.deepEqual(lines.slice(0, 3), ['Main content:', '0 div.feed', '1 article'])
  t.true(lines.includes('2 header > h2 "First"'))
  t.true(lines.indexOf('2 header > h2 "First"') < lines.indexOf('Rest of the page:'))
})
