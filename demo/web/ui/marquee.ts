// The rubber band drawn over the canvas while a marquee drag is in progress.
import type { MarqueeView } from '../editor/input.js';

/** A MarqueeView backed by an absolutely positioned element inside the canvas' container. */
export function createMarqueeView(element: HTMLElement): MarqueeView {
  return {
    show(ax, ay, bx, by) {
      const style = element.style;
      style.left = `${Math.min(ax, bx)}px`;
      style.top = `${Math.min(ay, by)}px`;
      style.width = `${Math.abs(bx - ax)}px`;
      style.height = `${Math.abs(by - ay)}px`;
      style.display = 'block';
    },
    hide() {
      element.style.display = 'none';
    },
  };
}
