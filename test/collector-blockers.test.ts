import test from 'ava'
import type { Page } from 'puppeteer-core'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { isolatedWorld } from '../src/browser/isolated-world.ts'
import { observe } from '../src/collector/observe.ts'
import type { Observation } from '../src/collector/observation.ts'

// observe() in Chrome on what real pages hold: thousands of unrendered filter checkboxes, canvases
// that are and are not the page's surface, and CAPTCHAs of the common providers and languages.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function observed(t: { teardown(fn: () => unknown): void }, page: Page): Promise<Observation> {
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  return snapshot.observation
}

async function content(t: { teardown(fn: () => unknown): void }, html: string): Promise<Observation> {
  const page = await chrome.page(t)
  await page.setContent(html)
  return observed(t, page)
}

const kinds = (observation: Observation) => observation.blockers.map((blocker) => blocker.kind)

test('3,000 unrendered filter checkboxes and radios: no label lookups for them, the custom checkbox offered through its label', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url('/collector/filters.html'), { waitUntil: 'load' })
  // `el.labels` walks the document for each control (most of a second for these 3,000): count its
  // reads on the collapsed options, in the isolated world the page script runs in.
  await isolatedWorld(page.mainFrame()).evaluate(() => {
    const labels = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'labels')!
    const counter = globalThis as unknown as { collapsedLabelReads: number }
    counter.collapsedLabelReads = 0
    Object.defineProperty(HTMLInputElement.prototype, 'labels', {
      configurable: true,
      get(this: HTMLInputElement) {
        if (this.closest('.collapsed')) counter.collapsedLabelReads++
        return labels.get!.call(this)
      },
    })
  })
  const started = performance.now()
  const observation = await observed(t, page)
  t.log(`observation ${(performance.now() - started).toFixed(1)} ms`)
  t.true(observation.elements.some((element) => element.name === 'On sale'))
  t.false(observation.elements.some((element) => element.name.startsWith('Option')))
  t.is(await isolatedWorld(page.mainFrame()).evaluate(() => (globalThis as unknown as { collapsedLabelReads: number }).collapsedLabelReads), 0)
})

test('a canvas stops the run only when it is the surface: not a default canvas or a chart beside an article', async (t) => {
  const article = await content(
    t,
    `<h1>Sales this year</h1><p>Sales grew in every quarter.</p><canvas width="300" height="150"></canvas>
     <canvas style="width:400px;height:250px"></canvas><p>Read more</p><a href="/more">More</a>`,
  )
  t.deepEqual(kinds(article), [])
  t.true(article.elements.some((element) => element.name === 'More'))
  const game = await content(t, `<canvas style="display:block;width:900px;height:700px"></canvas><a href="/help">Help</a>`)
  t.deepEqual(kinds(game), ['canvas'])
})

test('CAPTCHA widgets of the common providers are recognised by structure, without any text', async (t) => {
  const widgets = [
    `<div class="g-recaptcha" data-sitekey="k" style="width:304px;height:78px"></div>`,
    `<div class="h-captcha" data-sitekey="k" style="width:304px;height:78px"></div>`,
    `<div class="cf-turnstile" data-sitekey="k" style="width:300px;height:65px"></div>`,
    `<div class="geetest_holder" style="width:300px;height:44px"></div>`,
    `<img src="/captcha.php?id=1" alt="" width="120" height="40"> <input name="code" aria-label="Code">`,
  ]
  for (const widget of widgets) {
    const observation = await content(t, `<form>${widget}<button>Send</button></form>`)
    t.deepEqual(kinds(observation), ['captcha'], widget)
  }
  // The invisible reCAPTCHA badge asks nothing.
  const badge = await content(t, `<div class="g-recaptcha" data-size="invisible" style="width:256px;height:60px"></div><button>Send</button>`)
  t.deepEqual(kinds(badge), [])
})

test('the CAPTCHA prompt is read in the common languages, in text and in a field placeholder', async (t) => {
  const slovak = await content(t, `<form><img src="/obrazok.png" width="120" height="40" alt=""><label>Opíšte kód z obrázku <input name="kod"></label><button>Odoslať</button></form>`)
  t.deepEqual(kinds(slovak), ['captcha'])
  t.regex(slovak.blockers[0]!.text!, /kód z obrázku/)
  for (const prompt of ['Nie jestem robotem', 'Я не робот', 'Geben Sie den Code aus dem Bild ein', '请输入图片验证码']) {
    t.deepEqual(kinds(await content(t, `<p>${prompt}</p><button>OK</button>`)), ['captcha'], prompt)
  }
  const placeholder = await content(t, `<form><input name="x" placeholder="Przepisz kod z obrazka"><button>OK</button></form>`)
  t.deepEqual(kinds(placeholder), ['captcha'])
})

test('a page that speaks of a code and an image is not a CAPTCHA', async (t) => {
  const shop = await content(
    t,
    `<h1>Checkout</h1><p>Enter the discount code from your e-mail. The image shows the product.</p>
     <img src="/product.jpg" width="200" height="150" alt="Shoe"><label>Discount code <input name="code" maxlength="8"></label>
     <p>Kód zľavy nájdete v e-maile. Obrázok je ilustračný.</p><button>Apply</button>`,
  )
  t.deepEqual(kinds(shop), [])
})
