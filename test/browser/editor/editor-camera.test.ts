// Camera navigation in Chromium: Alt+LMB tumble, Alt+RMB pan (the point under the cursor follows it), wheel dolly,
// Space reset — checked against the page's camera before and after, not against hard-coded pixels.
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CameraReport, EditorTestApi } from '../../../demo/web/test-api';
import {
  api,
  closeEditor,
  dragOnCanvas,
  editorTimeout,
  type EditorSession,
  idle,
  mouseTo,
  openEditor,
  project,
  saveShot,
} from './editor-harness';

const angleDelta = (a: number, b: number) => Math.atan2(Math.sin(a - b), Math.cos(a - b));

describe('editor page: camera controls (Chromium, SwiftShader)', () => {
  let session: EditorSession | undefined;
  let camera: CameraReport;
  let constants: EditorTestApi['constants'];
  const page = () => session!.page;
  const currentCamera = () => api(page(), (e) => e.camera());

  beforeAll(async () => {
    session = await openEditor();
    constants = await api(page(), (e) => e.constants);
  }, editorTimeout);

  beforeEach(async () => {
    await api(page(), (e) => e.reset());
    camera = await currentCamera();
  });

  afterAll(() => closeEditor(session), editorTimeout);

  it('Alt + left drag tumbles around the target by the published rate', async () => {
    const before = PNG.sync.read(await page().screenshot());
    await dragOnCanvas(page(), camera, { x: 400, y: 300 }, { x: 520, y: 340 }, { modifiers: ['Alt'], steps: 10 });
    const after = await currentCamera();
    expect(angleDelta(after.orbit.yaw, camera.orbit.yaw)).toBeCloseTo(-120 * constants.tumblePerPixel, 4);
    expect(after.orbit.pitch - camera.orbit.pitch).toBeCloseTo(40 * constants.tumblePerPixel, 4);
    expect(after.orbit.radius).toBeCloseTo(camera.orbit.radius, 4);
    expect(after.target).toEqual(camera.target);
    // The view really changed: many pixels differ.
    const shot = PNG.sync.read(await page().screenshot());
    let changed = 0;
    for (let i = 0; i < shot.data.length; i += 4 * 97)
      if (Math.abs(shot.data[i] - before.data[i]) + Math.abs(shot.data[i + 1] - before.data[i + 1]) > 30) changed++;
    expect(changed).toBeGreaterThan(100);
    await saveShot(page(), 'tumble');
  });

  it('Alt + right drag pans: a point at the target depth stays under the cursor', async () => {
    const anchor = project(camera, camera.target);
    const offset = { x: 90, y: -45 };
    await dragOnCanvas(
      page(),
      camera,
      anchor,
      { x: anchor.x + offset.x, y: anchor.y + offset.y },
      { modifiers: ['Alt'], button: 'right', steps: 10 },
    );
    const after = await currentCamera();
    const moved = project(after, camera.target);
    expect(Math.abs(moved.x - anchor.x - offset.x)).toBeLessThan(0.5);
    expect(Math.abs(moved.y - anchor.y - offset.y)).toBeLessThan(0.5);
    expect(after.orbit.yaw).toBeCloseTo(camera.orbit.yaw, 5);
    expect(after.orbit.radius).toBeCloseTo(camera.orbit.radius, 4);
    expect(await api(page(), (e) => e.selection())).toEqual([]);
  });

  it('the wheel dollies towards and away from the target; Space resets the camera', async () => {
    await mouseTo(page(), camera, 400, 300);
    await page().mouse.wheel(0, -240);
    await idle(page());
    const closer = await currentCamera();
    expect(closer.orbit.radius / camera.orbit.radius).toBeCloseTo(constants.dollyBase ** -240, 3);
    await page().mouse.wheel(0, 400);
    await idle(page());
    const farther = await currentCamera();
    expect(farther.orbit.radius / camera.orbit.radius).toBeCloseTo(constants.dollyBase ** 160, 3);
    await dragOnCanvas(page(), camera, { x: 300, y: 300 }, { x: 380, y: 260 }, { modifiers: ['Alt'] });
    await saveShot(page(), 'camera-moved');
    await page().keyboard.press(' ');
    await idle(page());
    const reset = await currentCamera();
    reset.position.forEach((c, i) => expect(c).toBeCloseTo(camera.position[i], 4));
    reset.target.forEach((c, i) => expect(c).toBeCloseTo(camera.target[i], 4));
  });

  it('logs no errors', async () => {
    expect(session!.opened.consoleErrors).toEqual([]);
    expect(session!.opened.pageErrors).toEqual([]);
    expect(await session!.opened.webgpuErrors()).toEqual([]);
  });
});
