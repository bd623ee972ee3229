import type { TraceEntry } from '../../types/index.d.ts'
import { elementById } from '../collector/find-target.ts'
import type { Observation } from '../collector/observation.ts'
import { nameFit } from './match-names.ts'

// Which control a landed input acted on, and which form it sent, read on the observation it was chosen on.

/** The form a landed input sends, by name, read on the observation it was chosen on. */
export function sentForm(entry: TraceEntry, chosenOn: Observation): string | undefined {
  const element = elementById(chosenOn, entry.target)
  const form = element?.form?.name
  if (!element || form === undefined) return undefined
  if (entry.operation === 'SUBMIT' || (entry.operation === 'PRESS' && entry.key === 'Enter')) return form
  return entry.operation === 'CLICK' && element.role === 'button' ? form : undefined
}

/** Whether the entry's action is acting on the wanted control (see the header of track-checklist.ts). */
export function activates(entry: TraceEntry, wanted: string, chosenOn: Observation | undefined): boolean {
  const fit = nameFit(entry.targetName!, wanted)
  if (fit === 2) return true
  if (fit === 1 && !chosenOn?.elements.some((element) => nameFit(element.name, wanted) === 2)) return true
  // Enter in a field submits its form as SUBMIT does.
  const submits = entry.operation === 'SUBMIT' || (entry.operation === 'PRESS' && entry.key === 'Enter')
  return submits && submitsFormOf(entry, wanted, chosenOn)
}

/** A SUBMIT (or Enter) in a field whose form holds a button named `wanted`, in the observation it was chosen on. */
function submitsFormOf(entry: TraceEntry, wanted: string, chosenOn: Observation | undefined): boolean {
  const field = elementById(chosenOn, entry.target)
  const form = field?.form?.name
  if (!chosenOn || form === undefined) return false
  return chosenOn.elements.some(
    (element) => element !== field && element.role === 'button' && element.form?.name === form && nameFit(element.name, wanted) > 0,
  )
}
