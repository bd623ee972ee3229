import test from 'ava'
import { OUTLINE_LIMITS } from '../src/extract/page-outline.ts'
import { callInDom, makeDom, runInDom } from './helpers/jsdom.ts'
import type { PageOutline } from '../src/extract/page-outline.ts'

// Short waits keep the tests quick; the stability logic is the same as with the real limits.
const FAST = { ...OUTLINE_LIMITS, maxWaitMs: 400, intervalMs: 50 }

async function outline(html: string, limits = FAST, setup?: (...args: any[]) => unknown): Promise<PageOutline> {
  const dom = makeDom(html, { url: 'http://127.0.0.1/list.html' })
  if (setup) runInDom(dom, setup)
  try {
    return await callInDom(dom, 'outline', limits)
  } finally {
    dom.window.close() // stops the page's timers
  }
}

function items(count: number): string {
  let html = ''
  for (let i = 0; i < count; i++) html += `<li class="item" data-id="i${i}"><span class="name">Item ${i}</span><b class="price">${i} €</b></li>`
  return html
}

test('outline: tags, ids, classes, data-* and a few other attributes, own text (with its text-level children), depth as a number', async (t) => {
  const result = await outline(
    '<title>Shop</title><main id="app" class="page wide" data-page="home" style="color:red"><h1 title="Welcome">Hello <i>there</i></h1>' +
      '<a href="/about" rel="nofollow" aria-label="About us">About</a><input name="q" placeholder="Search"><script>x()</script></main>',
  )
  t.is(result.title, 'Shop')
  t.is(result.url, 'http://127.0.0.1/list.html')
  t.is(
    result.outline,
    [
      '0 body > main#app.page.wide[data-page="home"]',
      '1 h1[title="Welcome"] "Hello there"',
      '2 i "there"',
      '1 a[href="/about"][aria-label="About us"] "About"',
      '1 input[name="q"][placeholder="Search"]',
    ].join('\n'),
  )
})

test('outline: text and attribute values are clipped at 80 characters', async (t) => {
  const long = 'x'.repeat(200)
  const result = await outline(`<p data-note="${long}">${long}</p>`)
  t.is(result.outline, `0 body > p[data-note="${'x'.repeat(80)}…"] "${'x'.repeat(80)}…"`)
})

test('outline: a long URL keeps its start and its end, where an item number is', async (t) => {
  const href = `https://shop.example/p/${'long-product-name-'.repeat(8)}293565036718`
  const result = await outline(`<a href="${href}">Item</a>`)
  t.regex(result.outline, /\[href="https:\/\/shop\.example\/p\/long-product-name-[^"]*…[^"]*-293565036718"\]/)
  t.true(result.outline.length < href.length + 40)
})

test('outline: of similar siblings the first three are shown and the rest counted', async (t) => {
  const result = await outline(`<ul>${items(10)}<li class="other">Different</li></ul>`)
  const lines = result.outline.split('\n')
  t.deepEqual(lines.filter((line) => line.includes('li.item')), [
    '1 li.item[data-id="i0"] "Item 0 0 €"',
    '1 li.item[data-id="i1"] "Item 1 1 €"',
    '1 li.item[data-id="i2"] "Item 2 2 €"',
    '1 … 7 more li.item like the ones above',
  ])
  t.true(lines.includes('1 li.other "Different"'))
  t.false(result.outline.includes('Item 3'))
})

test('outline: siblings with the same classes but other children are not folded together', async (t) => {
  const cards = Array.from({ length: 5 }, (_, i) => (i % 2 ? `<div class="card"><img src="${i}.png"></div>` : `<div class="card"><p>Text ${i}</p></div>`)).join('')
  const result = await outline(cards)
  t.is(result.outline.split('\n').filter((line) => line.startsWith('1 div.card')).length, 5)
})

test('outline: a 3,000-item page stays within its bound, its items counted', async (t) => {
  const result = await outline(`<ul class="results">${items(3000)}</ul>`, { ...OUTLINE_LIMITS, maxWaitMs: 0 })
  t.true(result.outline.length <= OUTLINE_LIMITS.maxChars)
  t.true(result.outline.includes('… 2997 more li.item like the ones above'))
})

test('outline: a page with thousands of different elements is bounded, and says where lines were left out', async (t) => {
  let html = ''
  for (let i = 0; i < 4000; i++) html += `<section class="s${i}" data-index="${i}"><h2 class="t${i}">Heading number ${i}</h2></section>`
  const result = await outline(html, { ...OUTLINE_LIMITS, maxWaitMs: 0 })
  t.true(result.outline.length <= OUTLINE_LIMITS.maxChars)
  t.true(result.outline.endsWith(`(lines marked "…" were left out to keep the outline within ${OUTLINE_LIMITS.maxChars} characters)`))
  t.true(result.outline.includes('\n1 …\n'), 'a run of left-out lines is one "…" line at their depth')
})

test('outline: it is taken once the page has stopped changing', async (t) => {
  // The page adds a row every 40 ms, five times: the outline must include the last one.
  const result = await outline('<ul id="rows"></ul>', { ...OUTLINE_LIMITS, maxWaitMs: 3000, intervalMs: 100 }, () => {
    let added = 0
    const timer = setInterval(() => {
      document.querySelector('#rows')!.insertAdjacentHTML('beforeend', `<li class="row${added}">Row ${added}</li>`)
      if (++added === 5) clearInterval(timer)
    }, 40)
  })
  t.true(result.outline.includes('Row 4'), result.outline)
})

test('outline: a page that never stops changing is outlined after the longest wait', async (t) => {
  const result = await outline('<p id="clock">0</p>', { ...OUTLINE_LIMITS, maxWaitMs: 300, intervalMs: 50 }, () => {
    let tick = 0
    setInterval(() => {
      document.querySelector('#clock')!.textContent = String(++tick)
    }, 10)
  })
  t.regex(result.outline, /p#clock "\d+"/)
})

test('outline: a value split over text-level elements is read whole only with a number or text of its own', async (t) => {
  const result = await outline(
    '<ul><li class="menu"><span>Home</span> <span>Garden</span></li></ul><p class="stock">Availability: <b>In stock</b></p>' +
      '<span class="price"><span class="sign">£</span><span class="int">450</span></span><p class="card"><a href="/p/1">Mug 2</a> <span>£ 6</span></p>',
  )
  const lines = result.outline.split('\n')
  t.true(lines.includes('1 ul > li.menu'), 'two words in spans: a menu item, not repeated')
  t.true(lines.includes('1 p.stock "Availability: In stock"'))
  t.true(lines.includes('1 span.price "£ 450"'))
  t.true(lines.includes('1 p.card'), 'a link is a thing of its own, not a piece of a value')
})
