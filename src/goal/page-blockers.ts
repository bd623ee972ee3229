import type { BlockedReason } from '../../types/index.d.ts'
import type { Blocker, Observation } from '../collector/observation.ts'

export interface PageBlock {
  reason: BlockedReason
  message: string
}

// Most specific first: a verification page often has a form too.
// A file input stops nothing: it is left out of the offered controls (the request says how many).
const ORDER: Blocker['kind'][] = ['no_body', 'captcha', 'password', 'canvas']

/**
 * What on the observed page stops the run before any decision: a new tab, human verification, a login
 * (unless the caller gave `secrets` to log in with), or a surface the agent cannot read or act on (a
 * canvas is one only when it is most of the viewport, as the collector reports it). These stop the
 * whole run, even when unrelated to the goal.
 */
export function pageBlock(observation: Observation, options: { canLogIn?: boolean } = {}): PageBlock | undefined {
  // The goal may well go on in the new tab, which the agent does not follow: going on here could end in
  // a success that never happened.
  if (observation.popups.length > 0) {
    return {
      reason: 'unsupported_surface',
      message: `The page opened a new tab (${observation.popups.join(', ')}); the agent works in one tab and does not follow it.`,
    }
  }
  const kinds = options.canLogIn ? ORDER.filter((kind) => kind !== 'password') : ORDER
  const blocker = kinds.map((kind) => observation.blockers.find((found) => found.kind === kind)).find(Boolean)
  if (!blocker) return undefined
  const where = blocker.frame > 0 ? ` in a frame (${observation.frames[blocker.frame]?.url ?? 'unknown URL'})` : ''
  switch (blocker.kind) {
    case 'captcha':
      return {
        reason: 'captcha',
        message: `The page asks for human verification${where}${blocker.text ? ` ("${blocker.text}")` : ''}; no bypass is attempted.`,
      }
    case 'password':
      return { reason: 'login_wall', message: `A visible password field${where} needs a manual login.` }
    case 'no_body':
      return { reason: 'unsupported_surface', message: `The document has no body (${observation.url}), so there is no page the agent can read or act on.` }
    case 'canvas':
      return { reason: 'unsupported_surface', message: `A canvas covers most of the page${where}; the agent cannot read or act on its content.` }
  }
}
