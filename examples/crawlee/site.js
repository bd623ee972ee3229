// The shop the Crawlee example crawls: a few hundred pages generated from a fixed seed and served on
// 127.0.0.1, so the example needs no network and its test can compare every page with `catalog()`.
//
//   /                          home: links to every category
//   /category/<id>-<slug>      a category: 12 products a page (`perPage`), "Sort by" (navigates: ?sort=price-asc),
//                              pages 2… through ?page=N; the sort is server-side, across all pages
//   /product/<id>-<slug>       a product: name, price, stock, description, specifications, SKU
//
// The ids make both paths one template each for the replay cache (a segment with 3+ digits is an item).
const { createServer } = require('node:http')

const CATEGORIES = ['Tents', 'Sleeping bags', 'Backpacks', 'Jackets', 'Boots', 'Stoves', 'Headlamps', 'Trekking poles']
const NOUNS = { Tents: 'Tent', 'Sleeping bags': 'Sleeping Bag', Backpacks: 'Pack', Jackets: 'Jacket', Boots: 'Boot', Stoves: 'Stove', Headlamps: 'Headlamp', 'Trekking poles': 'Poles' }
const MODELS = ['Alpine', 'Ridge', 'Summit', 'Canyon', 'Glacier', 'Coastal', 'Forest', 'Granite', 'Cedar', 'Aurora', 'Basalt', 'Tundra', 'Harbor', 'Meadow', 'Sierra']
const LINES = ['Lite', 'Trail', 'Expedition', 'Classic']
const MATERIALS = ['ripstop nylon', 'recycled polyester', 'merino wool', 'aluminium', 'titanium', 'Gore-Tex', 'canvas', 'carbon fibre']
const COLOURS = ['forest green', 'slate grey', 'burnt orange', 'midnight blue', 'sand', 'black']
const USES = ['weekend trips', 'long-distance hiking', 'alpine routes', 'family camping', 'fast and light days', 'wet autumns']
const SORTS = { '': 'Featured', 'price-asc': 'Lowest price first', 'price-desc': 'Highest price first', name: 'Name, A to Z' }

/** A small seeded generator (mulberry32): the same seed gives the same shop on every machine. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const slugOf = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

/**
 * The shop's data: `categories` (up to 8) with `perCategory` products each (up to 60). The defaults
 * give 1 home page, 24 list pages and 240 product pages.
 */
function catalog({ categories = 8, perCategory = 30 } = {}) {
  const next = random(20260101)
  const pick = (list) => list[Math.floor(next() * list.length)]
  return CATEGORIES.slice(0, Math.min(categories, CATEGORIES.length)).map((name, c) => {
    const id = 101 + c
    const products = Array.from({ length: Math.min(perCategory, MODELS.length * LINES.length) }, (_, i) => {
      const productId = id * 100 + i
      const title = `${MODELS[i % MODELS.length]} ${LINES[Math.floor(i / MODELS.length)]} ${NOUNS[name]}`
      const [material, colour] = [pick(MATERIALS), pick(COLOURS)]
      return {
        id: productId,
        path: `/product/${productId}-${slugOf(title)}`,
        name: title,
        // Whole euros plus .90 or .00: `type: 'number'` reads "€129.90" as 129.9.
        price: Math.round(20 + next() * 380) + (next() < 0.5 ? 0.9 : 0),
        inStock: next() > 0.15,
        sku: `${name.slice(0, 2).toUpperCase()}-${productId}`,
        description: `A ${colour} ${NOUNS[name].toLowerCase()} in ${material}, made for ${pick(USES)}.`,
        specs: {
          Weight: `${Math.round(150 + next() * 2800)} g`,
          Material: material,
          Colour: colour,
          Warranty: `${1 + Math.floor(next() * 5)} years`,
        },
      }
    })
    return { id, name, path: `/category/${id}-${slugOf(name)}`, products }
  })
}

/** A category's products in the order of `sort` (a key of SORTS); ties by name, so the order is one. */
function sorted(products, sort) {
  const byName = (a, b) => a.name.localeCompare(b.name)
  if (sort === 'price-asc') return [...products].sort((a, b) => a.price - b.price || byName(a, b))
  if (sort === 'price-desc') return [...products].sort((a, b) => b.price - a.price || byName(a, b))
  if (sort === 'name') return [...products].sort(byName)
  return products
}

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char])
const euros = (price) => `€${price.toFixed(2)}`

function layout(shop, title, body) {
  const nav = shop.map((category) => `<a href="${category.path}">${escape(category.name)}</a>`).join(' ')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Ridgeline Supply</title></head>
<body>
<header><a class="brand" href="/">Ridgeline Supply</a> <nav class="categories">${nav}</nav></header>
<main>
${body}
</main>
<footer>A generated shop for the puppeteer-agent Crawlee example. Nothing here is for sale.</footer>
</body></html>`
}

function home(shop) {
  const items = shop.map((category) => `<li><a class="category" href="${category.path}">${escape(category.name)}</a> (${category.products.length})</li>`)
  return layout(shop, 'Home', `<h1>Outdoor gear</h1>\n<ul class="categories">${items.join('')}</ul>`)
}

function categoryPage(shop, category, url, perPage) {
  const sort = url.searchParams.get('sort') in SORTS ? url.searchParams.get('sort') : ''
  const all = sorted(category.products, sort)
  const pages = Math.max(1, Math.ceil(all.length / perPage))
  const page = Number(url.searchParams.get('page') || 1)
  if (!Number.isInteger(page) || page < 1 || page > pages) return undefined
  const link = (n) => `${category.path}?${new URLSearchParams({ ...(sort && { sort }), ...(n > 1 && { page: String(n) }) })}`.replace(/\?$/, '')
  const options = Object.entries(SORTS).map(([value, label]) => `<option value="${value}"${value === sort ? ' selected' : ''}>${label}</option>`)
  const items = all
    .slice((page - 1) * perPage, page * perPage)
    .map((item) => `<li class="product"><a href="${item.path}">${escape(item.name)}</a> <span class="price">${euros(item.price)}</span></li>`)
  const pager = Array.from({ length: pages }, (_, i) =>
    i + 1 === page ? `<span aria-current="page">${i + 1}</span>` : `<a class="page" href="${escape(link(i + 1))}">${i + 1}</a>`,
  )
  if (page < pages) pager.push(`<a class="page" rel="next" href="${escape(link(page + 1))}">Next</a>`)
  // Choosing an order sends the form, as on many shops: the goal's SELECT navigates.
  return layout(
    shop,
    category.name,
    `<h1>${escape(category.name)}</h1>
<p class="count">${category.products.length} products</p>
<form class="sort" method="get" action="${category.path}">
  <label for="sort">Sort by</label>
  <select id="sort" name="sort" onchange="this.form.submit()">${options.join('')}</select>
</form>
${sort ? `<p class="sorted" role="status">Sorted by ${SORTS[sort].toLowerCase()}</p>` : ''}
<ul class="products">${items.join('')}</ul>
<nav class="pagination" aria-label="Pages">${pager.join(' ')}</nav>`,
  )
}

function productPage(shop, category, item) {
  const specs = Object.entries(item.specs).map(([name, value]) => `<div><dt>${escape(name)}</dt><dd>${escape(value)}</dd></div>`)
  return layout(
    shop,
    item.name,
    `<nav class="breadcrumbs"><a href="/">Home</a> › <a href="${category.path}">${escape(category.name)}</a></nav>
<article class="product-detail">
  <h1>${escape(item.name)}</h1>
  <p class="price">${euros(item.price)}</p>
  <p class="stock">${item.inStock ? 'In stock' : 'Out of stock'}</p>
  <p class="description">${escape(item.description)}</p>
  <h2>Specifications</h2>
  <dl class="specs">${specs.join('')}</dl>
  <p class="sku">SKU: <span>${escape(item.sku)}</span></p>
</article>`,
  )
}

/**
 * Serves the shop of `catalog(options)` on 127.0.0.1, `perPage` products to a list page (default 12),
 * on `port` (0, the default: a free one); resolves `{ url, shop, close() }`.
 */
async function startShop(options = {}) {
  const perPage = options.perPage ?? 12
  const shop = catalog(options)
  const categories = new Map(shop.map((category) => [category.path, category]))
  const products = new Map(shop.flatMap((category) => category.products.map((item) => [item.path, [category, item]])))
  const server = createServer((req, res) => {
    const url = new URL(req.url || '/', 'http://127.0.0.1')
    const category = categories.get(url.pathname)
    const product = products.get(url.pathname)
    const html =
      url.pathname === '/' ? home(shop) : category ? categoryPage(shop, category, url, perPage) : product ? productPage(shop, ...product) : undefined
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html ?? layout(shop, 'Not found', '<h1>Not found</h1>'))
  })
  await new Promise((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    shop,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

module.exports = { catalog, sorted, startShop, SORTS }

// `node examples/crawlee/site.js [port]` serves the shop alone, to look at it in a browser.
if (require.main === module) {
  startShop({ port: Number(process.argv[2] || 0) }).then(({ url, shop }) => {
    const products = shop.reduce((sum, category) => sum + category.products.length, 0)
    console.log(`${url} · ${shop.length} categories, ${products} products`)
  })
}
