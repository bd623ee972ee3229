import { FlagError } from '../common/flags.ts'
import type { VerifyBlock } from './verify-block.ts'

/** Where a task starts: a page of test/fixtures/ (`fixtures`), or of the bundled demo shop (`demo`). */
export type TaskSite = 'fixtures' | 'demo'

export interface ChecklistTask {
  /** Short and unique: `--tasks=<names>` picks tasks by it. */
  name: string
  site: TaskSite
  /** Path of the start page on its site. */
  path: string
  /** Worded as a user would, not as the checklist or the offline models would like it. */
  goal: string
  verify: VerifyBlock
  /** A frame whose URL contains this must be attached before the goal starts (the consent banner). */
  frame?: string
}

/**
 * The suite: small tasks on the fixture sites and the demo shop. Some ask for a reading the offline
 * word-overlap models cannot do (the most discussed story, the cheapest jacket, a phone number behind
 * a link that does not say "phone"), and one cannot be done at all (the shop sells no kayak), so that
 * a claimed success the page does not back shows up as a false success.
 */
export const TASKS: readonly ChecklistTask[] = [
  {
    name: 'search-dune',
    site: 'fixtures',
    path: 'sites/search/index.html',
    goal: 'Search for "dune"',
    verify: { url_contains: 'results.html?q=dune', text_contains: 'Children of Dune' },
  },
  {
    name: 'search-emma',
    site: 'fixtures',
    path: 'sites/search/index.html',
    goal: 'Look up the book "Emma" and show me the results',
    verify: { text_contains: 'Results for "Emma"', text_excludes: 'Dune' },
  },
  {
    name: 'news-moss',
    site: 'fixtures',
    path: 'sites/news/index.html',
    goal: 'Open the comments on the story about moss',
    verify: { url_contains: 'comments.html?story=2', text_contains: 'Comments on "A field guide to moss"' },
  },
  {
    name: 'news-most-discussed',
    site: 'fixtures',
    path: 'sites/news/index.html',
    goal: 'Read the comments of the most discussed story',
    verify: { url_contains: 'comments.html?story=3' },
  },
  {
    name: 'form-large',
    site: 'fixtures',
    path: 'sites/form/index.html',
    goal: 'Order a large pizza with thick crust and extra cheese',
    verify: { text_contains: 'Ordered: l thick crust with extra cheese' },
  },
  {
    name: 'form-small',
    site: 'fixtures',
    path: 'sites/form/index.html',
    goal: 'Place an order for a small pizza, no extra cheese',
    verify: { text_contains: 'Ordered: s ', text_excludes: 'extra cheese' },
  },
  {
    name: 'long-more',
    site: 'fixtures',
    path: 'sites/long/index.html',
    goal: 'Show all the chapters',
    verify: { text_contains: 'All five chapters shown.' },
  },
  {
    name: 'shadow-subscribe',
    site: 'fixtures',
    path: 'sites/shadow/index.html',
    goal: 'Subscribe to the newsletter as "ada@example.com"',
    verify: { text_contains: 'Subscribed ada@example.com.' },
  },
  {
    name: 'consent-reject',
    site: 'fixtures',
    path: 'sites/consent/index.html',
    goal: 'Say no to the cookies',
    verify: { text_contains: 'Cookies rejected.' },
    frame: '/banner.html',
  },
  {
    name: 'spa-contact',
    site: 'fixtures',
    path: 'sites/spa/index.html',
    goal: 'Go to the contact page',
    verify: { url_contains: '/sites/spa/contact', text_contains: 'Call 555-0100.' },
  },
  {
    name: 'spa-phone',
    site: 'fixtures',
    path: 'sites/spa/index.html',
    goal: "What is the bakery's phone number?",
    verify: { text_contains: '555-0100' },
  },
  {
    name: 'stale-bananas',
    site: 'fixtures',
    // The list re-renders every 400 ms, so a target can go stale between a decision and the click.
    path: 'sites/stale/index.html?every=400',
    goal: 'Buy bananas',
    verify: { text_contains: 'Picked Bananas.' },
  },
  {
    name: 'demo-trail-shoes',
    site: 'demo',
    path: '/',
    goal: 'Search for "trail shoes" and open the first result',
    verify: { url_contains: '/product/trail-runner-pro', text_contains: 'Vibram Megagrip' },
  },
  {
    name: 'demo-tent',
    site: 'demo',
    path: '/',
    goal: 'Show me the tent for two people',
    verify: { url_contains: '/product/two-person-tent' },
  },
  {
    name: 'demo-cheapest-jacket',
    site: 'demo',
    path: '/',
    goal: 'Open the cheapest jacket',
    verify: { url_contains: '/product/alpine-shell-jacket' },
  },
  {
    name: 'demo-kayak',
    site: 'demo',
    path: '/',
    goal: 'Search for "kayak" and open the first result',
    verify: { url_contains: '/product/' },
  },
]

/** The tasks `--tasks` names, in suite order; all of them without the flag. An unknown name is refused. */
export function pickTasks(names: readonly string[]): ChecklistTask[] {
  if (names.length === 0) return [...TASKS]
  const known = new Set(TASKS.map((task) => task.name))
  const unknown = names.filter((name) => !known.has(name))
  if (unknown.length > 0) {
    throw new FlagError(`Unknown task ${unknown.map((name) => JSON.stringify(name)).join(', ')} in --tasks. Known tasks: ${[...known].join(', ')}.`)
  }
  return TASKS.filter((task) => names.includes(task.name))
}
