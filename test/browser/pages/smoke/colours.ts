// Known colours of the smoke page, shared by the page and the test (8-bit sRGB-encoded values).

/** Colour of the triangle covering the left half of the canvas. */
export const TRIANGLE_RGB = [255, 64, 0] as const;

/** Clear colour, visible on the right half of the canvas. */
export const CLEAR_RGB = [0, 0, 255] as const;

/** Canvas size in pixels (CSS and backing store). */
export const CANVAS_SIZE = 64;
