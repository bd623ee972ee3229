// npm run benchmark -- [--url=<url|demo>] [--goal=<goal>] [--reference=<decision model>]
//   [--decisions=<ids>] [--models=<ids>] [--samples=10] [--perMinute=5] [--recording=<file>] [--record=<dir>]
//   [--replay=<file>]
// Runs the goal live with the reference decision model and records every decision request (state and
// questions), with --record also each live run (its report is linked from the recording), then replays
// the identical requests to the reference, to each other decision model and to each language model
// (the `decisions: false` path), and prints a Markdown table. Progress on stderr.
import createDebug from 'debug'
import { DEFAULTS, mergeSettings, parseOptions } from '../src/options.ts'
import { LOCAL_MODEL, resolveLocal } from '../src/options.ts'
import { createLocalDecisionModel, createLocalLanguageModel } from '../src/local/index.ts'
import { launchBrowser } from './common/browser.ts'
import { directoryFlag, FlagError, integerFlag, listFlag, numberFlag, parseFlags, stringFlag } from './common/flags.ts'
import { appendJsonLine, readJsonLines, startJsonl, temporaryJsonlPath } from './common/jsonl.ts'
import { firstLine } from './common/message.ts'
import { progress } from './common/progress.ts'
import { openSite } from './common/site.ts'
import { recordLive } from './benchmark/live.ts'
import { createPacer } from './benchmark/pace.ts'
import type { RecordedRequest } from './benchmark/recording.ts'
import { replayOne, type Decider } from './benchmark/replay.ts'
import { describeLiveRuns, liveReports, renderTable, summarizeReplay, type ReplayResult } from './benchmark/summary.ts'
import { runScript } from './common/run-script.ts'

const log = createDebug('puppeteer-agent:benchmark')

const USAGE = `Usage: npm run benchmark -- [flags]
  --url=<url>            where the live runs start (default demo: the bundled demo site on 127.0.0.1)
  --goal=<goal>          the goal of the live runs (default with --url=demo: the demo's goal)
  --reference=<id>       decision model that runs the goal live (default ${String(DEFAULTS.decisions)}; "local" is offline)
  --decisions=<ids>      comma-separated decision models to replay the requests to, besides the reference
  --models=<ids>         comma-separated language models to replay the requests to (the decisions:false path)
  --samples=<n>          decision requests to record and replay (default 10; with --replay, the whole recording)
  --perMinute=<n>        requests per minute for each language model, for rate-limited tiers (default 5; "local" is not paced)
  --text=<id>            text model that types values during the live runs (default local with a local reference, else ${String(DEFAULTS.text)})
  --reasoning=<level>    reasoning level of the language models (default none)
  --timeout=<ms>         per request (default ${DEFAULTS.timeout})
  --maxRetries=<n>       retries per replayed request (default 0: a rate-limited request counts as unanswered)
  --recording=<file.jsonl> where the recording of the requests goes (default: a new file in the temporary directory)
  --record=<dir>         record each live run into <dir> (run.jsonl, screenshots, report.html); the recording links it
  --replay=<file.jsonl>  replay an earlier recording instead of running the goal live
  --out=<file.jsonl>     where each decider's answers go (default: a new file in the temporary directory)`

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    strings: ['url', 'goal', 'reference', 'decisions', 'models', 'samples', 'perMinute', 'text', 'reasoning', 'timeout', 'maxRetries', 'recording', 'record', 'replay', 'out'],
    booleans: ['help'],
  })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const replayFile = stringFlag(flags, 'replay')
  const settings = mergeSettings(
    parseOptions(
      {
        timeout: integerFlag(flags, 'timeout', DEFAULTS.timeout),
        maxRetries: integerFlag(flags, 'maxRetries', 0, 0),
        reasoning: stringFlag(flags, 'reasoning') ?? DEFAULTS.reasoning,
      },
      'benchmark flags',
    ),
  )
  const perMinute = numberFlag(flags, 'perMinute', 5)
  const out = stringFlag(flags, 'out') ?? temporaryJsonlPath('benchmark-answers')

  let recording: RecordedRequest[]
  let recordingFile: string
  if (replayFile) {
    for (const name of ['url', 'goal', 'text', 'recording', 'record']) {
      if (flags[name] !== undefined) throw new FlagError(`--${name} does not apply with --replay, which reuses the requests of ${replayFile}.`)
    }
    // Nor would --record: a replay sends recorded requests to models and drives no page, so it has no
    // run to report; the live runs' reports, when they were recorded, are in the recording's outcomes.
    recording = readJsonLines<RecordedRequest>(replayFile)
    if (recording.length === 0) throw new Error(`${replayFile} holds no recorded request.`)
    recording = recording.slice(0, integerFlag(flags, 'samples', recording.length))
    recordingFile = replayFile
  } else {
    const named = stringFlag(flags, 'record')
    if (named?.endsWith('.jsonl')) {
      // --record used to name the recording file: refused rather than made into a directory of that name.
      throw new FlagError(`--record takes a directory for the live runs' reports; the recording file is --recording=${named}.`)
    }
    const recordDir = directoryFlag(flags, 'record')
    recordingFile = stringFlag(flags, 'recording') ?? temporaryJsonlPath('benchmark-recording')
    recording = await recordRequests(flags, recordingFile, recordDir)
  }

  const reference = stringFlag(flags, 'reference') ?? recording[0]!.model
  const deciders = uniqueDeciders([
    { name: reference, model: resolveLocal(reference, createLocalDecisionModel), kind: 'decision' },
    ...listFlag(flags, 'decisions').map((name): Decider => ({ name, model: resolveLocal(name, createLocalDecisionModel), kind: 'decision' })),
    ...listFlag(flags, 'models').map((name): Decider => ({ name, model: resolveLocal(name, createLocalLanguageModel), kind: 'language' })),
  ])
  startJsonl(out)
  const results: ReplayResult[] = []
  for (const decider of deciders) {
    // Only language models are paced, as on the gateway's free tier; offline models never wait.
    const wait = createPacer(decider.kind === 'language' && decider.name !== LOCAL_MODEL ? perMinute : Infinity)
    for (const recorded of recording) {
      await wait()
      const result = await replayOne(decider, recorded, settings)
      results.push(result)
      appendJsonLine(out, result)
      log('%j', result)
      progress(
        'benchmark',
        `${decider.name}${decider.kind === 'language' ? ' (text model)' : ''} ${recorded.request}/${recording.length}: ` +
          (result.answered
            ? `${[result.operation, result.target].filter(Boolean).join(' ')} in ${result.ms} ms${result.sameOperationAndTarget ? ' (as live)' : ''}`
            : `unanswered after ${result.ms} ms (${firstLine(result.error ?? '')})`),
      )
    }
  }
  process.stdout.write(
    `${renderTable(summarizeReplay(results), recording[0]!.model)}\n\n` +
      `recording: ${recordingFile} (${recording.length} requests from ${describeLiveRuns(recording)})\n` +
      liveReports(recording)
        .map(({ run, report }) => `report of live run ${run}: ${report}\n`)
        .join('') +
      `answers: ${out}\n`,
  )
  return 0
}

async function recordRequests(flags: ReturnType<typeof parseFlags>, file: string, recordDir: string | undefined): Promise<RecordedRequest[]> {
  const reference = stringFlag(flags, 'reference') ?? String(DEFAULTS.decisions)
  const samples = integerFlag(flags, 'samples', 10)
  const site = await openSite(stringFlag(flags, 'url') ?? 'demo')
  const goal = stringFlag(flags, 'goal') ?? site.goal
  if (!goal) {
    await site.close()
    throw new FlagError('--goal is required unless --url=demo.')
  }
  const text = stringFlag(flags, 'text') ?? (reference === LOCAL_MODEL ? LOCAL_MODEL : String(DEFAULTS.text))
  const browser = await launchBrowser()
  try {
    progress('benchmark', `recording ${samples} decision requests of ${reference} on ${site.url}: ${goal}`)
    const plan = {
      url: site.url,
      goal,
      reference,
      text,
      samples,
      maxRuns: samples,
      navigationTimeoutMs: 30_000,
      ...(recordDir !== undefined ? { record: recordDir } : {}),
    }
    const recording = await recordLive(browser, plan, (run, result, recorded) => {
      const kept = Math.min(recorded, samples)
      const verdict = result.failure ? ` [${result.failure}]` : result.verified ? ' (verified)' : ''
      const report = result.report ? `; report ${result.report}` : ''
      progress(
        'benchmark',
        `live run ${run}: ${result.status}${verdict}${result.error ? ` (${firstLine(result.error.message)})` : ''}, ${kept}/${samples} requests recorded${report}`,
      )
    })
    startJsonl(file)
    for (const recorded of recording) appendJsonLine(file, recorded)
    return recording
  } finally {
    await browser.close().catch(() => {})
    await site.close()
  }
}

function uniqueDeciders(deciders: Decider[]): Decider[] {
  const seen = new Set<string>()
  return deciders.filter((decider) => {
    const key = `${decider.kind}:${decider.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

runScript('benchmark', USAGE, main, () =>
  process.env.AI_GATEWAY_API_KEY ? undefined : 'No AI_GATEWAY_API_KEY is set: --reference=local runs offline.',
)
