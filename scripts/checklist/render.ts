import type { ArmSummary, Counts, TaskSummary } from './tally.ts'

// Markdown tables, ready for scripts/README.md.

const ARM_LABEL = { off: '`checklist: false`', on: '`checklist: true`' } as const

/** One row per arm: the agent's claims, the harness's verdict, and why the other runs failed. */
export function renderArmTable(arms: readonly ArmSummary[]): string {
  const header = ['Arm', 'Runs', 'Self-reported successes', 'Verified successes', 'False successes', 'Agent `verified`', 'Median goal', 'Failure tags']
  const rows = arms.map((arm) => [
    ARM_LABEL[arm.arm],
    String(arm.runs),
    String(arm.selfReported),
    String(arm.verified),
    String(arm.falseSuccesses),
    String(arm.agentVerified),
    arm.medianGoalMs === undefined ? 'n/a' : `${arm.medianGoalMs} ms`,
    failureList(arm),
  ])
  return table(header, rows)
}

/** One row per task: self-reported / verified / false successes, in each arm. */
export function renderTaskTable(tasks: readonly TaskSummary[]): string {
  const header = ['Task', 'Off: claimed / verified / false', 'On: claimed / verified / false', 'On: failure tags']
  const rows = tasks.map((task) => [`\`${task.task}\``, triple(task.arms.off), triple(task.arms.on), failureList(task.arms.on)])
  return table(header, rows)
}

function triple(counts: Counts): string {
  return counts.runs === 0 ? 'n/a' : `${counts.selfReported} / ${counts.verified} / ${counts.falseSuccesses} of ${counts.runs}`
}

function failureList(counts: Counts): string {
  const entries = Object.entries(counts.failures)
  return entries.length === 0 ? 'none' : entries.map(([tag, times]) => `${tag} ${times}`).join(', ')
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n')
}
