// Prints the WebGPU adapter a Chromium page gets (WEFT_CHROMIUM's binary with the real-GPU switches, pages under
// WEFT_BENCH_PAGES) and exits 1 unless it matches WEFT_BENCH_ADAPTER; on a mismatch it also prints what chrome://gpu
// says about the GPU process, the quickest account of why WebGPU fell back (or is off). chromium.sh runs it first.
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { benchChromiumArgs, launchBenchChromium, startStaticServer } from './bench-chromium.js';

/** chrome://gpu's text, cut to what fits a terminal: feature status, driver bug workarounds, problems, log. */
async function printGpuPageAsync(executablePath: string): Promise<void> {
  const browser = await chromium.launch({ executablePath, headless: true, args: benchChromiumArgs() });
  try {
    const page = await browser.newPage();
    await page.goto('chrome://gpu', { waitUntil: 'load' });
    await page.waitForTimeout(2000);
    const text = await page.evaluate(() => {
      // chrome://gpu renders into a custom element's shadow tree.
      const host = document.querySelector('info-view');
      return (host?.shadowRoot ?? document.body).textContent ?? '';
    });
    console.log(`chrome://gpu:\n${text.replace(/\n\s*\n+/g, '\n').slice(0, 12_000)}`);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const executablePath = process.env.WEFT_CHROMIUM;
  const pages = process.env.WEFT_BENCH_PAGES;
  if (!executablePath || !pages) throw new Error('chromium-adapter: set WEFT_CHROMIUM and WEFT_BENCH_PAGES');
  const server = await startStaticServer(join(pages, 'three-pick'));
  try {
    const browser = await launchBenchChromium(server.url);
    await browser.close();
  } catch (error) {
    console.error((error as Error).message);
    await printGpuPageAsync(executablePath).catch((gpuError: Error) =>
      console.error(`chrome://gpu could not be read: ${gpuError.message}`),
    );
    process.exitCode = 1;
  } finally {
    await server.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
