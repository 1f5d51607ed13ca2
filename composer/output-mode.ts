/**
 * How a variant is written, one record for the passes that write WGSL: `library` (`ComposeSpec.output: 'library'`)
 * leaves out attributes and entry points for a host that owns them; `pulled` (`ComposeSpec.vertexPulling`) reads the
 * per-vertex inputs from storage buffers instead of vertex buffers.
 * @internal
 */
export interface OutputMode {
  readonly library: boolean;
  readonly pulled: boolean;
}
