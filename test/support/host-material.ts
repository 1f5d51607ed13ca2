// The material the host-engine tests render: weft's standard vertex stage + Lambert + a custom surface with uniforms of
// its own (a smooth band pattern, so engines agree away from silhouettes). Shared by the unit snapshots, the Dawn
// library test and the three.js / Babylon.js pages.
import type { ComposeOutput, ComposeSpec } from '../../composer/index.js';
import { type Fragment, makeLambertLightingFragment, makeStandardVertexFragments } from '../../fragments/index.js';

/** The custom surface: albedo blends tint and band colour along world y, then weft's Lambert. */
export function makeBandSurfaceFragment(): Fragment {
  return {
    id: 'host-band-surface',
    source: `import bindings::{ bandParams, scene };
import io::{ FragmentInput, FragmentOutput };
import package::lambert_lighting::lambert;

struct BandParams {
  tint: vec4f,
  bandColor: vec4f,
  // x: bands per world unit along y, y: phase
  band: vec4f,
}

fn bandSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let t = 0.5 + 0.5 * sin(input.worldPosition.y * bandParams.band.x + bandParams.band.y);
  let albedo = mix(bandParams.tint.rgb, bandParams.bandColor.rgb, t);
  let lit = lambert(albedo, normalize(input.worldNormal), scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  output.color = vec4f(lit, 1.0);
  return output;
}
`,
    dependencies: ['lambert-lighting', 'scene-uniforms'],
    bindings: [{ name: 'bandParams', kind: 'uniform', type: 'BandParams', role: 'material', visibility: ['fragment'] }],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'bandSurface' }],
  };
}

/** Position and normal in two tight buffers (what three.js and Babylon.js attributes are). */
export function hostMaterialSpec(output: ComposeOutput, bindings?: ComposeSpec['bindings']): ComposeSpec {
  return {
    fragments: [...makeStandardVertexFragments(), makeLambertLightingFragment(), makeBandSurfaceFragment()],
    conditions: { normals: true },
    vertexLayout: {
      kind: 'buffers',
      buffers: [
        { arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' }] },
        { arrayStride: 12, attributes: [{ semantic: 'normal', offset: 0, format: 'float32x3' }] },
      ],
    },
    output,
    ...(bindings ? { bindings } : {}),
  };
}

/** Library-mode variants with snapshots (test/unit/composer/__snapshots__/<name>.wgsl). */
export function hostLibraryVariants(): { name: string; description: string; spec: () => ComposeSpec }[] {
  return [
    {
      name: 'library-host-band-surface',
      description: 'library output: standard vertex + Lambert + a host surface with its own uniform',
      spec: () => hostMaterialSpec('library'),
    },
    {
      name: 'library-host-band-surface-groups-1-3',
      description: 'library output with scene, mesh, material in groups 1..3 (group 0 kept for the host)',
      spec: () => hostMaterialSpec('library', { groups: { scene: 1, mesh: 2, material: 3 } }),
    },
    {
      name: 'library-standard-vertex-only',
      description: 'library output without a fragment stage (a depth-only host pass)',
      spec: () => ({ fragments: makeStandardVertexFragments(), conditions: { normals: true }, output: 'library' }),
    },
  ];
}
