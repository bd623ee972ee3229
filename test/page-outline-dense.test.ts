import test from 'ava'
import { OUTLINE_LIMITS, type PageOutline } from '../src/extract/page-outline.ts'
import { isGeneratedName } from '../src/page/generated-names.ts'
import { BIG_PRODUCT_PAGE } from './fixtures/outline/big-product-page.ts'
import { callInDom, makeDom } from './helpers/jsdom.ts'

// Item 8 of issue 15 and item 1 of issue 28: the outline is dense, shows the main object (or the main
// content) first, keeps a product's lines within its bound and includes the metadata.

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

const TITLE = '1 h1.product-title[itemprop="name"] "Trail Runner Pro"'
const PRICE = '2 span.price[data-testid="price"] "89,90 €"'
const ADD_TO_CART = '1 button.add-to-cart[type="button"][data-testid="add-to-cart"] "Add to cart"'
const MAIN_OBJECT = 'Main object (the title, price and buy button of the page):'

test('a large product page: title, price and add-to-cart are in the outline, within the bound', async (t) => {
  const { outline: text } = await outline(BIG_PRODUCT_PAGE)
  const lines = text.split('\n')
  // Taken in document order at two spaces a level, this page was cut at 60,000 characters inside the menu;
  // the product is now outlined first.
  t.true(text.length <= OUTLINE_LIMITS.maxChars)
  for (const line of [TITLE, PRICE, ADD_TO_CART]) t.true(lines.includes(line), line)
  t.false(lines.some((line) => line.startsWith(' ')), 'no indentation')
  t.true(textShare(text) > 0.1, `text share ${textShare(text)}`)
  t.false(/css-|sc-|Menu_item__/.test(text), 'generated class names are left out')
  // An icon's shapes are not outlined.
  t.false(text.includes('path'))
})

test('the main object comes first and a tight bound leaves out the menus, not the product', async (t) => {
  const { outline: text } = await outline(BIG_PRODUCT_PAGE, { ...ONCE, maxChars: 3_000 })
  const lines = text.split('\n')
  t.true(text.length <= 3_000)
  t.true(text.endsWith('(lines marked "…" were left out to keep the outline within 3000 characters)'))
  for (const line of [TITLE, PRICE, ADD_TO_CART]) t.true(lines.includes(line), line)
  t.is(lines[lines.indexOf(MAIN_OBJECT) + 1], '0 div')
  t.true(lines.indexOf(MAIN_OBJECT) < lines.indexOf(TITLE))
  t.false(text.includes('Item 3'), "the header's menu items were left out")
})

test("the product's lines are kept before the rest of its block", async (t) => {
  // The title, price and buy button sit after a long description in the same block.
  // Lines as short as the product's, so none of them fits in once the bound is reached.
  const description = Array.from({ length: 200 }, (_, i) => `<p class="d${i}">Paragraph ${i}.</p>`).join('')
  const html =
    '<title>Kettle</title><div class="page"><div class="product"><div class="text">' + description + '</div>' +
    '<h1>Kettle</h1><span class="price">€ 29,99</span><p class="stock">In stock</p><p class="code">SKU: K-100</p><button class="buy">Add to cart</button><s class="was">€ 39,99</s><p class="ref"><span>Art.-Nr.</span><span class="v">12345</span></p></div><footer>Footer</footer></div>'
  const lines = (await outline(html, { ...ONCE, maxChars: 1_500 })).outline.split('\n')
  for (const line of ['1 h1 "Kettle"', '1 span.price "€ 29,99"', '1 p.stock "In stock"', '1 p.code "SKU: K-100"', '1 button.buy "Add to cart"', '1 s.was "€ 39,99"', '2 span.v "12345"']) t.true(lines.includes(line), line)
  t.true(lines.includes('2 p.d0 "Paragraph 0."'), 'the nearest lines fill what is left')
  t.false(lines.includes('2 p.d199 "Paragraph 199."'))
  t.true(lines.includes('2 …'))
})

test("the title's and the price's children are kept with them: their text is split over their children", async (t) => {
  const description = Array.from({ length: 200 }, (_, i) => `<p class="d${i}">Paragraph ${i}.</p>`).join('')
  const html =
    '<title>Steel Kettle</title><div class="page"><div class="product"><div class="text">' + description + '</div>' +
    '<h1><span class="brand">Steel</span> <span class="kind">Kettle</span></h1><div class="price"><span class="sign">€</span><span class="int">29</span><sup>99</sup></div>' +
    '<button class="buy">Add to cart</button></div><footer>Footer</footer></div>'
  const lines = (await outline(html, { ...ONCE, maxChars: 1_000 })).outline.split('\n')
  for (const line of ['1 h1', '2 span.brand "Steel"', '2 span.kind "Kettle"', '1 div.price "€ 29 99"', '2 span.sign "€"', '2 span.int "29"', '2 sup "99"']) t.true(lines.includes(line), line)
  t.false(lines.includes('2 p.d199 "Paragraph 199."'))
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
    'json-ld BreadcrumbList.itemListElement[].name = "Shoes", "Trail"',
  ]) {
    t.true(lines.includes(line), line)
  }
  t.true(lines.indexOf('json-ld Product.offers.price = 89.9') < lines.indexOf(MAIN_OBJECT))
  t.false(text.includes('@context'))
})

test('the metadata is bounded: values clipped, at most 40 meta and 80 JSON-LD paths, broken JSON-LD skipped', async (t) => {
  const metas = Array.from({ length: 100 }, (_, i) => `<meta name="k${i}" content="${'v'.repeat(200)}">`).join('')
  const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, i]))
  const html =
    `<head>${metas}<script type="application/ld+json">{ broken</script>` +
    `<script type="application/ld+json">${JSON.stringify([{ '@type': ['Product', 'Thing'], ...properties }])}</script></head><body><p>Hello</p></body>`
  const lines = (await outline(html)).outline.split('\n')
  const meta = lines.filter((line) => line.startsWith('meta '))
  t.is(meta.length, 40)
  t.is(meta[0], `meta k0 = "${'v'.repeat(80)}…"`)
  const jsonLd = lines.filter((line) => line.startsWith('json-ld '))
  t.is(jsonLd.length, 80)
  t.is(jsonLd[0], 'json-ld Product.p0 = 0')
  t.true(lines.includes('Page:'))
  t.true(lines.includes('0 body > p "Hello"'))
})

test("a list's items share a line per path, with their different values and how many there are", async (t) => {
  const offers = Array.from({ length: 12 }, (_, i) => ({ '@type': 'Offer', price: i % 2 ? '99.99' : '74.95', availability: 'https://schema.org/InStock', sku: `S-${i}` }))
  const lines = (await outline(`<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', offers })}</script><p>Hello</p>`)).outline.split('\n')
  t.deepEqual(lines.filter((line) => line.startsWith('json-ld ')), [
    'json-ld Product.offers[].price = "74.95", "99.99" (12 items)',
    'json-ld Product.offers[].availability = "https://schema.org/InStock" (12 items)',
    'json-ld Product.offers[].sku = "S-0", "S-1", "S-2", "S-3" (12 items)',
  ])
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
