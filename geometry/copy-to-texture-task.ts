import { makeComposeCache } from '../composer/compose-shader.js';
import { precomposedSourceOf } from '../engine/precomposed-shaders.js';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { createRenderTarget } from '../engine/render-target.js';
import { checkSceneArgument } from '../engine/argument-checks.js';
import type { Scene } from '../engine/scene.js';
import { makeGeometryBlitFragment } from '../fragments/geometry-blit.js';
import { resolveBlitRemap } from './blit-pass.js';
import { executeCopyToTexture } from './copy-to-texture-execute.js';
import { copyNeedsRecord, disposeCopyToTexture, recordCopyToTexture } from './copy-to-texture-record.js';
import type {
  CopyToTextureState,
  CopyToTextureTask,
  CopyToTextureTaskConfig,
  NormalizedViewport,
} from './copy-to-texture-state.js';
import { GeometryError, geometryOptionError } from './geometry-errors.js';
import { getColorFormatCaps } from './texture-format-caps.js';

const api = 'createCopyToTextureTask';

const copyConfigKeys: OptionKeys<CopyToTextureTaskConfig> = {
  name: true,
  sourceTexture: true,
  targetTexture: true,
  ownsTargetTexture: true,
  viewport: true,
  lodLevel: true,
  resolveTexture: true,
  remap: true,
  flipY: true,
  readSamples: true,
};

function checkViewport(viewport: NormalizedViewport | null | undefined): void {
  if (!viewport) return;
  const { x, y, width, height } = viewport;
  if (
    ![x, y, width, height].every(Number.isFinite) ||
    x < 0 ||
    y < 0 ||
    width <= 0 ||
    height <= 0 ||
    x + width > 1 + 1e-9 ||
    y + height > 1 + 1e-9
  ) {
    throw new GeometryError(
      api,
      'bad-option',
      `viewport ${JSON.stringify(viewport)} must lie inside the target: x, y ≥ 0, width, height > 0, x + width ≤ 1, y + height ≤ 1`,
    );
  }
}

/**
 * Creates a copy-to-texture task; the fast path, the MSAA resolve or the blit is chosen in record().
 * @throws {GeometryError} when the source, destination, viewport or remap is invalid
 */
export function createCopyToTextureTask(scene: Scene, config: CopyToTextureTaskConfig): CopyToTextureTask {
  checkSceneArgument(api, scene, geometryOptionError);
  const engine = scene.engine;
  checkOptionKeys(api, config, copyConfigKeys, geometryOptionError, 'config');
  if (!config?.sourceTexture)
    throw new GeometryError(
      api,
      'bad-option',
      `sourceTexture ${describeValue(config?.sourceTexture)} must be a RenderTarget`,
    );
  const name = config.name ?? 'copy-to-texture';
  const lod = config.lodLevel ?? 0;
  if (!Number.isInteger(lod) || lod < 0)
    throw new GeometryError(api, 'bad-option', `lodLevel ${describeValue(lod)} must be an integer ≥ 0`);
  checkViewport(config.viewport);
  const sourceFormat = config.sourceTexture.colorFormats[0];
  const sourceCaps = getColorFormatCaps(sourceFormat);
  if (!sourceCaps || sourceCaps.kind === 'sint')
    throw new GeometryError(
      api,
      'bad-format',
      `source format ${describeValue(sourceFormat)} cannot be copied; float, unorm and uint colour formats can`,
    );
  if (config.remap !== undefined && sourceCaps.kind === 'uint')
    throw new GeometryError(
      api,
      'bad-option',
      `remap applies to float sources; ${sourceFormat} is an unsigned-integer format`,
    );
  const remap = config.remap === undefined ? null : resolveBlitRemap(config.remap);
  const owns = config.ownsTargetTexture ?? !config.targetTexture;
  const target =
    config.targetTexture ??
    createRenderTarget(engine, {
      name: `${name}:target`,
      width: Math.max(1, config.sourceTexture.width >> lod),
      height: Math.max(1, config.sourceTexture.height >> lod),
      format: remap ? 'rgba8unorm' : sourceFormat,
      depthFormat: null,
      extraUsage: GPUTextureUsage.COPY_DST,
    });
  const targetCaps = getColorFormatCaps(target.colorFormats[0]);
  if (!targetCaps || (targetCaps.kind === 'uint') !== (sourceCaps.kind === 'uint')) {
    throw new GeometryError(
      api,
      'bad-format',
      `cannot copy ${sourceFormat} (${sourceCaps.kind}) into ${describeValue(target.colorFormats[0])}: unsigned-integer sources need unsigned-integer targets, float sources float or unorm targets`,
    );
  }
  const state: CopyToTextureState = {
    name,
    engine,
    config,
    lod,
    remap,
    sourceCaps,
    target,
    owns,
    cache: makeComposeCache({ precomposed: precomposedSourceOf(engine) }),
    fragments: [makeGeometryBlitFragment()],
    recorded: null,
    disposed: false,
  };
  const task: CopyToTextureTask = {
    name,
    outputTexture: target,
    path: null,
    needsRecord: () => copyNeedsRecord(state),
    record() {
      recordCopyToTexture(state);
      task.path = state.recorded!.path;
    },
    execute: (encoder) => executeCopyToTexture(state, encoder),
    dispose: () => disposeCopyToTexture(state),
  };
  return task;
}
