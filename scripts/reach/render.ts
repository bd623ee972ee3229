import { MAX_PROBED } from './respond.ts'
import { checkTargets, clicked, responding, type CaseRecord, type Totals } from './tally.ts'

// What bench:reach prints: a table of the cases, the totals with their targets, and every miss by
// case, worded so an engineer can open the page and see what to fix.

const percent = (part: number, whole: number, places = 0) => (whole === 0 ? '–' : `${((part / whole) * 100).toFixed(places)}%`)
const cell = (text: string) => text.replaceAll('|', '\\|')

/** A hint for a control that was already in the state its click would put it in (a checked radio, the selected tab). */
function already(state: Record<string, unknown> | undefined): string {
  const held = ['checked', 'selected'].filter((name) => state?.[name] === true)
  return held.length > 0 ? `, already ${held.join(' and ')}` : ''
}

export function renderCases(records: readonly CaseRecord[]): string {
  const rows = records.map((record) => {
    const { inspection, precision, task } = record
    const used = clicked(precision)
    const unnamed = inspection.unnamedFields.length > 0 ? ` (+${inspection.unnamedFields.length} unnamed)` : ''
    const cells = [
      cell(record.page),
      cell(record.pattern),
      inspection.error ? 'page failed' : String(inspection.offered.length),
      `${inspection.recall.matched}/${inspection.recall.listed} (${percent(inspection.recall.matched, inspection.recall.listed)})`,
      `${responding(precision)}/${used} (${percent(responding(precision), used)})`,
      String(inspection.duplicates.length),
      `${inspection.fieldNames.misses.length}/${inspection.fieldNames.listed}${unnamed}`,
      String(inspection.medianObserveMs ?? '–'),
      inspection.requestChars?.toLocaleString('en') ?? '–',
      task.completed ? '✓' : '✗',
    ]
    return `| ${cells.join(' | ')} |`
  })
  return [
    '| Page | Pattern | Offered | Recall | Precision | Duplicates | Empty names | Observe ms | Request chars | Task |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|:---:|',
    ...rows,
  ].join('\n')
}

export function renderTotals(total: Totals): string {
  const verdict = (met: boolean | undefined) => (met === undefined ? 'NOT MEASURED' : met ? 'met' : 'MISSED')
  const targets = checkTargets(total).map((check) => `- ${check.name}: ${check.value} (target ${check.target}): ${verdict(check.met)}`)
  const p = total.precision
  const loose = `${percent(total.recall.loose, total.recall.listed, 1)} (${total.recall.loose} of ${total.recall.listed})`
  return [
    'Totals:',
    ...targets,
    `- Recall counted loosely (any offered element holding the text, one element standing for several): ${loose}`,
    `- Tasks completed with the oracle: ${total.tasks.completed} of ${total.tasks.of}`,
    `- Inert elements offered: ${total.inert} (should be 0)`,
    `- State misses: ${total.stateMisses} of ${total.statesListed}`,
    `- Offered fields with an empty name: ${total.unnamedFields}`,
    `- Median observe(): ${total.medianObserveMs ?? '–'} ms (median of the cases' medians)`,
    `- Offered elements: ${total.offered}; probed for precision: the first ${MAX_PROBED} a page, ${p.skipped} left over;` +
      ` ${p.notUsable} could not be used (listed below)`,
    ...(total.brokenPages > 0 ? [`- Pages that could not be observed: ${total.brokenPages}`] : []),
  ].join('\n')
}

export function renderMisses(records: readonly CaseRecord[]): string {
  const sections = records.flatMap((record) => {
    const { inspection, precision, task } = record
    const lines: string[] = []
    const add = (label: string, items: readonly string[]) => {
      for (const item of items) lines.push(`- ${label}: ${item}`)
    }
    if (inspection.error) lines.push(`- page could not be observed: ${inspection.error}`)
    if (precision.error) lines.push(`- precision could not be measured: ${precision.error}`)
    add('not offered', inspection.recall.misses.map((text) => `"${text}"`))
    add(
      'no response',
      precision.probes
        .filter((probe) => probe.responded === false)
        .map((probe) => `#${probe.index} ${probe.element} (${probe.use})${already(inspection.offered[probe.index]?.state)}`),
    )
    add(
      'not probed',
      precision.probes.filter((probe) => probe.responded === undefined).map((probe) => `#${probe.index} ${probe.element}: ${probe.error ?? 'unknown'}`),
    )
    add('duplicate', inspection.duplicates)
    add('field name', inspection.fieldNames.misses.map((text) => `no offered field or control named "${text}"`))
    add('unnamed field', inspection.unnamedFields)
    add('inert offered', inspection.inert)
    add('state', inspection.states.misses)
    if (!task.completed) lines.push(`- task failed: ${task.reason ?? 'unknown'}${task.path ? ` [${task.path}]` : ''}`)
    return lines.length === 0 ? [] : [`### ${record.page} (${record.pattern})\n${lines.join('\n')}`]
  })
  return ['## Misses', '', sections.length === 0 ? 'None.' : sections.join('\n\n')].join('\n')
}
