import type { ChecklistItemResult } from '../../types/index.d.ts'
import { firstLine } from '../common/message.ts'
import type { OutcomeRecord } from './record.ts'
import { checkTargets, isFalseFailure, isFalseSuccess, isFalseVerified, isUnverifiedPass, type OutcomeTotals } from './tally.ts'

// What bench:outcome prints: a row per run, the totals against their targets, and every run whose
// outcome does not tell the truth, listed by kind with the items and reasons an engineer needs to fix it.

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
const mark = (yes: boolean) => (yes ? '✓' : '✗')

/** An item's check in one line: `field_value(field="Email", value="a@b")`, or a judgment's description. */
export function describeItem(item: Pick<ChecklistItemResult, 'check' | 'description'>): string {
  const { kind, ...args } = item.check
  if (kind === 'judgment') return `judgment "${item.description}"`
  return `${kind}(${Object.entries(args).map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(', ')})`
}

/** Why an item is not done: its status, the unproven reason, the evidence. */
function whyNot(item: ChecklistItemResult): string {
  return `${describeItem(item)}: ${item.status}${item.unproven ? ` (${item.unproven})` : ''}${item.evidence ? ` – ${item.evidence}` : ''}`
}

/** The items not done, or why there is no checklist; nothing for a run with the checklist off. */
export function notDone(record: OutcomeRecord): string[] {
  const checklist = record.checklist
  if (!checklist || record.writer === 'none') return []
  if (checklist.source === 'none') return [`no checklist: ${checklist.note ?? 'no reason given'}`]
  return checklist.items.filter((item) => item.status !== 'done').map(whyNot)
}

function status(record: OutcomeRecord): string {
  return record.status === 'success' ? 'success' : record.status === 'error' ? `error ${record.failure ?? 'untagged'}` : 'no result'
}

export function renderRuns(records: readonly OutcomeRecord[]): string {
  const rows = records.map((record) => {
    const cells = [record.case, String(record.run), mark(record.check), status(record), mark(record.verified), notDone(record).join('; ') || '–']
    return `| ${cells.map(cell).join(' | ')} |`
  })
  return ['| Case | Run | Check | Status | Verified | Items not done (why) |', '|---|---:|:---:|---|:---:|---|', ...rows].join('\n')
}

export function renderTotals(totals: OutcomeTotals): string {
  const verdict = (met: boolean | undefined) => (met === undefined ? 'NOT MEASURED' : met ? 'met' : 'MISSED')
  const counted = (counts: Partial<Record<string, number>>) => Object.entries(counts).map(([name, times]) => `${name} ${times}`).join(', ') || 'none'
  return [
    'Totals:',
    `- Runs: ${totals.runs}${totals.noResult > 0 ? ` (${totals.noResult} without a result, listed below)` : ''}; check passed: ${totals.passed}`,
    ...checkTargets(totals).map((check) => `- ${check.name}: ${check.value} (target ${check.target}): ${verdict(check.met)}`),
    `- Items unproven, by reason: ${counted(totals.unproven)}`,
    `- Failure tags: ${counted(totals.failures)}`,
  ].join('\n')
}

/** Every run whose outcome does not tell the truth, by kind, then the runs without a result. */
export function renderFindings(records: readonly OutcomeRecord[]): string {
  const where = (record: OutcomeRecord) => `${record.case} run ${record.run} (${record.page})`
  const items = (record: OutcomeRecord) => notDone(record).map((line) => `\n  - ${line}`).join('')
  const path = (record: OutcomeRecord) => (record.path ? ` [${record.path}]` : '')
  const failed = (record: OutcomeRecord) => `${record.failure ?? 'untagged'}: ${firstLine(record.error ?? '')}`
  const section = (title: string, lines: string[]) => `### ${title} (${lines.length})\n${lines.length === 0 ? 'None.' : lines.join('\n')}`
  return [
    '## Findings',
    section(
      'False successes: status success, check failed',
      records.filter(isFalseSuccess).map((record) => `- ${where(record)}: the page does not show the done text${path(record)}${items(record)}`),
    ),
    section(
      'False failures: status error, check passed',
      records.filter(isFalseFailure).map((record) => `- ${where(record)}: ${failed(record)}${path(record)}${items(record)}`),
    ),
    section(
      '`verified` although the check failed',
      records.filter(isFalseVerified).map((record) => `- ${where(record)}: ${status(record)}${path(record)}`),
    ),
    section(
      'Check passed, not verified',
      records.filter(isUnverifiedPass).map((record) => `- ${where(record)}: ${status(record)}${items(record)}`),
    ),
    section(
      'No result',
      records.filter((record) => record.status === 'no_result').map((record) => `- ${where(record)}: ${firstLine(record.error ?? '')}`),
    ),
  ].join('\n\n')
}
