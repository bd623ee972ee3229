import type { Browser } from 'puppeteer-core'
import { messageOf } from '../common/message.ts'
import { caseId, type ReachCase } from '../reach/load-cases.ts'
import { pathOf, playTask } from '../reach/play.ts'
import { withChecklistWriter, type Writer } from './checklist-model.ts'
import type { OutcomeRecord } from './record.ts'

// One run of a case for bench:outcome: the case's task played through agent.goal (scripts/reach/play.ts)
// with the checklist written by `writer` (off with `none`), every risky action approved (nothing on
// these pages is bought or sent, and a stop for approval would hide what the outcome says), then the
// agent's claims beside the case's own check.

export async function runOutcome(browser: Browser, url: string, reachCase: ReachCase, writer: Writer, run: number): Promise<OutcomeRecord> {
  const started = performance.now()
  const base = { case: caseId(reachCase), page: reachCase.page, run, writer }
  const ms = () => Math.round(performance.now() - started)
  try {
    const { goal, shows, oracle } = await playTask(browser, url, reachCase, (played) => ({
      approve: () => true,
      ...(writer === 'none' ? { checklist: false } : { checklist: true, text: withChecklistWriter(played.text, writer, reachCase.task.steps) }),
    }))
    const record: OutcomeRecord = { ...base, status: goal.status, verified: goal.verified, check: shows, checklist: goal.checklist, steps: goal.steps, path: pathOf(goal.trace), ms: ms() }
    if (goal.failure) record.failure = goal.failure
    if (goal.error) record.error = messageOf(goal.error)
    if (oracle.blocked) record.blocked = oracle.blocked
    return record
  } catch (error) {
    return { ...base, status: 'no_result', error: messageOf(error), verified: false, check: false, steps: 0, ms: ms() }
  }
}
