import test from 'ava'
import { useChrome } from './helpers/chrome.ts'
import { observe } from '../src/collector/observe.ts'
import type { Snapshot } from '../src/collector/observation.ts'

// A long run must not pile up handles: each observation releases the one before it. The page replaces
// its controls before every observation, so a handle kept by mistake keeps a detached node alive, and
// the heap shows it.

const chrome = useChrome(test)

test('200 observations leave no handles behind', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<div id="host"></div><iframe srcdoc="<button>In frame</button>"></iframe>
    <script>
      window.rerender = (round) => {
        document.getElementById('host').innerHTML =
          Array.from({ length: 20 }, (_, i) => '<button class="probe">Round ' + round + ' button ' + i + '</button>').join('')
      }
      rerender(0)
    </script>`)
  await page.waitForFrame((frame) => frame.url() === 'about:srcdoc')

  let snapshot: Snapshot | undefined
  let offered = 0
  for (let round = 1; round <= 200; round++) {
    await page.evaluate((n) => (window as unknown as { rerender(n: number): void }).rerender(n), round)
    snapshot = await observe(page, { previous: snapshot })
    await snapshot.ready
    offered += snapshot.handles.size
  }
  t.is(snapshot!.handles.size, 21)
  t.is(offered, 200 * 21)
  await snapshot!.dispose()
  // Releases go out on a later turn; one more round trip after them means the renderer has them all.
  await new Promise((resolve) => setImmediate(resolve))
  await page.evaluate(() => 0)

  const session = await page.createCDPSession()
  await session.send('HeapProfiler.collectGarbage')
  const prototype = await page.evaluateHandle(() => HTMLButtonElement.prototype)
  const buttons = await page.queryObjects(prototype)
  const alive = await buttons.evaluate((list) => list.length)
  // 20 buttons in the page now; a leak would keep thousands of detached ones.
  t.true(alive <= 40, `${alive} button objects are alive`)
})

test('handles of nodes offered again pass to the next snapshot; the others are released', async (t) => {
  const page = await chrome.page(t)
  await page.setContent('<button>A</button><button>B</button><button id="c">C</button>')
  const first = await observe(page)
  await first.ready
  const handleOf = (snapshot: Snapshot, name: string) =>
    snapshot.handles.get(snapshot.observation.elements.find((element) => element.name === name)!.id)!
  const b = handleOf(first, 'B')
  const c = handleOf(first, 'C')
  await page.evaluate(() => document.getElementById('c')!.remove())
  const second = await observe(page, { previous: first })
  t.teardown(() => second.dispose())
  await second.ready
  t.is(handleOf(second, 'B'), b, 'the same handle, not a new one')
  await first.dispose()
  await new Promise((resolve) => setImmediate(resolve))
  t.is(await b.evaluate((el) => el.textContent), 'B', 'still usable after the previous snapshot is released')
  await t.throwsAsync(() => c.evaluate((el) => el.textContent))
})
