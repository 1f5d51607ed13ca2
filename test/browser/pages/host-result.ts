/** What a host-engine page reports: both images (rows top to bottom, rgba8) and what the page used. */
export type HostPageResult =
  | {
      size: number;
      weft: number[];
      host: number[];
      versions: Record<string, string>;
      notes: string[];
      /** Max |difference| between the host camera's own view-projection and the test's float64 one. */
      cameraDrift: number;
    }
  | { error: string };

/** Publishes a page's outcome for the Playwright test. */
export function publish(run: () => Promise<HostPageResult>): void {
  run().then(
    (result) => (window.__weftResult = result),
    (error: unknown) =>
      (window.__weftResult = {
        error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
      }),
  );
}

/** An adapter and a device that report uncaptured errors to `window.__weftErrors`. */
export async function requestDeviceAsync(): Promise<GPUDevice> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() gave no adapter');
  const device = await adapter.requestDevice({ label: 'host-page' });
  device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  return device;
}
