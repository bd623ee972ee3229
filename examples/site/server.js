// The bundled demo shop, served on 127.0.0.1 so the demo needs no internet.
const { createServer } = require('node:http')
const { readFileSync } = require('node:fs')
const { join } = require('node:path')

const products = JSON.parse(readFileSync(join(__dirname, 'products.json'), 'utf8'))
const css = readFileSync(join(__dirname, 'style.css'))
const CATEGORIES = ['shoes', 'jackets', 'tents']

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char])
const euros = (price) => `€${price.toFixed(2)}`
const words = (text) => (text.toLowerCase().match(/[a-z0-9]+/g) || []).map((word) => word.replace(/s$/, ''))

function layout({ title, path, query = '', body }) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Trailhead Outfitters</title>
<link rel="canonical" href="${escape(path)}"><link rel="stylesheet" href="/style.css"></head>
<body>
<header>
  <a class="brand" href="/">Trailhead Outfitters</a>
  <nav>${CATEGORIES.map((name) => `<a href="/category/${name}">${name[0].toUpperCase()}${name.slice(1)}</a>`).join(' ')}</nav>
  <form class="search" action="/search" method="get" role="search">
    <input type="search" name="q" aria-label="Search products" placeholder="Search products" value="${escape(query)}">
    <button type="submit">Search</button>
  </form>
</header>
<main>${body}</main>
<footer>A demo shop bundled with puppeteer-agent. Nothing here is for sale.</footer>
</body></html>`
}

function card(product) {
  return `<li class="product">
  <h2><a href="/product/${product.slug}">${escape(product.name)}</a></h2>
  <p class="description">${escape(product.description)}</p>
  <span class="price">${euros(product.price)}</span>
</li>`
}

function home() {
  const featured = ['alpine-shell-jacket', 'two-person-tent', 'summit-hiker'].map((slug) => products.find((p) => p.slug === slug))
  return layout({
    title: 'Home',
    path: '/',
    body: `<h1>Gear for the trail</h1>
<p>Shoes, jackets and tents, tested on the hills behind the shop.</p>
<h2>Featured</h2>
<ul class="products">${featured.map(card).join('')}</ul>`,
  })
}

function search(query) {
  const wanted = words(query)
  const found = products.filter((product) => {
    const text = new Set(words(`${product.name} ${product.description} ${product.category}`))
    return wanted.length > 0 && wanted.every((word) => text.has(word))
  })
  return layout({
    title: `Search: ${query}`,
    path: `/search?q=${encodeURIComponent(query)}`,
    query,
    body: `<h1>${found.length} result${found.length === 1 ? '' : 's'} for “${escape(query)}”</h1>
${found.length ? `<ul class="products">${found.map(card).join('')}</ul>` : '<p>Nothing matches. Try fewer words.</p>'}`,
  })
}

function category(name) {
  const listed = products.filter((product) => product.category === name)
  return layout({
    title: name,
    path: `/category/${name}`,
    body: `<h1>${escape(name[0].toUpperCase() + name.slice(1))}</h1><ul class="products">${listed.map(card).join('')}</ul>`,
  })
}

function product(item) {
  const specs = Object.entries(item.specs)
    .map(([name, value]) => `<div><dt>${escape(name)}</dt><dd>${escape(value)}</dd></div>`)
    .join('')
  const reviews = item.reviews
    .map(
      (review) => `<li class="review"><span class="author">${escape(review.author)}</span>
  <span class="rating" data-rating="${review.rating}">${'★'.repeat(review.rating)}${'☆'.repeat(5 - review.rating)}</span>
  <p>${escape(review.text)}</p></li>`,
    )
    .join('')
  return layout({
    title: item.name,
    path: `/product/${item.slug}`,
    body: `<p><a href="/category/${item.category}">${escape(item.category)}</a></p>
<h1>${escape(item.name)}</h1>
<p class="price">${euros(item.price)}</p>
<p class="description">${escape(item.description)}</p>
<dl class="specs">${specs}</dl>
<h2>Reviews</h2>
${reviews ? `<ul class="reviews">${reviews}</ul>` : '<p>No reviews yet.</p>'}`,
  })
}

function route(url) {
  if (url.pathname === '/') return [200, home()]
  if (url.pathname === '/search') return [200, search(url.searchParams.get('q') || '')]
  const [, kind, name] = url.pathname.split('/')
  if (kind === 'category' && CATEGORIES.includes(name)) return [200, category(name)]
  const item = kind === 'product' && products.find((p) => p.slug === name)
  if (item) return [200, product(item)]
  return [404, layout({ title: 'Not found', path: url.pathname, body: '<h1>Not found</h1><p><a href="/">Back to the shop</a></p>' })]
}

/** Serves the shop on 127.0.0.1 (port 0 picks a free one); resolves `{ url, close() }`. */
async function startSite({ port = 0 } = {}) {
  const server = createServer((req, res) => {
    const url = new URL(req.url || '/', 'http://127.0.0.1')
    if (url.pathname === '/style.css') return res.writeHead(200, { 'content-type': 'text/css' }).end(css)
    const [status, html] = route(url)
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

module.exports = { startSite, products }
