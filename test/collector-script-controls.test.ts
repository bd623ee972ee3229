import test from 'ava'
import type { Page } from 'puppeteer-core'
import { useChrome } from './helpers/chrome.ts'
import { observe } from '../src/collector/observe.ts'
import type { ObservedElement, Snapshot } from '../src/collector/observation.ts'

// Controls a page made clickable by script, in real Chrome: listeners seen through CDP, handler
// attributes, delegated handlers shown only by a pointer cursor, icon buttons named by their icon,
// nested clickables offered once, and the cap ranking what it keeps.

const chrome = useChrome(test)

async function offered(t: { teardown(fn: () => unknown): void }, html: string, viewport?: { width: number; height: number }): Promise<{ page: Page; snapshot: Snapshot; named: Map<string, ObservedElement> }> {
  const page = await chrome.page(t, viewport)
  await page.setContent(`<!doctype html><html><body>${html}</body></html>`)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  return { page, snapshot, named: new Map(snapshot.observation.elements.map((element) => [element.name, element])) }
}

const names = (snapshot: Snapshot) => snapshot.observation.elements.map((element) => element.name)

test('a listener added by script makes a span, a div or an anchor without href a control; plain text stays text', async (t) => {
  const { named, snapshot } = await offered(
    t,
    `<p>Read the <span id="terms">terms of use</span> or <b>ignore them</b>.</p>
     <div id="more">Show more</div>
     <a id="prev">Prev</a>
     <span onmousedown="this.textContent='pressed'">Inline handler</span>
     <script>
       document.getElementById('terms').addEventListener('click', () => {})
       document.getElementById('more').addEventListener('pointerdown', () => {})
       document.getElementById('prev').addEventListener('click', () => {})
     </script>`,
  )
  t.deepEqual(names(snapshot), ['terms of use', 'Show more', 'Prev', 'Inline handler'])
  t.like(named.get('terms of use'), { role: 'clickable', tag: 'span', operations: ['click'] })
  t.like(named.get('Prev'), { role: 'link', tag: 'a' })
})

test('a handler delegated to the document shows only as a pointer cursor: the items are offered, their list is not', async (t) => {
  const { snapshot } = await offered(
    t,
    `<style>.song { cursor: pointer } .song:hover { background: #eef }</style>
     <ul id="list"><li class="song">Blue in Green</li><li class="song">So What</li><li class="song">Freddie Freeloader</li></ul>
     <p class="note">Three songs</p>
     <script>
       document.addEventListener('click', (event) => { const song = event.target.closest('.song'); if (song) song.classList.add('playing') })
       document.getElementById('list').addEventListener('click', () => {})
     </script>`,
  )
  t.deepEqual(names(snapshot), ['Blue in Green', 'So What', 'Freddie Freeloader'])
  t.true(snapshot.observation.elements.every((element) => element.role === 'listitem' || element.role === 'clickable'))
})

test("a framework root listening for every event is not a control; the rows it dispatches to are", async (t) => {
  const { snapshot } = await offered(
    t,
    `<style>.row { cursor: pointer; padding: 4px }</style>
     <div id="root"><div class="row">Ada Lovelace</div><div class="row">Grace Hopper</div><p>Two people</p></div>
     <script>
       const root = document.getElementById('root')
       for (const type of ['click', 'dblclick', 'mousedown', 'mouseup', 'keydown', 'keyup', 'input', 'change', 'focusin', 'focusout', 'pointerdown', 'pointerup', 'touchstart', 'scroll'])
         root.addEventListener(type, () => {})
     </script>`,
  )
  t.deepEqual(names(snapshot), ['Ada Lovelace', 'Grace Hopper'])
})

test('a list drawn with the pointer on its container offers each item', async (t) => {
  const { snapshot } = await offered(
    t,
    `<input aria-label="City" value="Par"><ul style="cursor:pointer" id="suggestions"><li>Paris</li><li>Parma</li><li>Paramaribo</li></ul>
     <script>document.addEventListener('mousedown', () => {})</script>`,
  )
  t.deepEqual(names(snapshot), ['City', 'Paris', 'Parma', 'Paramaribo'])
})

test('icon-only buttons are named by their icon: an svg title, an icon class, an image file, a glyph', async (t) => {
  const { snapshot } = await offered(
    t,
    `<style>.tool { cursor: pointer; display: inline-block; width: 24px; height: 24px; margin: 4px }</style>
     <span class="tool"><svg width="20" height="20"><title>Share</title><circle cx="10" cy="10" r="8"/></svg></span>
     <i class="tool fa fa-star"></i>
     <span class="tool"><img src="/icons/trash-can.svg" width="20" height="20" alt=""></span>
     <span class="tool">+</span>
     <span class="deco" style="display:inline-block;width:24px;height:24px"><svg width="20" height="20"><title>Decoration</title><rect width="20" height="20"/></svg></span>
     <script>document.body.addEventListener('click', () => {})</script>`,
  )
  t.deepEqual(names(snapshot), ['Share', 'star', 'trash can', '+'])
})

test('nested clickables are one control: a row around its link, a tab around its link, a header around its button', async (t) => {
  const { snapshot, named } = await offered(
    t,
    `<ul><li id="item" style="cursor:pointer"><a href="#inbox">Inbox</a></li></ul>
     <div role="tablist"><div role="tab" aria-selected="true" tabindex="0"><a href="#specs">Specs</a></div><div role="tab" aria-selected="false" tabindex="-1"><a href="#reviews">Reviews</a></div></div>
     <div id="header" aria-expanded="false" style="cursor:pointer"><button type="button">Shipping</button></div>
     <div class="card" id="card" style="cursor:pointer"><a href="#course">Intro to Rust</a></div>
     <script>
       for (const id of ['item', 'header', 'card']) document.getElementById(id).addEventListener('click', () => {})
     </script>`,
  )
  t.deepEqual(names(snapshot), ['Inbox', 'Specs', 'Reviews', 'Shipping', 'Intro to Rust'])
  t.like(named.get('Inbox'), { tag: 'a' })
  t.like(named.get('Specs'), { role: 'tab', state: { selected: true } })
  t.like(named.get('Shipping'), { tag: 'button' })
  t.like(named.get('Intro to Rust'), { tag: 'a' })
})

test('an inbox row is offered beside the star and the checkbox inside it', async (t) => {
  const { snapshot, named } = await offered(
    t,
    `<style>.message { cursor: pointer; display: flex; gap: 8px } .star { cursor: pointer }</style>
     <div class="message"><input type="checkbox" aria-label="Select"><span class="star">☆</span><b>Ada Lovelace</b><span>Notes on the engine</span></div>
     <script>
       document.addEventListener('click', () => {})
       document.querySelector('.star').addEventListener('click', (event) => event.stopPropagation())
     </script>`,
  )
  t.is(snapshot.observation.elements.length, 3)
  t.truthy(named.get('Select'))
  t.truthy(named.get('☆'))
  t.true(names(snapshot).some((name) => name.includes('Ada Lovelace') && name.includes('Notes on the engine')))
})

test('grid cells, tree items and options made by script keep the role the page gives', async (t) => {
  const { named } = await offered(
    t,
    `<table role="grid"><tr><td role="gridcell" id="d1">1</td><td role="gridcell" id="d2" aria-selected="true">2</td><td role="gridcell">3</td></tr></table>
     <ul role="tree"><li role="treeitem" aria-expanded="false">Documents</li></ul>
     <div role="listbox"><div role="option">Small</div><div role="option" aria-selected="true">Large</div></div>
     <script>for (const id of ['d1', 'd2']) document.getElementById(id).addEventListener('click', () => {})</script>`,
  )
  t.like(named.get('1'), { role: 'gridcell' })
  t.like(named.get('2'), { role: 'gridcell', state: { selected: true } })
  // A grid cell with no listener, tabindex or cursor of its own is not offered.
  t.false(named.has('3'))
  t.like(named.get('Documents'), { role: 'treeitem', state: { expanded: false } })
  t.like(named.get('Large'), { role: 'option', state: { selected: true } })
})

test('a focusable container holding several controls is not one; a focusable span is', async (t) => {
  const { snapshot } = await offered(
    t,
    `<div tabindex="0" id="panel"><button>One</button><button>Two</button></div><span tabindex="0">Focusable span</span>`,
  )
  t.deepEqual(names(snapshot), ['One', 'Two', 'Focusable span'])
})

test('past the cap, distinct controls are kept before the hundredth copy of a name, and what was left out is named', async (t) => {
  const rows = Array.from({ length: 300 }, () => `<button style="width:40px;height:20px;margin:0;padding:0;font-size:8px">Add</button>`).join('')
  const { snapshot } = await offered(
    t,
    `<div style="display:flex;flex-wrap:wrap;width:1000px">${rows}</div><button>Checkout</button><a href="#help">Help</a>`,
    { width: 1000, height: 800 },
  )
  const { observation } = snapshot
  t.is(observation.elements.length, 250)
  t.true(names(snapshot).includes('Checkout'))
  t.true(names(snapshot).includes('Help'))
  t.is(observation.omitted, 52)
  t.deepEqual(observation.omittedNames, ['Add ×52'])
})

test('a titled icon inside a larger clickable is a control of its own; inside a link or a button it is part of it', async (t) => {
  const { snapshot } = await offered(
    t,
    `<style>.card { cursor: pointer; display: flex; gap: 8px; width: 300px; padding: 8px } .meta { display: block }</style>
     <div class="card"><div>Invoices<span class="meta">1 item</span></div><span class="more" title="More actions for Invoices">⋮</span></div>
     <a href="#x" style="display:inline-block;padding:4px">Download <span title="Download">⬇</span></a>
     <script>document.addEventListener('click', () => {})</script>`,
  )
  t.deepEqual(names(snapshot), ['Invoices 1 item ⋮', 'More actions for Invoices', 'Download ⬇'])
})

test('a list\'s first row, its text past the name limit, is offered, not taken for the list that listens for it', async (t) => {
  const long = 'Your statement for the account ending 4471 is now available to view online, with every payment of the month. '.repeat(8)
  const { snapshot } = await offered(
    t,
    `<div id="messages"><div class="msg" tabindex="0">Harbourline Bank 09:52 ${long}</div><div class="msg" tabindex="0">Priya Shah 09:14 Dinner on Friday?</div></div>
     <script>document.querySelector('#messages').addEventListener('click', () => {})</script>`,
  )
  const rows = names(snapshot)
  t.is(rows.length, 2, rows.join(' | '))
  t.true(rows[0]!.startsWith('Harbourline Bank 09:52'))
  t.is(rows[1], 'Priya Shah 09:14 Dinner on Friday?')
})

test('initials or a letter that a title spells out are named by both; a toggle drawn without text by the text beside it', async (t) => {
  const { named } = await offered(
    t,
    `<style>.me, .tgl, b { cursor: pointer } .tgl { display: inline-block; width: 40px; height: 20px; background: #ccc } .line { display: flex; gap: 8px }</style>
     <span class="me" title="Your profile">JM</span>
     <b title="Bold" aria-pressed="false">B</b>
     <div class="line"><div>Play a sound</div><div class="tgl" aria-checked="false"></div></div>
     <script>document.addEventListener('click', () => {})</script>`,
  )
  t.truthy(named.get('JM (Your profile)'))
  t.like(named.get('B (Bold)'), { state: { pressed: false } })
  t.like(named.get('Play a sound'), { nameFrom: 'layout', state: { checked: false } })
})

test('a count beside an icon is named by the icon; a card whose title link follows a labelled icon is offered as the link', async (t) => {
  const { snapshot } = await offered(
    t,
    `<style>.card { cursor: pointer; width: 260px; padding: 8px } .heart { cursor: pointer }</style>
     <span id="cart" style="cursor:pointer"><svg width="20" height="20"><title>Cart</title><rect width="20" height="20"/></svg><span>0</span></span>
     <div class="card"><span class="heart" aria-label="Favorite Pine ridge">♥</span><a href="#p">Pine ridge</a><div>Oregon · 2022</div></div>
     <script>
       document.getElementById('cart').addEventListener('click', () => {})
       document.querySelector('.card').addEventListener('click', () => {})
     </script>`,
  )
  t.deepEqual(names(snapshot), ['Cart 0', 'Favorite Pine ridge', 'Pine ridge'])
})
