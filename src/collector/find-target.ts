import type { Observation, ObservedElement, SelectOption } from './observation.ts'

// A decision names its target by snapshot action ID and, for SELECT, an option ID; these find what
// they name, so every reader looks them up the same way.

/** The element of `observation` with action ID `id`; undefined for none, `page` or a scroll container. */
export function elementById(observation: Observation | undefined, id: string | undefined): ObservedElement | undefined {
  return id === undefined ? undefined : observation?.elements.find((element) => element.id === id)
}

/** The option of `element` with option ID `id`. */
export function optionById(element: ObservedElement | undefined, id: string | undefined): SelectOption | undefined {
  return id === undefined ? undefined : element?.options?.find((option) => option.id === id)
}
