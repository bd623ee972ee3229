import test from 'ava'
import { layoutDom, observeDom } from './fixtures/collector/jsdom-layout.ts'
import { mergeFrames } from '../src/collector/merge.ts'
import type { FrameReport } from '../src/page/types.ts'

// Nearby text and names on markup built like real shop pages (jsdom, one row per element): only
// headings that are rendered and in the control's own part of the page, a shared `nearby` dropped,
// and names for icon buttons and logo links, alt text read once, duplicated labels once.

function observe(html: string): FrameReport {
  return observeDom(layoutDom(html)).report
}

const pairs = (report: FrameReport) => report.elements.map((element) => [element.name, element.nearby ?? ''])

test('nearby skips hidden headings and headings of banners, dialogs and other landmarks', (t) => {
  const report = observe(`
    <h1>Shoes</h1>
    <header><h2>Site header</h2></header>
    <div id="cookie" style="position:fixed; bottom:0"><h2>We value your privacy</h2><p>Cookies.</p></div>
    <div role="dialog" data-rect="0 0 0 0"><h2>Newsletter</h2></div>
    <section><h2>Filters</h2><a href="/f">Brand</a></section>
    <h3 style="display:none">Mobile menu</h3>
    <h3 hidden>Cart drawer</h3>
    <div><a href="/p1">Trail Runner</a></div>
    <section><header><h2>Blog post</h2></header><p>Text</p><a href="/more">Read more</a></section>
    <div id="banner2" style="position:fixed; top:0"><h2>Cookie settings</h2><button>Accept all</button></div>
  `)
  t.deepEqual(pairs(report), [
    ['Brand', 'Filters'],
    ['Trail Runner', 'Shoes'],
    ['Read more', 'Blog post'],
    ['Accept all', 'Cookie settings'],
  ])
})

test('a nearby that most controls of the observation share is dropped; a small form keeps its heading', (t) => {
  const products = Array.from({ length: 12 }, (_, i) => `<div><a href="/p${i}">Product ${i}</a></div>`).join('')
  const shop = observe(`<h1>All products</h1>${products}<form><h2>Sign in</h2><input aria-label="Email"><button>Go</button></form>`)
  t.true(shop.elements.filter((element) => element.nearby === 'All products').length === 12, 'the page script still reports it')
  const place = (report: FrameReport) => ({
    report,
    frame: { url: report.url, crossOrigin: false },
    offset: { x: 0, y: 0 },
    seen: { elements: report.elements.map(() => true), blockers: report.blockers.map(() => true), scrollers: report.scrollers.map(() => true) },
    elementHandles: report.elements.map(() => null),
    scrollHandles: report.scrollers.map(() => null),
  })
  const merged = mergeFrames([place(shop)], []).observation
  t.deepEqual(
    merged.elements.map((element) => element.nearby ?? ''),
    [...Array.from({ length: 12 }, () => ''), 'Sign in', 'Sign in'],
  )
  const small = observe(`<h1>Account</h1><a href="/a">Orders</a><a href="/b">Returns</a><a href="/c">Addresses</a>`)
  t.deepEqual(
    mergeFrames([place(small)], []).observation.elements.map((element) => element.nearby),
    ['Account', 'Account', 'Account'],
  )
})

test('unnamed controls take their title, button value, description, then their image file name', (t) => {
  const report = observe(`
    <button title="Search"><svg></svg></button>
    <button value="add-to-cart"><i class="icon"></i></button>
    <span id="hint">Opens the basket</span><a href="/cart" aria-describedby="hint"><i class="icon"></i></a>
    <a href="/"><img src="/static/img/AcmeShop-logo_dark@2x.3f9a1c2b7e.png?v=12"></a>
    <input type="image" src="/icons/go-arrow.svg">
    <a href="/x"><img src="data:image/png;base64,AAAA"></a>
    <input type="button" value="Compare">
  `)
  t.deepEqual(report.elements.map((element) => element.name), [
    'Search',
    'add-to-cart',
    'Opens the basket',
    'Acme Shop logo dark',
    'go arrow',
    '',
    'Compare',
  ])
})

test('a part laid out as a box of its own is a word apart in a name; plain inline parts stay joined', (t) => {
  // A plan's badge styled inline-block beside its name, as JSX writes them (no space between the spans).
  const report = observe(`
    <button><span>Team</span><span style="display:inline-block; margin-left:6px">Most popular</span></button>
    <button><span>Pro</span><span>fessional</span></button>
  `)
  t.deepEqual(report.elements.map((element) => element.name), ['Team Most popular', 'Professional'])
})

test('alt text and the same visible text are read once; labels of duplicated IDs once', (t) => {
  const report = observe(`
    <a href="/c/appliances"><img alt="APPLIANCES" src="a.jpg"><span>APPLIANCES</span></a>
    <a href="/c/tv"><span>Televisions</span><img alt="televisions" src="t.jpg"></a>
    <a href="/c/bora"><img alt="Bora" src="b.jpg"> Bora</a>
    <a href="/c/other"><img alt="Image link" src="x.jpg"> and text</a>
    <label for="email">Email</label><input id="email">
    <label for="email">Email</label><input id="email">
    <label for="email">Email</label><input id="email">
    <label for="email">Email</label><input id="email">
  `)
  t.deepEqual(report.elements.map((element) => element.name).slice(0, 5), ['APPLIANCES', 'Televisions', 'Bora', 'Image link and text', 'Email'])
})

test('a control in a card of a grid is told apart by the card text', (t) => {
  const cards = ['Kettle', 'Toaster'].map((name) => `<div class="card"><div>${name}</div><div>29 €</div><button>Add to cart</button></div>`).join('')
  t.deepEqual(pairs(observe(`<h1>Kitchen</h1><div class="grid">${cards}</div>`)), [
    ['Add to cart', 'Kettle 29 €'],
    ['Add to cart', 'Toaster 29 €'],
  ])
})
