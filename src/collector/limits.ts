// How much of a page one observation may carry. The decision model reads all of it on every step.

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
   * Characters the offered elements may take in the model's state (their JSON without the executor's
   * fields). With the text and the page fields this keeps the whole state well under 40,000.
   */
  elementBudget: 26_000,
  /** Slots kept for child-frame controls when the cap binds: consent banners live in frames. */
  frameReserve: 50,
  maxScrollers: 10,
  /** A child frame that has not answered by then is left out of the observation. */
  frameTimeoutMs: 1_500,
} as const
