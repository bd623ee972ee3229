import test from 'ava'
import type { Page } from 'puppeteer-core'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { observe } from '../src/collector/observe.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import type { Snapshot } from '../src/collector/observation.ts'

// checkFreshness() in real Chrome: what the executor asks just before input.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const FORM = `<style>body{margin:0;font:14px sans-serif}</style>
  <h1>Search</h1>
  <form name="s"><input name="q" aria-label="Query" value="bmw"><input name="max" aria-label="Max" value="20000"><button>Go</button></form>
  <p id="elsewhere">Unrelated text</p>
  <ul><li><a href="/offer">Offer</a> <span id="price">100 €</span></li></ul>
  <div style="height:3000px"></div>`

async function setup(t: { teardown(fn: () => unknown): void }, html = FORM): Promise<{ page: Page; snapshot: Snapshot; id(name: string): string }> {
  const page = await chrome.page(t)
  await page.setContent(html)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  await snapshot.ready
  const id = (name: string) => {
    const found = snapshot.observation.elements.find((element) => element.name === name)
    if (!found) throw new Error(`no element named ${name}`)
    return found.id
  }
  return { page, snapshot, id }
}

const reasonOf = async (snapshot: Snapshot, id: string, options?: { focused?: boolean }) => {
  const result = await checkFreshness(snapshot, id, options)
  return result.fresh ? 'fresh' : result.reason
}

test('an untouched target is fresh and comes with its handle', async (t) => {
  const { snapshot, id } = await setup(t)
  const result = await checkFreshness(snapshot, id('Go'))
  t.true(result.fresh)
  if (result.fresh) t.is(result.handle, snapshot.handles.get(id('Go'))!)
})

test('changes elsewhere on the page are tolerated, and a target that moved is still fresh', async (t) => {
  const { page, snapshot, id } = await setup(t)
  await page.evaluate(() => {
    document.getElementById('elsewhere')!.textContent = 'Changed text'
    document.body.insertAdjacentHTML('afterbegin', '<div style="height:50px">Banner</div>')
  })
  t.is(await reasonOf(snapshot, id('Go')), 'fresh')
  t.is(await reasonOf(snapshot, id('Offer')), 'fresh')
})

test('value, same-form values and nearby text changes are named', async (t) => {
  const { page, snapshot, id } = await setup(t)
  await page.$eval('input[name=q]', (input) => ((input as HTMLInputElement).value = 'audi'))
  await page.$eval('#price', (span) => (span.textContent = '90 €'))
  t.is(await reasonOf(snapshot, id('Query')), 'value changed')
  t.is(await reasonOf(snapshot, id('Go')), 'form values changed')
  t.is(await reasonOf(snapshot, id('Offer')), 'nearby text changed')
})

test('covered, hidden, scrolled away and removed targets', async (t) => {
  const { page, snapshot, id } = await setup(t)
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<div style="position:fixed;top:0;left:0;width:100%;height:120px;background:#fff"></div>')
    document.querySelector('button')!.style.visibility = 'hidden'
    document.querySelector('a')!.remove()
  })
  t.is(await reasonOf(snapshot, id('Query')), 'covered')
  t.is(await reasonOf(snapshot, id('Go')), 'hidden')
  t.is(await reasonOf(snapshot, id('Offer')), 'detached')
  await page.evaluate(() => window.scrollTo(0, 2000))
  t.is(await reasonOf(snapshot, id('Max')), 'offscreen')
})

test('a target whose document was replaced, or rewritten in place, is stale', async (t) => {
  const rewritten = await setup(t)
  await rewritten.page.setContent(FORM)
  t.is(await reasonOf(rewritten.snapshot, rewritten.id('Go')), 'detached')
  const { page, snapshot, id } = await setup(t)
  await page.goto(`data:text/html,${encodeURIComponent(FORM)}`)
  t.is(await reasonOf(snapshot, id('Go')), 'document changed')
})

test('an unknown action ID is reported, not thrown', async (t) => {
  const { snapshot } = await setup(t)
  t.is(await reasonOf(snapshot, 'e999'), 'unknown target e999')
})

test('the focus check for text entry', async (t) => {
  const { page, snapshot, id } = await setup(t)
  t.is(await reasonOf(snapshot, id('Query'), { focused: true }), 'not focused')
  await page.focus('input[name=q]')
  t.is(await reasonOf(snapshot, id('Query'), { focused: true }), 'fresh')
})

test('shadow DOM targets: slotted controls, and covers inside the shadow tree', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url('/collector/shadow.html'))
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  const save = snapshot.observation.elements.find((element) => element.name === 'Slotted save')!
  t.is(await reasonOf(snapshot, save.id), 'fresh')
  await page.evaluate(() => {
    const root = document.querySelector('fancy-button')!.shadowRoot!
    root.innerHTML = '<div style="position:relative"><button><slot></slot></button><div style="position:absolute;inset:0;background:#eee"></div></div>'
  })
  t.is(await reasonOf(snapshot, save.id), 'detached')
  const again = await observe(page, { previous: snapshot })
  t.teardown(() => again.dispose())
  t.false(again.observation.elements.some((element) => element.name === 'Slotted save'), 'covered inside its own shadow tree')
  const find = again.observation.elements.find((element) => element.name === 'Find')!
  await page.evaluate(() => {
    const cover = document.createElement('div')
    cover.style.cssText = 'position:fixed;inset:0;background:#fff'
    document.querySelector('search-box')!.shadowRoot!.append(cover)
  })
  t.is(await reasonOf(again, find.id), 'covered')
})

test('a target in a cross-origin frame is fresh until the top page covers it', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(`/collector/frames.html?consent=${encodeURIComponent(servers.other.url('/collector/consent.html'))}`))
  await page.waitForFrame((frame) => frame.url().includes('consent.html'))
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  const accept = snapshot.observation.elements.find((element) => element.name === 'Accept all')!
  t.is(accept.frame, 2)
  t.is(await reasonOf(snapshot, accept.id), 'fresh')
  await page.evaluate(() =>
    document.body.insertAdjacentHTML('beforeend', '<div style="position:fixed;inset:0;background:rgba(0,0,0,.5)"></div>'),
  )
  t.is(await reasonOf(snapshot, accept.id), 'covered')
})
