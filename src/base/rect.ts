// The one shape of a rectangle: an element's box from the page script, a blocker's area, a recorded
// target's place, a badge on a screenshot. Its units are the user's (CSS or image pixels); the shape
// is shared so a box passes from one layer to the next without conversion.

export type Rect = { x: number; y: number; width: number; height: number }
