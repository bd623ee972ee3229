// npm run compare -- --url=<url|demo> --goal=<goal> [--goal=…] [--extract=<instruction|rules JSON>]
//   [--decisions=a,b|none] [--text=a,b] [--reasoning=none,low] [--runs=5] [--out=file.jsonl]
//   [--verify-url=<substring>] [--verify-text=<substring>] [--evaluator=<model>] [--record=<dir>]
// Runs one task several times per model setup, each run in a fresh browser context, appends one JSON
// line per run and prints the ranking of the setups as JSON on stdout. Progress goes to stderr.
import createDebug from 'debug'
import { DEFAULTS } from '../src/options.ts'
import { directoryFlag, FlagError, integerFlag, listFlag, parseFlags, repeatedFlag, stringFlag } from './common/flags.ts'
import { appendJsonLine, startJsonl, temporaryJsonlPath } from './common/jsonl.ts'
import { launchBrowser } from './common/browser.ts'
import { firstLine } from './common/message.ts'
import { progress, seconds } from './common/progress.ts'
import { openSite } from './common/site.ts'
import { runComparison } from './compare/comparison.ts'
import { rank } from './compare/ranking.ts'
import { parseExtract } from './compare/extract-flag.ts'
import { buildSetups, defaultEvaluator } from './compare/setups.ts'
import { hasChecks } from './compare/verify.ts'
import { runScript } from './common/run-script.ts'

const log = createDebug('puppeteer-agent:compare')

const USAGE = `Usage: npm run compare -- --url=<url|demo> --goal=<goal> [flags]
  --url=<url>            page every run starts from; "demo" serves the bundled demo site on 127.0.0.1
  --goal=<goal>          repeatable: goals run one after another (default with --url=demo: the demo's goal)
  --extract=<text>       extraction instruction, run once every goal finished; or rules as JSON (no model request)
  --decisions=<ids>      comma-separated decision models; "none" lets the text model decide; "local" is offline
  --text=<ids>           comma-separated text models ("local" is offline)
  --reasoning=<levels>   comma-separated reasoning levels for the text model (default none)
  --runs=<n>             runs per setup (default 5)
  --out=<file.jsonl>     where the records go (default: a new file in the temporary directory)
  --verify-url=<part>    repeatable: the final URL must contain it
  --verify-text=<part>   repeatable: the final page's text must contain it
  --evaluator=<id>       decision model that judges the goals (default ${String(DEFAULTS.evaluator)}, or local when every model is local)
  --record=<dir>         record every goal and extraction into <dir>; each record lists its report.html files in "reports"`

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    strings: ['url', 'goal', 'extract', 'decisions', 'text', 'reasoning', 'runs', 'out', 'verify-url', 'verify-text', 'evaluator', 'record'],
    booleans: ['help'],
  })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const url = stringFlag(flags, 'url')
  if (!url) throw new FlagError('--url is required (a page URL, or "demo" for the bundled demo site).')
  const setups = buildSetups(
    listFlag(flags, 'decisions', [String(DEFAULTS.decisions)]),
    listFlag(flags, 'text', [String(DEFAULTS.text)]),
    listFlag(flags, 'reasoning', [DEFAULTS.reasoning]),
  )
  const runs = integerFlag(flags, 'runs', 5)
  const checks = { url: repeatedFlag(flags, 'verify-url'), text: repeatedFlag(flags, 'verify-text') }
  const evaluator = stringFlag(flags, 'evaluator') ?? defaultEvaluator(setups, String(DEFAULTS.evaluator))
  const extract = parseExtract(stringFlag(flags, 'extract'))
  const out = stringFlag(flags, 'out') ?? temporaryJsonlPath('compare')
  const recordDir = directoryFlag(flags, 'record')

  const site = await openSite(url)
  const goals = repeatedFlag(flags, 'goal')
  if (goals.length === 0 && site.goal) goals.push(site.goal)
  if (goals.length === 0) {
    await site.close()
    throw new FlagError('--goal is required.')
  }
  startJsonl(out)
  progress('compare', `${setups.length} setup(s) × ${runs} run(s) on ${site.url}; records in ${out}${recordDir ? `, run reports in ${recordDir}` : ''}`)
  const browser = await launchBrowser()
  try {
    const plan = {
      setups,
      runs,
      task: {
        url: site.url,
        goals,
        ...(extract !== undefined ? { extract } : {}),
        checks,
        evaluator,
        navigationTimeoutMs: 30_000,
        ...(recordDir !== undefined ? { record: recordDir } : {}),
      },
    }
    const records = await runComparison(browser, plan, (record, done, total) => {
      appendJsonLine(out, record)
      log('%j', record)
      // A stop's status already is its tag; other failures say which kind (model_failed, page_gone…).
      const tag = record.failure !== undefined && record.failure !== record.status ? ` [${record.failure}]` : ''
      const agentVerdict = record.agentVerified ? ', agent verified' : ''
      const pageVerdict = record.verified === undefined ? '' : record.verified ? ', page verified' : ', page NOT verified'
      const [firstReport, ...moreReports] = record.reports ?? []
      const report = firstReport ? `; report ${firstReport}${moreReports.length > 0 ? ` (+${moreReports.length} in the record)` : ''}` : ''
      progress(
        'compare',
        `${done}/${total} decisions=${record.decisions} text=${record.text} reasoning=${record.reasoning} run ${record.run}: ` +
          `${record.status}${tag}${agentVerdict}${pageVerdict} in ${seconds(record.totalMs)}${record.error ? ` (${firstLine(record.error)})` : ''} ${record.path}${report}`,
      )
    })
    process.stdout.write(`${JSON.stringify({ file: out, ...rank(records, hasChecks(checks)) }, null, 2)}\n`)
    return 0
  } finally {
    await browser.close().catch(() => {})
    await site.close()
  }
}

runScript('compare', USAGE, main)
