// npm run bench:cache -- [--pages=200] [--out=file.jsonl]
// The replay cache on a local site (test/fixtures/cache-site): `--pages` pages taken from its three
// templates in turn (a category list, a product, a search page), each visited twice, in a fresh
// browser context with a fresh agent. On every page a goal (category: sort by price; product: choose
// size M and add to cart; search: search for "trail shoes"), then an extraction with an instruction
// on the page the goal ended on. Each goal and each instruction is the same text on every page of its
// template: the cache keys on it (and on the page's origin and path shape).
//
// The models are scripted and answer at once: the decision model plays a policy that reads the
// request like a model would (scripts/cache/tasks.ts), the text model types "trail shoes", the rules
// writer (a MockLanguageModelV4) returns `{"rules": …}` for the instruction in its prompt.
//
// - Pass 1, cold: the cache directory (a new temporary one) is written, never read, so every page
//   is a first visit: what the 200 pages cost without a cache, and a model step on every page.
//   (Reading it too would replay from the second page of each template on.)
// - Pass 2, warm: the same pages again with `cache: <that directory>`, read and written.
//
// Goals run with the caller's checklist of each template (scripts/cache/tasks.ts), not
// `checklist: false`: a caller's list costs no request in either pass, so the text requests
// counted are the goal's typed values only; and DONE then counts only when the page verified every
// item, so a replay that clicked the wrong thing cannot pass as a success. A page counts as failed
// unless its goal succeeded verified and its extraction read the catalog's values (the data checked
// against test/fixtures/cache-site/catalog.ts).
//
// Printed per pass: decision requests per page (the goal's; the profiling() evaluator is not one),
// text requests per page of the goal and of the extraction, the median time per page (goal plus
// extraction; opening the page is left out, it is the same in both passes), and the share of pages
// per cache outcome, goal and extraction: hit / healed / miss ("off" when profiling() reports none).
//
// Step times: a step is a trace entry that acted (not DONE, not stale). Its non-model time is
// observeMs + decisionMs + actMs. With an instant decision model, decisionMs of a model step is
// all library time (building the request, reading the answer); of a replayed step it is the time to
// find the recorded target. "model" steps are those the model chose (pass 1, and any pass 2 step the
// model took over); "replayed" steps are `cached: true`. Medians over all of them.
//
// Targets (printed met / MISSED): the second pass at most 0.05 extraction requests per page; at
// least 95% of its goal steps from the cache; a replayed step's median non-model time at most 10%
// above a model step's (faster is within). The exit code is 0 whenever the bench ran; a missed
// target is in the output, not in the code.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { directoryStore } from '../src/cache/cache-store.ts'
import type { CacheStore } from '../types/index.d.ts'
import { serveCacheSite } from '../test/helpers/cache-site.ts'
import { runPage, type PageRecord } from './cache/run-page.ts'
import { checkTargets, renderPasses, renderSteps, renderTargets, summarizePass, summarizeSteps } from './cache/tally.ts'
import { benchPages } from './cache/tasks.ts'
import { launchBrowser } from './common/browser.ts'
import { integerFlag, parseFlags, stringFlag } from './common/flags.ts'
import { appendJsonLine, startJsonl, temporaryJsonlPath } from './common/jsonl.ts'
import { firstLine } from './common/message.ts'
import { progress } from './common/progress.ts'
import { runScript } from './common/run-script.ts'

const USAGE = `Usage: npm run bench:cache -- [flags]
  --pages=<n>            pages visited in each pass, the three templates in turn (default 200)
  --out=<file.jsonl>     where the records go, one per page and pass (default: a new file in the temporary directory)`

const PASSES = [
  { pass: 1, label: 'cold (written, not read)' },
  { pass: 2, label: 'warm (from the cache)' },
] as const

/** A store that keeps what is written and finds nothing: pass 1 fills the cache as a first visit would. */
function writeOnly(store: CacheStore): CacheStore {
  return { get: () => undefined, set: (key, value) => store.set(key, value) }
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['pages', 'out'], booleans: ['help'] })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const pages = benchPages(integerFlag(flags, 'pages', 200))
  const out = stringFlag(flags, 'out') ?? temporaryJsonlPath('bench-cache')
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'))
  const site = await serveCacheSite()
  startJsonl(out)
  progress('bench:cache', `${pages.length} page(s) × ${PASSES.length} passes on ${site.origin}; cache in ${dir}; records in ${out}`)
  const browser = await launchBrowser()
  const records: PageRecord[] = []
  try {
    for (const { pass } of PASSES) {
      const cache = pass === 1 ? writeOnly(directoryStore(dir)) : dir
      for (const [index, page] of pages.entries()) {
        const record = await runPage(browser, site.origin, page, cache, pass)
        records.push(record)
        appendJsonLine(out, record)
        if (!record.ok || index % 25 === 0 || index === pages.length - 1) {
          const what = record.ok ? 'ok' : `FAILED ${firstLine(record.problem ?? '')}`
          progress('bench:cache', `pass ${pass} ${index + 1}/${pages.length} ${page.path}: ${what}; goal ${record.goalCache ?? 'off'}, extraction ${record.extractCache ?? 'off'}`)
        }
      }
    }
  } finally {
    await browser.close().catch(() => {})
    await site.close()
  }

  const passes = PASSES.map(({ pass, label }) => summarizePass(pass, label, records.filter((record) => record.pass === pass)))
  const steps = records.flatMap((record) => record.steps)
  const model = summarizeSteps(steps.filter((step) => !step.cached))
  const replayed = summarizeSteps(steps.filter((step) => step.cached))
  const targets = checkTargets(passes[1]!, model, replayed)
  process.stdout.write(
    `${renderPasses(passes)}\n\n${renderSteps(model, replayed)}\n\nTargets:\n${renderTargets(targets)}\n\n${JSON.stringify({ file: out, cache: dir, pages: pages.length, passes, steps: { model, replayed }, targets }, null, 2)}\n`,
  )
  return 0
}

runScript('bench:cache', USAGE, main)
