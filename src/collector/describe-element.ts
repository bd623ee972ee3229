import type { JSONObject } from '@ai-sdk/provider'
import { compact } from '../base/compact.ts'
import { LIMITS } from './limits.ts'
import type { ObservedElement } from './observation.ts'
import { shownValue } from './shown-value.ts'

// An element as the decision request sends it. The collector's element budget measures this same
// JSON, so what it keeps is what fits when sent.

/** The fields the model reads of an element: none of the executor's (node ID, frame, box, fingerprint). */
export function describeElement(element: ObservedElement): JSONObject {
  const shown = shownValue(element, LIMITS.valueLimit)
  return compact({
    id: element.id,
    role: element.role || element.tag,
    name: element.name,
    name_from: element.nameFrom,
    type: element.type,
    multiline: element.multiline,
    focused: element.focused,
    value: shown?.value,
    value_omitted: shown?.value_omitted,
    state: element.state && Object.keys(element.state).length > 0 ? compact({ ...element.state }) : undefined,
    options: element.options?.map((option) => compact({ id: option.id, label: option.label, group: option.group, selected: option.selected || undefined })),
    form: element.form?.name || undefined,
    nearby: element.nearby || undefined,
    alike: element.alike,
  })
}
