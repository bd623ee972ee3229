import test from 'ava'
import { OUTLINE_LIMITS, type PageOutline } from '../src/extract/page-outline.ts'
import { callInDom, makeDom } from './helpers/jsdom.ts'

// Item 1 of issue 28: the outline finds a page's main object (its title, and the price and buy
// button nearest to it) from markup and text alone, and shows that block first.

const MAIN_OBJECT = 'Main object (the title, price and buy button of the page):'

async function outline(html: string): Promise<string[]> {
  const dom = makeDom(html, { url: 'http://127.0.0.1/p/kettle' })
  try {
    const result: PageOutline = await callInDom(dom, 'outline', { ...OUTLINE_LIMITS, maxWaitMs: 0 })
    return result.outline.split('\n')
  } finally {
    dom.window.close()
  }
}

/** The lines of the main object's block. */
function block(lines: string[]): string[] {
  const start = lines.indexOf(MAIN_OBJECT)
  const end = lines.findIndex((line, index) => index > start && !/^\d+ /.test(line))
  return start === -1 ? [] : lines.slice(start + 1, end === -1 ? undefined : end)
}

test("the title is the heading that names the page's product, not the first <h1> (a cart pop-up's)", async (t) => {
  const lines = await outline(
    '<title>Steel Kettle 1.7 l | Shop</title><meta property="og:title" content="Steel Kettle 1.7 l">' +
      '<div class="popup"><h1>Added to basket</h1><a class="go" href="/cart">Go to basket</a></div>' +
      '<div class="related"><span class="price">€ 3,00</span></div>' +
      '<div class="product"><h1 class="title">Steel Kettle 1.7 l</h1><span class="price">€ 29,99</span><button class="buy">Add to basket</button></div>',
  )
  t.deepEqual(block(lines), ['0 div.product', '1 h1.title "Steel Kettle 1.7 l"', '1 span.price "€ 29,99"', '1 button.buy "Add to basket"'])
})

test('a price just before the title counts as its own; the rest of the page follows, nearest first, wrappers of the block alone left out', async (t) => {
  const lines = await outline(
    '<meta property="og:title" content="Suzuki Alto 2010"><div id="page"><header><a href="/">Home</a></header><div class="ad">' +
      '<div class="wrap"><section class="head"><span class="price">Rs 635,000</span><h1>Suzuki Alto 2010</h1></section></div><section class="seller"><p>Seller: Raza</p></section></div><footer>Footer</footer></div>',
  )
  t.deepEqual(block(lines), ['0 section.head', '1 span.price "Rs 635,000"', '1 h1 "Suzuki Alto 2010"'])
  const around = lines.slice(lines.indexOf('Around it, nearest first (each block holds the one above; its other children follow):') + 1)
  t.deepEqual(around.slice(0, 4), ['0 div.ad', '1 section.seller', '2 p "Seller: Raza"', '0 div#page'])
})

test('a page without one main object (a list of products) is outlined by its main content', async (t) => {
  const cards = Array.from({ length: 5 }, (_, i) => `<li class="card"><a href="/p/${i}">Kettle ${i}</a><span class="price">€ ${i + 10}</span></li>`).join('')
  const lines = await outline(`<header><a href="/">Home</a></header><main><ul class="cards">${cards}</ul></main>`)
  t.false(lines.includes(MAIN_OBJECT))
  t.is(lines[0], 'Main content:')
})

test("a block holding the page's header is its frame, not an object: an article with a shop link is outlined by its main content", async (t) => {
  const lines = await outline(
    '<meta property="og:title" content="Storm closes the coast road"><div id="shell"><header><a class="shop" href="/shop">Buy now</a></header>' +
      '<div class="story"><h1>Storm closes the coast road</h1><p>Gales shut the road on Monday.</p></div><footer>Footer</footer></div>',
  )
  t.false(lines.includes(MAIN_OBJECT))
  t.true(lines.includes('Main content:'))
})

test('an <h2> that names the product is its title under a site-wide <h1>; a title without a block of its own gives way to the next', async (t) => {
  const lines = await outline(
    '<meta property="og:title" content="Blue Mug"><div id="site"><h1>Mugs and more</h1><div class="promo"><h2>Blue Mug</h2></div>' +
      '<header><a href="/">Home</a></header><div class="main"><div class="item"><h2 class="name">Blue Mug</h2><b class="price">£ 8.00</b><button>Add to basket</button></div></div><footer>f</footer></div>',
  )
  t.deepEqual(block(lines), ['0 div.item', '1 h2.name "Blue Mug"', '1 b.price "£ 8.00"', '1 button "Add to basket"'])
})
