// The editor's own WGSL fragments. Mesh overlays compose them with weft's standard vertex fragments, so the
// selection wireframe, the grid and the gizmo go through the same vertex stage as the visible renderer.
import type { Fragment } from '../../../fragments/index.js';

/** Bytes of `SelectionStyle` (three vec4f). */
export const selectionStyleBytes = 48;

const selectionSource = `import bindings::selectionStyle;
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };

struct SelectionStyle {
  // rgb, a = opacity of the fill
  fillColor: vec4f,
  // rgb, a = opacity of the wire
  wireColor: vec4f,
  // x: line width (px), y: triangle extent (px) where lines start to show, z: where they are fully shown
  params: vec4f,
}

// The draw is non-indexed: vertex i is corner i % 3 of its triangle, so the corner's barycentric is a unit vector.
fn writeCornerBarycentric(input: VertexInput, output: ptr<function, VertexOutput>) {
  let corner = input.vertexIndex % 3u;
  (*output).selectionBarycentric = vec3f(f32(corner == 0u), f32(corner == 1u), f32(corner == 2u));
}

fn selectionSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let b = input.selectionBarycentric;
  // fwidth(b): barycentric change per pixel, so b / fwidth(b) is the distance to each edge in pixels (constant-width
  // lines). The triangle's smallest height in pixels (1 / |gradient| of a barycentric) measures its on-screen size.
  let edgePixels = b / max(fwidth(b), vec3f(1e-6));
  let gradient = sqrt(dpdx(b) * dpdx(b) + dpdy(b) * dpdy(b));
  let extent = 1.0 / max(max(max(gradient.x, gradient.y), gradient.z), 1e-6);
  let density = smoothstep(selectionStyle.params.y, selectionStyle.params.z, extent);
  let halfWidth = 0.5 * selectionStyle.params.x;
  let line = 1.0 - smoothstep(halfWidth - 0.5, halfWidth + 0.5, min(min(edgePixels.x, edgePixels.y), edgePixels.z));
  let wire = selectionStyle.wireColor.a * line * density;
  let fill = selectionStyle.fillColor.a * (1.0 - wire);
  let alpha = wire + fill;
  output.color = vec4f((selectionStyle.wireColor.rgb * wire + selectionStyle.fillColor.rgb * fill) / max(alpha, 1e-5), alpha);
  return output;
}
`;

/** Selection display: fill + constant-width wireframe from barycentrics in one pass, lines fading on dense meshes. */
export function createSelectionFragment(): Fragment {
  return {
    id: 'editor-selection-surface',
    source: selectionSource,
    bindings: [
      { name: 'selectionStyle', kind: 'uniform', type: 'SelectionStyle', role: 'material', visibility: ['fragment'] },
    ],
    varyings: [{ name: 'selectionBarycentric', type: 'vec3f' }],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [
      { slot: 'vertexVaryings', fn: 'writeCornerBarycentric' },
      { slot: 'fragmentStage', fn: 'selectionSurface' },
    ],
  };
}

const gridSource = `import bindings::scene;
import io::{ FragmentInput, FragmentOutput };

// Distance in pixels from p to the nearest multiple of cell, per component.
fn linePixels(p: vec2f, cell: f32) -> vec2f {
  let q = p / cell;
  return abs(fract(q - 0.5) - 0.5) / max(fwidth(q), vec2f(1e-6));
}

fn gridSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let p = input.worldPosition.xz;
  let minor = linePixels(p, 1.0);
  let major = linePixels(p, 5.0);
  let minorLine = 1.0 - min(min(minor.x, minor.y), 1.0);
  let majorLine = 1.0 - min(min(major.x, major.y), 1.0);
  // World axes: x (z = 0) red, z (x = 0) blue.
  let axisPixels = abs(p) / max(fwidth(p), vec2f(1e-6));
  let xAxis = 1.0 - min(axisPixels.y / 1.5, 1.0);
  let zAxis = 1.0 - min(axisPixels.x / 1.5, 1.0);
  let fade = 1.0 - smoothstep(12.0, 30.0, distance(input.worldPosition, scene.cameraPosition.xyz));
  var color = vec4f(0.55, 0.57, 0.6, 0.22 * minorLine + 0.3 * majorLine);
  color = mix(color, vec4f(0.85, 0.25, 0.25, 0.9), xAxis);
  color = mix(color, vec4f(0.3, 0.45, 0.9, 0.9), zAxis);
  output.color = vec4f(color.rgb, color.a * fade);
  return output;
}
`;

/** The ground grid on y = 0: unit cells, a line every 5 units, red x and blue z axes, faded with distance. */
export function createGridFragment(): Fragment {
  return {
    id: 'editor-grid-surface',
    source: gridSource,
    dependencies: ['scene-uniforms'],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'gridSurface' }],
  };
}

const handleSource = `import bindings::{ draw, scene };
import io::{ FragmentInput, FragmentOutput };

fn handleSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let toEye = normalize(scene.cameraPosition.xyz - input.worldPosition);
  let shade = 0.6 + 0.4 * abs(dot(normalize(input.worldNormal), toEye));
  output.color = vec4f(draw.baseColor.rgb * shade, 1.0);
  return output;
}
`;

/** Gizmo handles: the draw's base colour, lightly shaded towards the viewer so shafts, cones and rings read as 3D. */
export function createHandleSurfaceFragment(): Fragment {
  return {
    id: 'editor-handle-surface',
    source: handleSource,
    dependencies: ['draw-uniforms', 'scene-uniforms'],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'handleSurface' }],
  };
}

const fullscreenSource = `import io::{ VertexInput, VertexOutput };

// One triangle covering the viewport: vertices (-1, -1), (3, -1), (-1, 3).
fn fullscreenVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let corner = vec2f(f32((input.vertexIndex << 1u) & 2u), f32(input.vertexIndex & 2u));
  output.position = vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
  return output;
}
`;

/** A vertex stage without vertex buffers: one triangle covering the viewport (draw 3 vertices). */
export function createFullscreenVertexFragment(): Fragment {
  return {
    id: 'editor-fullscreen-vertex',
    source: fullscreenSource,
    fills: [{ slot: 'vertexStage', fn: 'fullscreenVertex' }],
  };
}

const presentSource = `import bindings::frameColor;
import io::{ FragmentInput, FragmentOutput };

fn presentFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = textureLoad(frameColor, vec2i(input.position.xy), 0);
  return output;
}
`;

/** Copies the editor's frame texture to the canvas, texel for texel (the canvas cannot be a copy destination). */
export function createPresentFragment(): Fragment {
  return {
    id: 'editor-present',
    source: presentSource,
    bindings: [
      {
        name: 'frameColor',
        kind: 'texture',
        sampleType: 'float',
        viewDimension: '2d',
        role: 'scene',
        visibility: ['fragment'],
      },
    ],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'presentFragment' }],
  };
}

/** Bytes of `TileParams`. */
export const tileParamsBytes = 32;

const tileSource = `import bindings::{ tileParams, tileTexture };
import io::{ FragmentInput, FragmentOutput };

struct TileParams {
  // xy: the tile's top-left pixel in the framebuffer; z: 0 colour, 1 signed normal, 2 view depth
  origin: vec4f,
  // x: view depth shown white, y: view depth shown black
  depthRange: vec4f,
}

fn gbufferTile(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let texel = textureLoad(tileTexture, vec2i(input.position.xy - tileParams.origin.xy), 0);
  let mode = u32(tileParams.origin.z);
  var rgb = texel.rgb * texel.a;
  if (mode == 1u) {
    rgb = (texel.xyz * 0.5 + 0.5) * texel.w;
  } else if (mode == 2u) {
    let range = tileParams.depthRange;
    rgb = vec3f(select(0.0, 1.0 - clamp((texel.r - range.x) / (range.y - range.x), 0.0, 0.9), texel.r > 0.0));
  }
  output.color = vec4f(rgb, 1.0);
  return output;
}
`;

/** One G-buffer thumbnail: reads its attachment texel for texel and maps colour, normals or depth to visible colours. */
export function createGbufferTileFragment(): Fragment {
  return {
    id: 'editor-gbuffer-tile',
    source: tileSource,
    bindings: [
      {
        name: 'tileTexture',
        kind: 'texture',
        sampleType: 'unfilterable-float',
        viewDimension: '2d',
        role: 'scene',
        visibility: ['fragment'],
      },
      { name: 'tileParams', kind: 'uniform', type: 'TileParams', role: 'scene', visibility: ['fragment'] },
    ],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'gbufferTile' }],
  };
}
