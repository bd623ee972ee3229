import test, { type ExecutionContext } from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import type { GoalResult } from '../types/index.d.ts'
import { useCacheSite, type Variant } from './helpers/cache-site.ts'
import { useChrome } from './helpers/chrome.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// Goal replay on the three templates of the cache-site, as the site changes under a stored path:
// the same template again, blocks reordered, ids and classes regenerated, a button renamed, a
// consent banner after the first action, an element removed. Each replays, matches by score, or
// hands over to the model, and says which.

const chrome = useChrome(test)
const cacheSite = useCacheSite(test)

type Context = ExecutionContext

const PRODUCT_GOAL = 'Choose size M and add the product to the cart.'
const PRODUCT_STEPS: ScriptStep[] = [{ operation: 'SELECT', target: 'Size', option: 'M' }, { operation: 'CLICK', target: 'Add to cart' }, { operation: 'DONE' }]

async function run(t: Context, path: string, goal: string, steps: ScriptStep[], cache: unknown, variants: Variant[] = [], text = 'unused') {
  const page = await chrome.page(t)
  const query = variants.length > 0 ? `${path.includes('?') ? '&' : '?'}variant=${variants.join(',')}` : ''
  await page.goto(cacheSite.site.url(`${path}${query}`))
  const scripted = scriptedModel(steps)
  const result = await agent(page).goal(goal, {
    decisions: scripted.model,
    text: textModel(text),
    evaluator: evaluatorModel(0.9),
    checklist: false,
    cache,
  } as never)
  return { page, result, scripted, cache: (await result.profiling()).cache }
}

/** Each step as `OPERATION:how`: `cached:exact`, `model:scored` (a scored match the model chose) or `model`. */
function how(result: GoalResult): string[] {
  return result.trace.map((entry) => `${entry.operation}:${entry.cached ? `cached:${entry.match ?? ''}` : entry.match ? `model:${entry.match}` : 'model'}`)
}

const status = (page: Page) => page.$eval('[role=status]', (element) => element.textContent)

async function learnProduct(t: Context, store: Map<string, unknown>): Promise<void> {
  const first = await run(t, '/product/1', PRODUCT_GOAL, PRODUCT_STEPS, store)
  t.is(first.result.status, 'success', first.result.error?.message)
  t.is(first.cache, 'miss')
  t.is(store.size, 1)
}

test('the same template again: every step from the cache, one request to confirm', async (t) => {
  const store = new Map<string, unknown>()
  await learnProduct(t, store)
  const again = await run(t, '/product/27', PRODUCT_GOAL, [{ operation: 'DONE' }], store)
  t.is(again.result.status, 'success', again.result.error?.message)
  t.is(again.cache, 'hit')
  t.is(again.result.decisions, 1)
  t.deepEqual(how(again.result), ['SELECT:cached:exact', 'CLICK:cached:exact', 'DONE:model'])
  t.is(await status(again.page), 'Added to cart: size M')
})

test('reordered: the targets are found again and the replay is a hit', async (t) => {
  const store = new Map<string, unknown>()
  await learnProduct(t, store)
  const changed = await run(t, '/product/8', PRODUCT_GOAL, [{ operation: 'DONE' }], store, ['reordered'])
  t.is(changed.result.status, 'success', changed.result.error?.message)
  t.is(changed.cache, 'hit')
  t.is(changed.result.decisions, 1)
  t.true(changed.result.trace.slice(0, 2).every((entry) => entry.cached), how(changed.result).join(' '))
  t.is(await status(changed.page), 'Added to cart: size M')
})

test('ids: the form is named by a new id on every page, so each target matches by score and the model chooses it', async (t) => {
  const store = new Map<string, unknown>()
  await learnProduct(t, store)
  const changed = await run(t, '/product/8', PRODUCT_GOAL, PRODUCT_STEPS, store, ['ids'])
  t.is(changed.result.status, 'success', changed.result.error?.message)
  t.is(changed.cache, 'hit')
  t.deepEqual(how(changed.result), ['SELECT:model:scored', 'CLICK:model:scored', 'DONE:model'])
  t.is(await status(changed.page), 'Added to cart: size M')
})

test('renamed: the button is matched by score, chosen by the model, and the entry rewritten so the next run matches exactly', async (t) => {
  const store = new Map<string, unknown>()
  await learnProduct(t, store)
  const renamed = await run(t, '/product/3', PRODUCT_GOAL, [{ operation: 'CLICK', target: 'Add to basket' }, { operation: 'DONE' }], store, ['renamed'])
  t.is(renamed.cache, 'hit')
  t.deepEqual(how(renamed.result), ['SELECT:cached:exact', 'CLICK:model:scored', 'DONE:model'])
  t.is(renamed.result.decisions, 2)
  t.is(renamed.result.trace[1]!.targetName, 'Add to basket')
  t.is(await status(renamed.page), 'Added to cart: size M')
  const next = await run(t, '/product/4', PRODUCT_GOAL, [{ operation: 'DONE' }], store, ['renamed'])
  t.deepEqual(how(next.result), ['SELECT:cached:exact', 'CLICK:cached:exact', 'DONE:model'])
})

test('consent: a banner over step 2 hands the run to the model, and the healed path is stored', async (t) => {
  const store = new Map<string, unknown>()
  await learnProduct(t, store)
  const healing: ScriptStep[] = [{ operation: 'CLICK', target: 'Reject all' }, { operation: 'CLICK', target: 'Add to cart' }, { operation: 'DONE' }]
  const banner = await run(t, '/product/5', PRODUCT_GOAL, healing, store, ['consent'])
  t.is(banner.result.status, 'success', banner.result.error?.message)
  t.is(banner.cache, 'healed')
  t.is(how(banner.result)[0], 'SELECT:cached:exact')
  t.true(banner.result.trace.slice(1).every((entry) => !entry.cached), how(banner.result).join(' '))
  t.is(await status(banner.page), 'Added to cart: size M')
  // The healed path (with the banner's button) is what the next run with the banner replays.
  const next = await run(t, '/product/6', PRODUCT_GOAL, [{ operation: 'DONE' }], store, ['consent'])
  t.is(next.cache, 'hit', how(next.result).join(' '))
})

test('removed: a step whose element is gone is decided by the model; the run heals', async (t) => {
  const store = new Map<string, unknown>()
  await learnProduct(t, store)
  const gone = await run(t, '/product/9', PRODUCT_GOAL, [{ operation: 'CLICK', target: 'Add to cart' }, { operation: 'DONE' }], store, ['removed'])
  t.is(gone.result.status, 'success', gone.result.error?.message)
  t.is(gone.cache, 'healed')
  t.deepEqual(how(gone.result), ['CLICK:model', 'DONE:model'])
  t.is(await status(gone.page), 'Added to cart')
})

test('search and category templates replay typed text, submit and select', async (t) => {
  const store = new Map<string, unknown>()
  const searchSteps: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: 'Search products' }, { operation: 'SUBMIT', target: 'Search products' }, { operation: 'DONE' }]
  const learned = await run(t, '/search?store=1', 'Search for lamps.', searchSteps, store, [], 'lamp')
  t.is(learned.result.status, 'success', learned.result.error?.message)
  const replayed = await run(t, '/search?store=2', 'Search for lamps.', [{ operation: 'DONE' }], store)
  t.is(replayed.cache, 'hit')
  t.deepEqual(how(replayed.result), ['TYPE_TEXT:cached:exact', 'SUBMIT:cached:exact', 'DONE:model'])
  t.regex(replayed.page.url(), /q=lamp/)

  const sortSteps: ScriptStep[] = [{ operation: 'SELECT', target: 'Sort by', option: 'Price: low to high' }, { operation: 'DONE' }]
  await run(t, '/category/1', 'Sort the list by price, lowest first.', sortSteps, store)
  const sorted = await run(t, '/category/12', 'Sort the list by price, lowest first.', [{ operation: 'DONE' }], store)
  t.is(sorted.cache, 'hit')
  t.deepEqual(how(sorted.result), ['SELECT:cached:exact', 'DONE:model'])
})
