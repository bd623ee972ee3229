import { access, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { OPERATIONS } from '../operations.ts'
import { renderReport } from './report-html.ts'
import { REPORT_FILE, RUN_FILE, type RunLine } from './run-lines.ts'

// Reading a run folder back, for `puppeteer-agent report <folder>`. A run.jsonl may have been edited,
// cut short or written by another version, so each line is checked against the fields the report
// reads before it is rendered; a line that does not pass names its number and the field.

const count = z.number().int().nonnegative()
const ms = z.number().nonnegative()
const probability = z.number().min(0).max(1)
const box = z.object({ x: z.number(), y: z.number(), width: z.number().nonnegative(), height: z.number().nonnegative() })
const viewport = z.object({ width: z.number().positive(), height: z.number().positive() })
const headOption = z.object({ id: z.string(), label: z.string().optional(), p: probability })
const cost = z.object({ calls: count, inputTokens: count.optional(), outputTokens: count.optional(), usd: z.number().nonnegative().optional() })

const stepLine = z.object({
  kind: z.literal('step'),
  request: count,
  step: count,
  url: z.string(),
  title: z.string(),
  operation: z.enum(Object.keys(OPERATIONS) as [keyof typeof OPERATIONS]),
  target: z.object({ id: z.string(), name: z.string().optional(), role: z.string().optional(), box: box.optional() }).optional(),
  option: z.string().optional(),
  key: z.string().optional(),
  to: z.string().optional(),
  text: z.string().optional(),
  masked: z.literal(true).optional(),
  cached: z.literal(true).optional(),
  match: z.enum(['exact', 'scored']).optional(),
  heads: z.object({ operation: z.array(headOption).optional(), target: z.array(headOption).optional() }),
  confidence: probability.optional(),
  targetConfidence: probability.optional(),
  risk: probability.optional(),
  approved: z.boolean().optional(),
  stale: z.string().optional(),
  pageChanged: z.boolean(),
  notes: z.array(z.string()),
  timing: z.object({ observeMs: ms.optional(), decisionMs: ms, textMs: ms.optional(), actMs: ms.optional(), recordMs: ms.optional() }),
  cost,
  screenshot: z.string().optional(),
  viewport: viewport.optional(),
})

const resultLine = z.object({
  kind: z.literal('result'),
  call: z.enum(['goal', 'extract']),
  goal: z.string().optional(),
  status: z.enum(['success', 'error']),
  reason: z.string().optional(),
  failure: z.string().optional(),
  steps: count,
  decisions: count,
  verified: z.boolean().optional(),
  checklist: z
    .array(z.object({ description: z.string(), kind: z.string(), status: z.enum(['done', 'open', 'judgment']), evidence: z.string().optional() }))
    .optional(),
  cost,
  timing: z.object({ totalMs: ms, modelMs: ms, otherMs: ms }),
  accuracy: z.object({ passed: z.boolean(), probability }).optional(),
  cache: z.enum(['hit', 'miss', 'healed']).optional(),
  url: z.string(),
  title: z.string(),
  screenshot: z.string().optional(),
  viewport: viewport.optional(),
  data: z.string().optional(),
  rules: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string(),
})

const runLine = z.discriminatedUnion('kind', [stepLine, resultLine])

/** The lines of `<folder>/run.jsonl`: step lines, then at most one result line, the last. */
export async function readRun(folder: string): Promise<RunLine[]> {
  const raw = await readFile(join(folder, RUN_FILE), 'utf8')
  const lines: RunLine[] = []
  for (const [index, textLine] of raw.split('\n').entries()) {
    if (textLine.trim() === '') continue
    const where = `${RUN_FILE} line ${index + 1}`
    let value: unknown
    try {
      value = JSON.parse(textLine)
    } catch (error) {
      throw new Error(`${where} is not JSON: ${error instanceof Error ? error.message : String(error)}`)
    }
    const parsed = runLine.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new Error(`${where}: ${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'}`)
    }
    if (lines.at(-1)?.kind === 'result') throw new Error(`${where} follows the result line, which ends a run.`)
    // The checked value, not zod's copy: fields a newer recorder adds are kept for the renderer.
    lines.push(value as RunLine)
  }
  if (lines.length === 0) throw new Error(`${RUN_FILE} in ${folder} holds no lines.`)
  return lines
}

/**
 * Rebuilds `<folder>/report.html` from run.jsonl and resolves its path. A screenshot file that is no
 * longer in the folder is left out, so its card says there is none instead of showing a broken image.
 */
export async function writeReport(folder: string): Promise<string> {
  const lines = await readRun(folder)
  const present = await Promise.all(
    lines.map(async (line) => (line.screenshot === undefined || (await exists(join(folder, line.screenshot))) ? line : { ...line, screenshot: undefined })),
  )
  const path = resolve(folder, REPORT_FILE)
  await writeFile(path, renderReport(present))
  return path
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}
