import test from 'ava'
import { useChrome } from './helpers/chrome.ts'
import { observe } from '../src/collector/observe.ts'

// A frame whose document failed to load shows Chrome's own error page: it holds nothing of the page
// and is not observed (a script run there can stay unanswered until the frame's bound).

const chrome = useChrome(test)

test("a frame showing Chrome's error page is not observed; the page around it is", async (t) => {
  const page = await chrome.page(t)
  // Port 1 refuses the connection at once: the frame shows chrome-error://chromewebdata/.
  await page.setContent(`<!doctype html><button>Subscribe</button><iframe src="http://127.0.0.1:1/ad" width="300" height="250"></iframe>`, { waitUntil: 'load' })
  t.true(page.frames().some((frame) => frame.url().startsWith('chrome-error://')))
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  t.deepEqual(snapshot.observation.frames.map((frame) => frame.url.startsWith('chrome-error://')), [false])
  t.deepEqual(snapshot.observation.elements.map((element) => element.name), ['Subscribe'])
})
