import type { PageEvents } from '../executor/page-events.ts'
import type { Scrub } from '../secrets/scrub.ts'

// The page's dialogs and popups as the run takes them: scrubbed on the way in, since a dialog's
// message or a tab's URL may carry a value typed from `secrets`.

export function scrubbedEvents(events: PageEvents, scrub: Scrub): PageEvents {
  return {
    takeDialogs: () => events.takeDialogs().map((dialog) => ({ ...dialog, message: scrub(dialog.message) })),
    takePopups: () => events.takePopups().map(scrub),
    dismissAll: (on) => events.dismissAll(on),
    ready: events.ready,
    dispose: () => events.dispose(),
  }
}
