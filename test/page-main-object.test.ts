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

test("a label that is one word of the page's name is no title; the <h1> whose words sit in spans is, and its split price is read whole", async (t) => {
  const lines = await outline(
    '<title>MÖCKELBY oak, Table, Length: 235 cm - IKEA</title><div id="page"><div class="details"><dl><dt class="list-item-name">Length:</dt><dd>235 cm</dd></dl>' +
      '<p class="other">Also in walnut: <span class="price">£399</span></p></div>' +
      '<div class="buy-module"><h1 class="header"><span class="title">MÖCKELBY</span><span class="desc">Table, oak</span></h1>' +
      '<div class="price-wrapper"><span class="price"><span class="currency">£</span><span class="integer">450</span></span></div><button class="buy">Add to bag</button></div></div>',
  )
  t.deepEqual(block(lines), [
    '0 div.buy-module',
    '1 h1.header',
    '2 span.title "MÖCKELBY"',
    '2 span.desc "Table, oak"',
    '1 div.price-wrapper',
    '2 span.price "£ 450"',
    '3 span.currency "£"',
    '3 span.integer "450"',
    '1 button.buy "Add to bag"',
  ])
})

test("a breadcrumb's category is no title, though the page's name holds it", async (t) => {
  const lines = await outline(
    "<title>Buy Girls' Pink Butterfly Watch Set | Kids watches | Argos</title>" +
      '<div id="page"><nav class="Breadcrumbs"><a href="/kids"><span itemprop="name">Kids watches</span></a></nav><div class="wrap"><p>Delivery £3.95</p><button class="add-to-trolley">Add to trolley</button>' +
      "<div class=\"product\"><h2 itemprop=\"name\">Girls' Pink Butterfly Watch Set</h2><ul class=\"prices\"><li>£9.99</li></ul><button class=\"add-to-trolley\">Add to trolley</button></div></div></div>",
  )
  t.is(block(lines)[0], '0 div.product')
})

test("a header that holds the product's title is the product's own, not the page's frame", async (t) => {
  const lines = await outline(
    '<title>Felt pen FIBRALO - shop</title><div id="app"><div class="pdp"><header><h2>CARAN D\'ACHE</h2><h1>Felt pen FIBRALO</h1></header>' +
      '<div class="price">CHF 19.50</div><button class="add-to-cart">Add to cart</button></div><footer><a href="/">Home</a></footer></div>',
  )
  t.is(block(lines)[0], '0 div.pdp')
})

test('a currency written in letters starts a word: "2 stars0 reviews" is no price', async (t) => {
  const page = (rating: string) =>
    outline(`<title>Faux Fur Throw, Platinum</title><div id="page"><div class="pdp"><h1>Faux Fur Throw, Platinum</h1><div class="ratings">${rating}</div></div><p>Reviews</p></div>`)
  t.false((await page('2 stars0 reviews')).includes(MAIN_OBJECT))
  t.deepEqual(block(await page('Rs 1,500')), ['0 div.pdp', '1 h1 "Faux Fur Throw, Platinum"', '1 div.ratings "Rs 1,500"'])
})

test("an article's header holding its title, with a priced deal link nearby but no buy button, is still the page's header", async (t) => {
  const lines = await outline(
    '<title>The Story Of Metroid</title><div id="page"><nav><a href="/">Latest</a></nav><header><h1>The Story Of Metroid</h1></header>' +
      '<p>Long read.</p><aside><a class="deal" href="/deal">$45</a></aside></div>',
  )
  t.false(lines.includes(MAIN_OBJECT))
})

test('with no heading that names the product, an element with a title class does; a price whose number sits in a span beside its sign is the price', async (t) => {
  const lines = await outline(
    '<title>Jerky, any 10 packs - Fresh</title><div id="page"><div class="side"><div class="item-other">Crispy shrimp $129</div><a class="more" href="/s">More</a></div>' +
      '<div class="right"><div class="title">Jerky, any 10 packs</div><div class="deal">From $<span>99</span> a pack</div><a id="buy_btn" href="#">Buy</a></div></div>',
  )
  t.deepEqual(block(lines), ['0 div.right', '1 div.title "Jerky, any 10 packs"', '1 div.deal "From $ 99 a pack"', '2 span "99"', '1 a#buy_btn[href="#"] "Buy"'])
})

test("a price inside a link is another product's or a link's words: not the main object's price", async (t) => {
  const article = await outline(
    '<title>Zuckerberg on acquisitions</title><div id="page"><h1>Zuckerberg on acquisitions</h1>' +
      '<p>After the <a href="/whatsapp">$19 billion acquisition</a>, he spoke.</p></div>',
  )
  t.false(article.includes(MAIN_OBJECT))
  const shop = await outline(
    '<title>Blue Mug</title><div id="page"><div class="related"><a class="card" href="/p/2"><span class="price">£ 6.00</span></a></div>' +
      '<div class="main"><h1>Blue Mug</h1><p>Stoneware.</p><p>300 ml.</p><p>Dishwasher safe.</p><p>Microwave safe.</p><b class="price">£ 8.00</b><button class="add-to-cart">Add to basket</button></div></div>',
  )
  t.is(block(shop)[0], '0 div.main')
})
