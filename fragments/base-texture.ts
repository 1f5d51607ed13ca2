import type { Fragment } from './fragment-types.js';

const source = `import bindings::{ baseSampler, baseTexture };

fn sampleBaseColor(uv: vec2f) -> vec4f {
  return textureSample(baseTexture, baseSampler, uv);
}
`;

/** The material's base colour texture and sampler (material group), sampled by `sampleBaseColor(uv)`. */
export function makeBaseTextureFragment(): Fragment {
  return {
    id: 'base-texture',
    source,
    bindings: [
      {
        name: 'baseTexture',
        kind: 'texture',
        sampleType: 'float',
        viewDimension: '2d',
        role: 'material',
        visibility: ['fragment'],
      },
      { name: 'baseSampler', kind: 'sampler', samplerType: 'filtering', role: 'material', visibility: ['fragment'] },
    ],
  };
}
