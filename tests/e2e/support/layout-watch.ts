/**
 * Where an element sits, noted on every frame: for tests that content arriving after a screen
 * shows moves nothing under the pointer (decision 186). Source text, run in the page: this file
 * is type-checked for Node.
 */
import type { Page } from '@playwright/test';

/** Starts noting the top of the first element `selector` finds, on every frame from now on. */
export async function watchTop(page: Page, selector: string): Promise<void> {
  await page.evaluate(`(() => {
    const tops = new Set();
    window.__watchedTops = tops;
    const frame = () => {
      const element = document.querySelector(${JSON.stringify(selector)});
      if (element) tops.add(Math.round(element.getBoundingClientRect().top));
      requestAnimationFrame(frame);
    };
    frame();
  })()`);
}

/** Every distinct top noted since `watchTop`. */
export async function watchedTops(page: Page): Promise<number[]> {
  return (await page.evaluate('[...window.__watchedTops]')) as number[];
}
