import test from 'ava'
import type { Page } from 'puppeteer-core'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'
import type { Snapshot } from '../src/collector/observation.ts'
import { act } from '../src/executor/act.ts'
import { useChrome } from './helpers/chrome.ts'

// How a click brings the pointer to its target, in real Chrome: moved there first (the browser sends
// a move with its next frame) where a listener on the way, on the document or on the window follows
// the pointer; pressed there directly where nothing does. The browser's hit test comes before the press
// either way.

const chrome = useChrome(test)

const PAGE = `<!doctype html><html><body style="font:14px sans-serif">
<button id="plain" onclick="this.dataset.clicks = (Number(this.dataset.clicks || 0) + 1)">Plain</button>
<div id="menu"><button id="hovered">Hovered</button></div>
<script>
  // Hovering the menu lays a cover over its button, as a menu that opens over the page does.
  document.getElementById('menu').addEventListener('mouseenter', () => {
    const cover = document.createElement('div')
    cover.style.cssText = 'position:fixed;inset:0;background:#fff'
    document.body.append(cover)
  })
</script></body></html>`

async function opened(t: { teardown(fn: () => unknown): void }, html: string): Promise<{ page: Page; snapshot: Snapshot; moves: () => number }> {
  const page = await chrome.page(t)
  await page.setContent(html)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  let moves = 0
  const move = page.mouse.move.bind(page.mouse)
  page.mouse.move = async (...args) => {
    moves += 1
    return move(...args)
  }
  return { page, snapshot, moves: () => moves }
}

function click(page: Page, snapshot: Snapshot, name: string) {
  const element = snapshot.observation.elements.find((candidate) => candidate.name === name)!
  return act({ page, snapshot, decision: { operation: 'CLICK', target: element.id, decisionMs: 0 }, element, waitMs: 0, checkFreshness })
}

test('the collector says which controls a listener on the way follows the pointer of', async (t) => {
  const { snapshot } = await opened(t, PAGE)
  const followed = Object.fromEntries(snapshot.observation.elements.map((element) => [element.name, element.pointerFollowed === true]))
  t.deepEqual(followed, { Plain: false, Hovered: true })
  const page = await chrome.page(t)
  await page.setContent('<button>One</button><button>Two</button><script>window.addEventListener("pointermove", () => {})</script>')
  const everywhere = await observe(page)
  t.teardown(() => everywhere.dispose())
  t.deepEqual(everywhere.observation.elements.map((element) => element.pointerFollowed), [true, true])
})

test('a control nothing follows the pointer on is pressed where it is, with no move first', async (t) => {
  const { page, snapshot, moves } = await opened(t, PAGE)
  t.like(await click(page, snapshot, 'Plain'), { acted: true })
  t.is(await page.$eval('#plain', (button) => (button as HTMLElement).dataset.clicks), '1')
  t.is(moves(), 0)
})

test('a control under a pointer listener gets the move first, and the hit test sees what the hover did', async (t) => {
  const { page, snapshot, moves } = await opened(t, PAGE)
  const outcome = await click(page, snapshot, 'Hovered')
  t.is(moves(), 1)
  t.false(outcome.acted)
  t.regex('stale' in outcome ? outcome.stale : '', /hit test found/)
})

// A link whose first line box lies under a fixed bar, its second line in the open: the centre of its
// first box would hit the bar.
const WRAPPED = `<!doctype html><html><body style="margin:0;font:16px/20px sans-serif">
<p style="width:220px;margin:0;padding-top:0">Some words here and <a id="wrapped" href="#" onmouseover="this.dataset.hovered = 'yes'" onclick="this.dataset.clicks = (Number(this.dataset.clicks || 0) + 1); return false">a link that wraps onto the next line</a> end.</p>
<div style="position:fixed;left:0;top:0;width:100%;height:20px;background:#eee">Bar</div>
</body></html>`

test('a hover rests where the freshness check found the target visible: a wrapped link whose first line is covered', async (t) => {
  const { page, snapshot } = await opened(t, WRAPPED)
  const element = snapshot.observation.elements.find((candidate) => candidate.name === 'a link that wraps onto the next line')!
  const outcome = await act({ page, snapshot, decision: { operation: 'HOVER', target: element.id, decisionMs: 0 }, element, waitMs: 0, checkFreshness })
  t.like(outcome, { acted: true })
  t.is(await page.$eval('#wrapped', (link) => (link as HTMLElement).dataset.hovered), 'yes')
})

test('a click presses where the freshness check found the target visible: a wrapped link whose first line is covered', async (t) => {
  const { page, snapshot } = await opened(t, WRAPPED)
  const rects = await page.$eval('#wrapped', (link) => Array.from(link.getClientRects(), (rect) => rect.top))
  t.true(rects.length >= 2 && rects[0]! < 20, `the link starts under the bar: ${JSON.stringify(rects)}`)
  t.like(await click(page, snapshot, 'a link that wraps onto the next line'), { acted: true })
  t.is(await page.$eval('#wrapped', (link) => (link as HTMLElement).dataset.clicks), '1')
})

test('a button half under a fixed bar (its centre under a link of the bar) is offered and pressed where it shows; one the bar hides whole is not offered', async (t) => {
  const { page, snapshot } = await opened(
    t,
    `<!doctype html><html><body style="margin:0;font:16px sans-serif">
    <button id="half" style="position:absolute;top:10px;left:20px;height:50px;width:400px" onclick="this.dataset.clicks = (Number(this.dataset.clicks || 0) + 1)">Half shown</button>
    <button id="whole" style="position:absolute;top:5px;left:450px;height:20px;width:120px">Hidden whole</button>
    <header style="position:fixed;left:0;top:0;width:100%;height:52px;background:#eee"><nav><a href="#shop" style="position:absolute;left:150px;top:0;width:150px;height:52px">Shop</a></nav></header>
    </body></html>`,
  )
  const names = snapshot.observation.elements.map((element) => element.name)
  t.true(names.includes('Half shown'), names.join(', '))
  t.false(names.includes('Hidden whole'))
  t.like(await click(page, snapshot, 'Half shown'), { acted: true })
  t.is(await page.$eval('#half', (button) => (button as HTMLElement).dataset.clicks), '1')
})
