import { describe, expect, test } from 'vitest';
import {
  colorAttachmentBytesPerSample,
  type GeometryAttachmentRequest,
  GeometryError,
  type GeometryPlanContext,
  GeometryTextureType,
  planGeometryAttachments,
} from '../../../geometry/index.js';
import { normalizeGeometryRequests } from '../../../geometry/geometry-validation.js';

const context = (overrides: Partial<GeometryPlanContext> = {}): GeometryPlanContext => ({
  api: 'test',
  samples: 1,
  maxColorAttachments: 8,
  maxColorAttachmentBytesPerSample: 32,
  adapterMaxColorAttachmentBytesPerSample: 256,
  float32Blendable: true,
  blended: false,
  ...overrides,
});
const request = (type: GeometryTextureType | 'objectId', format: GPUTextureFormat): GeometryAttachmentRequest => ({
  type,
  format,
});

describe('maxColorAttachmentBytesPerSample with the spec alignment rule', () => {
  test('each attachment starts at a multiple of its component alignment', () => {
    expect(colorAttachmentBytesPerSample(['r8uint', 'r32float'])).toEqual({
      total: 8,
      attachments: [
        { format: 'r8uint', offset: 0, cost: 1 },
        { format: 'r32float', offset: 4, cost: 4 },
      ],
    });
    expect(
      colorAttachmentBytesPerSample(['r8uint', 'rgba16float', 'r8unorm', 'rgba32float']).attachments.map(
        (a) => a.offset,
      ),
    ).toEqual([0, 2, 10, 12]);
    // rgba8unorm costs 8 bytes per sample (not 4), alignment 1.
    expect(colorAttachmentBytesPerSample(['rgba8unorm', 'rgba8unorm', 'rgba8unorm', 'rgba8unorm']).total).toBe(32);
  });

  test('alignment alone can exceed the limit: 30 bytes of data need 33 bytes per sample', () => {
    const requests = [
      request(GeometryTextureType.ALBEDO, 'r8unorm'),
      request(GeometryTextureType.VIEW_DEPTH, 'r32float'),
      request(GeometryTextureType.WORLD_POSITION, 'rgba32float'),
      request(GeometryTextureType.VIEW_NORMAL, 'rgba16float'),
      request(GeometryTextureType.MESH_BLEND_TAG, 'r8uint'),
    ];
    expect(() => planGeometryAttachments(requests, context())).toThrow(
      'test: the attachments need 33 bytes per sample (each starts at a multiple of its component alignment: ALBEDO r8unorm 1 B at byte 0, VIEW_DEPTH r32float 4 B at byte 4, WORLD_POSITION rgba32float 16 B at byte 8, VIEW_NORMAL rgba16float 8 B at byte 24, MESH_BLEND_TAG r8uint 1 B at byte 32) but the device allows maxColorAttachmentBytesPerSample = 32; raise the limit with createEngineAsync(gpu, target, { requiredLimits: { maxColorAttachmentBytesPerSample: 33 } }) (this adapter allows up to 256), or override formats with smaller ones',
    );
    expect(planGeometryAttachments(requests, context({ maxColorAttachmentBytesPerSample: 33 }))).toHaveLength(5);
    expect(() => planGeometryAttachments(requests, context({ adapterMaxColorAttachmentBytesPerSample: 32 }))).toThrow(
      'this adapter allows at most 32: request fewer attachments or smaller formats',
    );
  });
});

describe('attachment rules', () => {
  test('MESH_BLEND_TAG is r8uint, single-sample, integer zero clear, never blended', () => {
    const [tag] = planGeometryAttachments(
      [request(GeometryTextureType.MESH_BLEND_TAG, 'r8uint')],
      context({ blended: true }),
    );
    expect(tag).toMatchObject({
      output: 'meshBlendTag',
      blended: false,
      resolve: 'none',
      clearValue: { r: 0, g: 0, b: 0, a: 0 },
    });
    expect(() => planGeometryAttachments([request(GeometryTextureType.MESH_BLEND_TAG, 'r32uint')], context())).toThrow(
      'MESH_BLEND_TAG format must be "r8uint"',
    );
    expect(() =>
      planGeometryAttachments([request(GeometryTextureType.MESH_BLEND_TAG, 'r8uint')], context({ samples: 4 })),
    ).toThrow('MESH_BLEND_TAG requires samples: 1');
  });

  test('samples 4: resolvable formats resolve in hardware, r32float by its first sample, 32-bit multi-channel formats are refused', () => {
    const plan = planGeometryAttachments(
      [
        request(GeometryTextureType.VIEW_NORMAL, 'rgba16float'),
        request(GeometryTextureType.VIEW_DEPTH, 'r32float'),
        request(GeometryTextureType.ALBEDO, 'rgba8unorm'),
      ],
      context({ samples: 4 }),
    );
    expect(plan.map((a) => a.resolve)).toEqual(['hardware', 'first-sample', 'hardware']);
    expect(() =>
      planGeometryAttachments([request(GeometryTextureType.LOCAL_POSITION, 'rgba32float')], context({ samples: 4 })),
    ).toThrow('LOCAL_POSITION format "rgba32float" cannot be multisampled');
    expect(() => planGeometryAttachments([request('objectId', 'rg32uint')], context({ samples: 4 }))).toThrow(
      'OBJECT_ID requires samples: 1',
    );
  });

  test('blended participants need blendable float formats', () => {
    expect(() =>
      planGeometryAttachments(
        [request(GeometryTextureType.WORLD_POSITION, 'rgba32float')],
        context({ blended: true, float32Blendable: false }),
      ),
    ).toThrow(
      'test: Transparent geometry output format "rgba32float" requires the float32-blendable WebGPU feature or a blendable format override.',
    );
    expect(
      planGeometryAttachments(
        [request(GeometryTextureType.WORLD_POSITION, 'rgba32float')],
        context({ blended: true }),
      )[0].blended,
    ).toBe(true);
    expect(
      planGeometryAttachments(
        [request(GeometryTextureType.WORLD_POSITION, 'rgba16float')],
        context({ blended: true, float32Blendable: false }),
      ),
    ).toHaveLength(1);
    expect(() =>
      planGeometryAttachments([request(GeometryTextureType.REFLECTIVITY, 'rgba8uint')], context({ blended: true })),
    ).toThrow('test: Transparent geometry output cannot blend integer format "rgba8uint".');
    expect(planGeometryAttachments([request('objectId', 'rg32uint')], context({ blended: true }))[0]).toMatchObject({
      blended: false,
      output: 'objectId',
    });
  });

  test('formats must fit what the output writes', () => {
    expect(() => planGeometryAttachments([request(GeometryTextureType.ALBEDO, 'r32uint')], context())).toThrow(
      'ALBEDO writes float values; format "r32uint" is a uint format',
    );
    expect(() =>
      planGeometryAttachments([request(GeometryTextureType.LINEAR_VELOCITY, 'r16float')], context()),
    ).toThrow('LINEAR_VELOCITY needs at least two channels');
    expect(() => planGeometryAttachments([request('objectId', 'r8uint')], context())).toThrow(
      'OBJECT_ID format "r8uint" cannot hold 32-bit ids',
    );
    expect(planGeometryAttachments([request('objectId', 'r32uint')], context())[0].format).toBe('r32uint');
  });

  test('requests: known types, no duplicates, 1..8 attachments, renderable formats', () => {
    const all = Array.from({ length: 8 }, (_, type) => ({ type: type as GeometryTextureType }));
    expect(normalizeGeometryRequests('test', all, null)).toHaveLength(8);
    expect(() => normalizeGeometryRequests('test', all, 'rg32uint')).toThrow(
      '9 attachment(s) requested (textureDescriptions + objectId); use 1..8',
    );
    expect(() => normalizeGeometryRequests('test', [], null)).toThrow('0 attachment(s) requested');
    expect(() =>
      normalizeGeometryRequests(
        'test',
        [{ type: GeometryTextureType.ALBEDO }, { type: GeometryTextureType.ALBEDO }],
        null,
      ),
    ).toThrow('textureDescriptions[1] requests ALBEDO a second time');
    expect(() => normalizeGeometryRequests('test', [{ type: 12 as GeometryTextureType }], null)).toThrow(GeometryError);
    expect(() =>
      normalizeGeometryRequests('test', [{ type: GeometryTextureType.ALBEDO, format: 'rgb9e5ufloat' }], null),
    ).toThrow('ALBEDO format "rgb9e5ufloat" is not a renderable colour format');
  });
});
