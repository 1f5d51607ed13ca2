// Globals the test pages publish for the Playwright tests.
export {};

declare global {
  interface Window {
    /** Set once by a page with its outcome (an object with `error` on failure). */
    __weftResult?: unknown;
    /** WebGPU errors the page saw (uncaptured errors, device loss). */
    __weftErrors?: string[];
  }
}
