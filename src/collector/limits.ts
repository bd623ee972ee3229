// How much of a page the agent keeps per step: one observation, and the dialogs and tabs of one
// action. The decision model reads all of it on every step, and the page decides how long each
// string is, so every one has a bound.

export const LIMITS = {
  /** Element actions offered per observation, across frames. */
  maxElements: 250,
  /** Characters of viewport text, across frames. */
  textLimit: 6_000,
  /** Characters of viewport text a child frame may take from the total when frames have text. */
  frameTextShare: 1_500,
  nameLimit: 80,
  nearbyLimit: 60,
  /**
   * Characters of a field's value the decision request shows: a paragraph of a textarea is read whole;
   * of a longer value, the part around the caret (or in view), and how much was left out before and after.
   */
  valueLimit: 1_000,
  /**
   * Characters of a field's value an observation keeps, exactly as it is: the text model reads them to
   * write the field anew (a page of a wiki's editor is read whole), and a checklist compares them.
   */
  keptValueLimit: 4_000,
  /** Characters of the page title: it names the page, and real titles are far shorter. */
  titleLimit: 200,
  /**
   * Characters of a URL (the page's, a frame's, a new tab's). Real ones rarely pass 1,000, and a page
   * can grow its fragment to megabytes without a navigation.
   */
  urlLimit: 1_000,
  /** Characters of a native dialog's message: enough to read a confirmation or an error. */
  dialogMessageLimit: 300,
  /**
   * Dialogs recorded per action: a page can raise them in a loop. Every one is still answered; the
   * rest are not recorded.
   */
  dialogsPerStep: 5,
  /** New tabs recorded per action: one is enough to stop the run, a few tell where they went. */
  popupsPerStep: 5,
  /**
   * Characters the offered elements may take in the model's state (their JSON as the decision request
   * sends it). With the text and the page fields this keeps the whole state well under 40,000.
   */
  elementBudget: 26_000,
  /** Slots kept for child-frame controls when the cap binds: consent banners live in frames. */
  frameReserve: 50,
  /**
   * Scroll containers offered, across frames, and reported by each frame: innermost first, around the
   * first offered controls and text. Each is an option of both scroll questions and a handle kept, and
   * every small scrolling box counts (a textarea, a list box, a comment's overflow box), so a page of
   * hundreds of them would otherwise fill the request and the handles with boxes no one reads.
   */
  maxScrollers: 10,
  /** Names of left-out controls told to the model (with counts), across frames. */
  omittedNames: 8,
  /** A child frame that has not answered by then is left out of the observation. */
  frameTimeoutMs: 1_500,
  /** A child frame whose listeners are not read by then is observed without them (they come next time). */
  frameListenersMs: 300,
} as const
