import test from 'ava'
import type { Frame, Page } from 'puppeteer-core'
import { useChrome } from './helpers/chrome.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'
import { isolatedWorld } from '../src/browser/isolated-world.ts'
import { PAGE_SCRIPTS } from '../src/page/bundle.generated.ts'
import type { Snapshot } from '../src/collector/observation.ts'

// Observations that cost what changed, in real Chrome: the walk of the last observation is kept and
// only the subtrees that changed are walked again; the viewport watch spares box reads; a page that did
// not change is reported as it was. Each case changes the page one way and checks that the next
// observation shows exactly what a first observation of the changed page would.

const chrome = useChrome(test)

const names = (snapshot: Snapshot) => snapshot.observation.elements.map((element) => element.name)

/** A page long enough that most of it is outside the viewport, as on a shop's category page. */
const PAGE = `<!doctype html><html><head><style>
  body { font: 14px sans-serif; margin: 8px }
  .menu ul { display: none }
  .menu input:checked ~ ul { display: block }
  .gap { height: 1500px }
</style></head><body>
<h1 id="title">Shop</h1>
<nav class="menu">
  <input type="checkbox" id="more" style="display:none"><label for="more">Categories</label>
  <ul><li><a href="/shoes">Shoes</a></li><li><a href="/bags">Bags</a></li></ul>
</nav>
<section id="list"><button>First</button> <button>Second</button> <span id="note"> </span></section>
<section id="later" hidden><button>Revealed</button></section>
<div id="plain">Plain box</div>
<p id="words"> </p>
<form><label>Quantity <input name="qty" value="1"></label></form>
<div class="gap"></div>
<button id="far">Far below</button>
</body></html>`

async function opened(t: { teardown(fn: () => unknown): void }): Promise<{ page: Page; next(): Promise<Snapshot> }> {
  const page = await chrome.page(t)
  await page.setContent(PAGE)
  let snapshot: Snapshot | undefined = await observe(page)
  t.teardown(() => snapshot?.dispose())
  return {
    page,
    next: async () => {
      snapshot = await observe(page, { previous: snapshot })
      return snapshot
    },
  }
}

/** Waits until the page has drawn a frame, as it has by the time a step's settling is over. */
const drawn = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))))

test('an unchanged page is observed again as it was', async (t) => {
  const { page, next } = await opened(t)
  const first = names(await next())
  await drawn(page)
  const again = await next()
  t.deepEqual(names(again), first)
  t.deepEqual(first, ['Categories', 'First', 'Second', 'Quantity'])
})

test('controls added, removed, renamed or revealed deep in the page show in the next observation, in document order', async (t) => {
  const { page, next } = await opened(t)
  await page.evaluate(() => {
    const list = document.getElementById('list')!
    list.querySelector('button')!.remove()
    const added = document.createElement('button')
    added.textContent = 'Added'
    list.prepend(added)
    // A text node of white space only, that the walk does not keep, gets words.
    document.getElementById('note')!.firstChild!.textContent = 'Note'
    document.getElementById('note')!.setAttribute('role', 'button')
    list.querySelectorAll('button')[1]!.firstChild!.textContent = 'Renamed'
    document.getElementById('later')!.hidden = false
  })
  await drawn(page)
  t.deepEqual(names(await next()), ['Categories', 'Added', 'Renamed', 'Note', 'Revealed', 'Quantity'])
  // Only a text node that held white space changes.
  await page.evaluate(() => {
    document.getElementById('words')!.firstChild!.textContent = 'Fresh words'
  })
  await drawn(page)
  t.true((await next()).observation.text.includes('Fresh words'))
  await page.evaluate(() => {
    const list = document.getElementById('list')!
    document.getElementById('later')!.append(list.querySelector('button')!)
    document.getElementById('plain')!.setAttribute('role', 'button')
  })
  // Observed at once: the page has not drawn a frame since, so no box is taken from the watch.
  t.deepEqual(names(await next()), ['Categories', 'Renamed', 'Note', 'Revealed', 'Added', 'Plain box', 'Quantity'])
})

test('a listener added with no change to the markup makes the element a control in the next observation', async (t) => {
  const { page, next } = await opened(t)
  await page.evaluate(() => document.getElementById('title')!.addEventListener('click', () => {}))
  await drawn(page)
  t.deepEqual(names(await next()), ['Shop', 'Categories', 'First', 'Second', 'Quantity'])
})

test('what changes with no mutation still shows: a checkbox checked by script, a value, the focus, a scroll', async (t) => {
  const { page, next } = await opened(t)
  await drawn(page)
  await next()
  // A CSS `:checked` rule opens the menu: no event, no mutation.
  await page.evaluate(() => {
    ;(document.getElementById('more') as HTMLInputElement).checked = true
  })
  await drawn(page)
  t.deepEqual(names(await next()), ['Categories', 'Shoes', 'Bags', 'First', 'Second', 'Quantity'])
  await page.evaluate(() => {
    ;(document.querySelector('input[name=qty]') as HTMLInputElement).value = '3'
  })
  let snapshot = await next()
  t.is(snapshot.observation.elements.find((element) => element.name === 'Quantity')?.value, '3')
  await page.evaluate(() => (document.querySelector('input[name=qty]') as HTMLInputElement).focus())
  snapshot = await next()
  t.true(snapshot.observation.elements.find((element) => element.name === 'Quantity')?.focused)
  // Observed before the page drew the scrolled frame.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  snapshot = await next()
  t.true(names(snapshot).includes('Far below'))
  t.false(names(snapshot).includes('First'))
})

test('a control moved into the viewport by a style change is offered, one moved out is not', async (t) => {
  const { page, next } = await opened(t)
  await drawn(page)
  await next()
  await page.evaluate(() => {
    document.getElementById('far')!.style.cssText = 'position:fixed;top:10px;right:10px'
    document.getElementById('list')!.style.cssText = 'position:relative;top:3000px'
  })
  await drawn(page)
  const snapshot = await next()
  t.true(names(snapshot).includes('Far below'))
  t.false(names(snapshot).includes('First'))
})

const nearbyOf = (snapshot: Snapshot, name: string) => snapshot.observation.elements.find((element) => element.name === name)?.nearby

test('a heading added, hidden or removed after the last observation names the controls after it in the next, and the freshness check reads the same', async (t) => {
  const { page, next } = await opened(t)
  await drawn(page)
  t.is(nearbyOf(await next(), 'Quantity'), 'Shop')
  await page.evaluate(() => {
    const heading = document.createElement('h2')
    heading.id = 'deals'
    heading.textContent = 'Deals'
    document.querySelector('form')!.before(heading)
  })
  await drawn(page)
  let snapshot = await next()
  t.is(nearbyOf(snapshot, 'Quantity'), 'Deals')
  const quantity = snapshot.observation.elements.find((element) => element.name === 'Quantity')!
  t.true((await checkFreshness(snapshot, quantity.id)).fresh)
  // A heading in a subtree the walk does not enter (`hidden`, shown by a style all the same) is not one.
  await page.evaluate(() => {
    const box = document.createElement('div')
    box.hidden = true
    box.style.display = 'block'
    box.innerHTML = '<h3>Hidden offers</h3>'
    document.getElementById('deals')!.after(box)
  })
  await drawn(page)
  snapshot = await next()
  t.is(nearbyOf(snapshot, 'Quantity'), 'Deals')
  t.true((await checkFreshness(snapshot, snapshot.observation.elements.find((element) => element.name === 'Quantity')!.id)).fresh)
  await page.evaluate(() => document.getElementById('deals')!.remove())
  await drawn(page)
  t.is(nearbyOf(await next(), 'Quantity'), 'Shop')
})

test('a verification widget that appears after the last observation stops the page in the next; gone, it no longer does', async (t) => {
  const { page, next } = await opened(t)
  await drawn(page)
  t.deepEqual((await next()).observation.blockers, [])
  await page.evaluate(() => {
    const widget = document.createElement('div')
    widget.className = 'login-box g-recaptcha'
    widget.style.cssText = 'width:304px;height:78px'
    document.getElementById('list')!.append(widget)
  })
  await drawn(page)
  t.deepEqual((await next()).observation.blockers.map((blocker) => blocker.kind), ['captcha'])
  await page.evaluate(() => document.querySelector('.g-recaptcha')!.remove())
  await drawn(page)
  t.deepEqual((await next()).observation.blockers, [])
})

test('a listener taken away with no change to the markup: the element is no longer a control in the next observation', async (t) => {
  const { page, next } = await opened(t)
  await page.evaluate(() => {
    const onClick = () => {}
    ;(window as unknown as { onTitle: () => void }).onTitle = onClick
    document.getElementById('title')!.addEventListener('click', onClick)
  })
  await drawn(page)
  t.deepEqual(names(await next()), ['Shop', 'Categories', 'First', 'Second', 'Quantity'])
  // Observed with what the last observation was handed while the listeners are read again.
  await page.evaluate(() => document.getElementById('title')!.removeEventListener('click', (window as unknown as { onTitle: () => void }).onTitle))
  await drawn(page)
  t.deepEqual(names(await next()), ['Categories', 'First', 'Second', 'Quantity'])
  await page.evaluate(() => document.getElementById('title')!.addEventListener('click', (window as unknown as { onTitle: () => void }).onTitle))
  await drawn(page)
  t.deepEqual(names(await next()), ['Shop', 'Categories', 'First', 'Second', 'Quantity'])
})

test('a frame its iframe does not show is not observed at all; shown later, it is observed and offered', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<button>Outside</button><iframe id="slot" style="display:none" srcdoc="<button>Inside</button><iframe srcdoc='<button>Deeper</button>'></iframe>"></iframe>`)
  let snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  t.deepEqual(names(snapshot), ['Outside'])
  // Neither the hidden frame nor the one inside it ran any script of ours.
  const installed = (frame: Frame) => isolatedWorld(frame).evaluate((key) => Symbol.for(key) in globalThis, PAGE_SCRIPTS.goal.key)
  const children = page.mainFrame().childFrames()
  t.is(children.length, 1)
  t.false(await installed(children[0]!))
  t.false(await installed(children[0]!.childFrames()[0]!))
  await page.evaluate(() => (document.getElementById('slot')!.style.display = 'block'))
  await drawn(page)
  snapshot = await observe(page, { previous: snapshot })
  t.deepEqual(names(snapshot), ['Outside', 'Inside', 'Deeper'])
})
